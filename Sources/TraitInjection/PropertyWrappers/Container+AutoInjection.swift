extension Container {
    /// Resolves the ``Inject`` and ``WeakInject`` properties of an instance created elsewhere
    /// (by hand, by a framework), as if this container had created it.
    ///
    /// Properties that already hold a value are left alone. All properties are resolved within
    /// one resolution, so they share graph-scoped services.
    ///
    /// ```swift
    /// let viewController = RestaurantListViewController()   // made by a storyboard, say
    /// try container.autoInject(into: viewController)
    /// ```
    ///
    /// A container does this by itself for every instance it creates: it finds the properties by
    /// reflection and resolves them within the same resolution, after the instance's object graph
    /// exists, so a cycle through a strong ``Inject`` and a ``WeakInject`` closes with no
    /// ``Registration/initCompleted(_:)-((Resolution,Service)->Void)``.
    ///
    /// - Parameter instance: An object, or a struct (its wrappers share their storage with it).
    /// - Throws: ``InjectionError`` for the first property that cannot be resolved.
    public func autoInject<Instance>(into instance: Instance) throws(InjectionError) {
        let properties = AutoInjection.properties(of: instance)
        guard !properties.isEmpty else { return }
        var failure: InjectionError?
        do {
            let stack = ResolvingThread.current.stack
            try stack.topLevel(self, describing: "\(Instance.self)") { t throws(ResolutionError) in
                let resolution = Resolution(top: t, in: stack)
                for property in properties {
                    do throws(InjectionError) {
                        try property.inject(from: resolution)
                    } catch {
                        failure = error
                        // Unwinds the resolution, so that nothing it created is kept.
                        throw error.resolutionError ?? ResolutionError(kind: .factoryFailed, service: error.declaration)
                    }
                }
            }
        } catch {
            throw failure ?? InjectionError(error, declaration: "@Inject property", location: "?")
        }
    }
}
