import Synchronization

/// A property wrapper that a container fills in when it creates the instance holding it:
/// ``Inject`` and ``WeakInject``, found by reflection.
protocol AutoInjectedProperty {
    /// The storage the wrapper shares with its copies, such as the one `Mirror` hands out.
    var injection: any PropertyInjection { get }
}

/// Fills in one property from a resolver, unless it already holds a value.
protocol PropertyInjection: Sendable {
    func inject(from resolver: any Resolver) throws(InjectionError)
}

extension InjectionStorage: PropertyInjection {
    func inject(from resolver: any Resolver) throws(InjectionError) {
        _ = try resolve(from: resolver)
    }
}

/// Finds the auto-injected properties of instances, by reflection.
enum AutoInjection {
    /// The ``AutoInjectedProperty`` wrappers stored in `instance`, its own and its superclasses'.
    static func properties(of instance: Any) -> [any PropertyInjection] {
        var found: [any PropertyInjection] = []
        var mirror: Mirror? = Mirror(reflecting: instance)
        while let current = mirror {
            for child in current.children {
                if let property = child.value as? any AutoInjectedProperty {
                    found.append(property.injection)
                }
            }
            mirror = current.superclassMirror
        }
        return found
    }
}

/// A registration's memory of which instances need no auto-injection, so that reflection does
/// not run on every resolve of a type without injected properties.
///
/// It holds the dynamic type last seen to have none; reading it is one relaxed atomic load.
final class AutoInjectionCache: Sendable {
    /// The `ObjectIdentifier` of that type, as bits; 0 if there is none yet.
    let typeWithoutProperties = Atomic<UInt>(0)

    init() {}

    /// Whether instances of `type` are known to have no ``Inject`` or ``WeakInject`` property.
    func hasNone(_ type: ObjectIdentifier) -> Bool {
        typeWithoutProperties.load(ordering: .relaxed) == UInt(bitPattern: type)
    }

    /// The auto-injection that a new `instance` of `registration` needs, to run once its object
    /// graph exists (as `initCompleted` closures do), or `nil` if it has no ``Inject`` or
    /// ``WeakInject`` property.
    ///
    func injection(into instance: Any, _ type: ObjectIdentifier, of binding: Binding) -> ((Resolution) throws -> Void)?
    {
        if hasNone(type) { return nil }
        return reflectedInjection(into: instance, of: binding, dynamicType: UInt(bitPattern: type))
    }

    /// The slow path of ``injection(into:of:)``: reflection, remembered if it finds nothing.
    private func reflectedInjection(
        into instance: Any,
        of binding: Binding,
        dynamicType: UInt
    ) -> ((Resolution) throws -> Void)? {
        let properties = AutoInjection.properties(of: instance)
        guard !properties.isEmpty else {
            typeWithoutProperties.store(dynamicType, ordering: .relaxed)
            return nil
        }
        return { resolution in
            for property in properties {
                do throws(InjectionError) {
                    try property.inject(from: resolution)
                } catch {
                    throw error.neededBy(binding)
                }
            }
        }
    }
}

extension InjectionError {
    /// This error as one of the resolution that created `registration`'s instance: the
    /// container's error with the instance and the property on its path, such as
    /// `Server is not registered, needed by Client (App.swift:9) → @Inject property (Client.swift:3).`
    ///
    /// A cycle is reported as it is: it runs between registrations, not through the property.
    func neededBy(_ binding: Binding) -> any Error {
        guard let resolutionError, resolutionError.kind != .cycle else { return self }
        let property = ResolutionError.Step(service: declaration, location: location)
        // The instance's own frame is on the path while its properties are injected: the
        // property goes right after it.
        var path = resolutionError.path
        if let instance = path.lastIndex(of: binding.step) {
            path.insert(property, at: instance + 1)
        } else {
            path = [binding.step, property] + path
        }
        var error = ResolutionError(
            kind: resolutionError.kind,
            service: resolutionError.service,
            path: path,
            availableRegistrations: resolutionError.availableRegistrations,
            underlyingError: resolutionError.underlyingError,
            relatedServices: resolutionError.relatedServices,
            depth: resolutionError.depth
        )
        error.isBetweenTasks = resolutionError.isBetweenTasks
        error.suspension = resolutionError.suspension
        error.suspendedAt = resolutionError.suspendedAt
        error.isInterruption = resolutionError.isInterruption
        return error
    }
}
