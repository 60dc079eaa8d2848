import TestFixtures
import Testing

/// Every trait stress suite is nested here: the trait store is global and some tests assert on
/// its exact count, so these suites run one after another, and never beside another suite that
/// creates traits.
@Suite(.serialized, .traitStoreExclusive)
enum TraitStoreStress {}
