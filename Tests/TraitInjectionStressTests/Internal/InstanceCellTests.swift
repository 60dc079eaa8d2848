import TestFixtures
import Testing

@testable import TraitInjection

/// Direct tests of ``InstanceCell``: what a claim gets in each state, and when an instance is kept.
@Suite("Internal primitives: InstanceCell")
struct InstanceCellTests {
    /// A claiming resolve, told apart by an object's identity.
    final class Resolve {}

    static func owner(_ resolve: Resolve, generation: UInt64 = 1) -> CreationOwner {
        CreationOwner(resolve: ObjectIdentifier(resolve), generation: generation)
    }

    /// The epoch of a `.create` claim, or `nil` for any other claim.
    static func createEpoch(_ claim: InstanceCell<Service>.Claim) -> UInt64? {
        if case .create(let epoch) = claim { return epoch }
        return nil
    }

    @Test("An empty cell hands out the right to create; the creator's own second claim is its own")
    func claimAndOwnClaim() throws {
        let cell = InstanceCell<Service>(serviceDescription: "Service (test)")
        let resolve = Resolve()
        #expect(cell.strongInstance == nil)
        #expect(try Self.createEpoch(cell.claim(by: Self.owner(resolve))) == 0)
        #expect(cell.creator == Self.owner(resolve))
        guard case .ownClaim = try cell.claim(by: Self.owner(resolve)) else {
            Issue.record("the creator's second claim is not its own")
            return
        }
    }

    @Test("A published instance is read with and without the lock, and a reset drops it")
    func publishAndReset() throws {
        let cell = InstanceCell<Service>(serviceDescription: "Service (test)")
        let resolve = Resolve()
        let epoch = try #require(Self.createEpoch(cell.claim(by: Self.owner(resolve))))
        let service = Service(number: 1)
        cell.publish(service, weakly: false, epoch: epoch, by: Self.owner(resolve))
        #expect(cell.strongInstance === service)
        #expect(cell.instance === service)
        guard case .instance(let claimed) = try cell.claim(by: Self.owner(Resolve())), claimed === service else {
            Issue.record("a claim after publication does not get the instance")
            return
        }
        cell.reset()
        #expect(cell.strongInstance == nil)
        #expect(cell.instance == nil)
        // The next creation has a new epoch.
        #expect(try Self.createEpoch(cell.claim(by: Self.owner(resolve, generation: 2))) == 1)
    }

    @Test("An instance whose creation a reset overtook, or whose claim was abandoned, is not kept")
    func staleCreationIsNotKept() throws {
        let cell = InstanceCell<Service>(serviceDescription: "Service (test)")
        let resolve = Resolve()
        let epoch = try #require(Self.createEpoch(cell.claim(by: Self.owner(resolve))))
        cell.reset()
        cell.publish(Service(number: 1), weakly: false, epoch: epoch, by: Self.owner(resolve))
        #expect(cell.strongInstance == nil)
        // Abandoned: the next resolve may create it.
        let second = try #require(Self.createEpoch(cell.claim(by: Self.owner(resolve, generation: 2))))
        cell.abandon(by: Self.owner(resolve, generation: 2))
        #expect(cell.creator == nil)
        #expect(try Self.createEpoch(cell.claim(by: Self.owner(Resolve()))) == second)
    }

    @Test("A retired cell keeps nothing: every claim creates an unkept instance")
    func retiredKeepsNothing() throws {
        let cell = InstanceCell<Service>(serviceDescription: "Service (test)")
        let resolve = Resolve()
        let epoch = try #require(Self.createEpoch(cell.claim(by: Self.owner(resolve))))
        cell.publish(Service(number: 1), weakly: false, epoch: epoch, by: Self.owner(resolve))
        cell.retire()
        #expect(cell.strongInstance == nil)
        guard case .createUnkept = try cell.claim(by: Self.owner(Resolve())) else {
            Issue.record("a retired cell handed out something other than an unkept creation")
            return
        }
    }

    @Test("A weakly kept object is handed out while it lives; once it is gone, a claim creates anew")
    func weaklyKept() throws {
        let cell = InstanceCell<Service>(serviceDescription: "Service (test)")
        let resolve = Resolve()
        let epoch = try #require(Self.createEpoch(cell.claim(by: Self.owner(resolve))))
        var service: Service? = Service(number: 2)
        cell.publish(service!, weakly: true, epoch: epoch, by: Self.owner(resolve))
        #expect(cell.strongInstance == nil)  // Never in the lock-free box.
        #expect(cell.instance === service)
        service = nil
        #expect(cell.instance == nil)
        #expect(try Self.createEpoch(cell.claim(by: Self.owner(Resolve()))) == epoch)
    }
}
