/// What an ``Inject`` or ``WeakInject`` property, or a resolved ``InjectorDefault``, asks a
/// container for (the service, its name and arguments) and where it was declared.
@usableFromInline
struct InjectionRequest<Service>: Sendable {
    /// How errors name the declaration: `@Inject property`.
    let declaration: String
    /// Where it was declared, as `#fileID` and `#line`; turned into text only for an error.
    let file: StaticString
    let line: UInt
    private let resolveService: @Sendable (any Resolver) throws(ResolutionError) -> Service

    init<each Argument: Sendable>(
        declaration: String,
        name: String?,
        arguments: repeat each Argument,
        file: StaticString,
        line: UInt
    ) {
        self.declaration = declaration
        self.file = file
        self.line = line
        resolveService = { resolver throws(ResolutionError) in
            try resolver.resolve(Service.self, name: name, arguments: repeat each arguments)
        }
    }

    /// A request for the declared service `property` reads (``RegisteredWith``): resolved from a
    /// container, or through the resolution creating the instance that holds the property.
    /// `Owner` is ``Container``, or an app's ``ServiceContainer``.
    init<Owner: ServiceContainer>(
        declaration: String,
        property: any KeyPath<Owner, Registered<Service>> & Sendable,
        file: StaticString,
        line: UInt
    ) {
        self.declaration = declaration
        self.file = file
        self.line = line
        resolveService = { resolver throws(ResolutionError) in
            switch resolver {
            case let resolution as Resolution: try resolution[property]()
            case let container as Owner: try container[keyPath: property]()
            default: try Owner.shared[keyPath: property]()  // Another `Resolver`: as a first access does.
            }
        }
    }

    /// Where it was declared, as `File.swift:12`.
    var location: String {
        "\(String(describing: file).split(separator: "/").last ?? ""):\(line)"
    }

    /// Resolves the service from `resolver`: a container, or the resolution creating the instance
    /// that holds the property.
    func resolve(from resolver: any Resolver) throws(InjectionError) -> Service {
        do {
            return try resolveService(resolver)
        } catch {
            throw InjectionError(error, declaration: declaration, location: location)
        }
    }

    /// Stops the program with `error`, reported at the declaration.
    func stop(with error: InjectionError) -> Never {
        fatalError(error.description, file: file, line: line)
    }
}
