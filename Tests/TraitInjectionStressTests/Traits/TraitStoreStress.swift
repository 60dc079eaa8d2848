import Testing

/// Every trait stress suite is nested here: the trait store is global and some tests assert on
/// its exact count, so these suites run one after another.
@Suite(.serialized)
enum TraitStoreStress {}
