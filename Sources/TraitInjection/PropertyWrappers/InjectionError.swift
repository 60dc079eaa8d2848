/// Why an ``Inject`` or ``WeakInject`` property (or a resolved ``InjectorDefault``) could not get
/// its value, with where it is declared.
///
/// Its ``description`` is what a property that cannot resolve stops with:
///
/// ```
/// @Inject property at RestaurantListViewController.swift:7 could not be resolved:
/// RestaurantLister is not registered. No registration exists for this type: …
/// ```
///
/// Read it without stopping through the wrapper's projected value:
///
/// ```swift
/// do {
///     let lister = try viewController.$lister.resolve()
/// } catch {
///     print(error)   // @Inject property at RestaurantListViewController.swift:7 could not be resolved: …
/// }
/// ```
public struct InjectionError: Error, Sendable, CustomStringConvertible {
    /// Where the property is declared, as `File.swift:line`.
    public let location: String
    /// The container's error, or `nil` if the service was resolved but a ``WeakInject`` property
    /// cannot hold it because it is not a class instance.
    public let resolutionError: ResolutionError?
    public let description: String
    /// What was declared: `@Inject property`.
    let declaration: String

    /// The service could not be resolved.
    init(_ resolutionError: ResolutionError, declaration: String, location: String) {
        self.declaration = declaration
        self.location = location
        self.resolutionError = resolutionError
        description = "\(declaration) at \(location) could not be resolved: \(resolutionError)"
    }

    /// The service was resolved, but it is a value that a weak reference cannot hold.
    init(notAnObject type: Any.Type, declaration: String, location: String) {
        self.declaration = declaration
        self.location = location
        resolutionError = nil
        let typeName = String(reflecting: type).droppingModulePrefixes
        description = """
            \(declaration) at \(location) holds its value weakly, but the container resolved a \
            \(typeName), which is not a class instance. Use @Inject for values.
            """
    }
}
