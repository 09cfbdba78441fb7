import Synchronization

/// One registration: how to make a `Service`, in which scope, and (for shared scopes) where
/// the instance is kept.
///
/// The table stores entries as `any ServiceEntry`; an entry stored under the key of type `S`
/// is always an `Entry<S>`, which is what makes the downcast in ``Container`` safe.
final class Entry<Service>: ServiceEntry {
    /// A registration's parts, from which ``Registration``'s modifiers make a changed entry.
    struct Definition: Sendable {
        var name: String?
        var scope: Scope
        var argument: ArgumentType?
        var factory: (@Sendable (any Resolver) throws -> Service)?
        var make: (@Sendable (Resolution, Container?, Any?) throws -> Service)?
        var initCompleted: (@Sendable (any Resolver, Service) throws -> Void)?
        /// True for a type added with ``Registration/implements(_:name:)``.
        var isForwarding = false

        init(
            name: String?, scope: Scope, argument: ArgumentType? = nil, isForwarding: Bool = false,
            factory: (@Sendable (any Resolver) throws -> Service)? = nil,
            make: (@Sendable (Resolution, Container?, Any?) throws -> Service)? = nil
        ) {
            self.name = name
            self.scope = scope
            self.argument = argument
            self.isForwarding = isForwarding
            self.factory = factory
            self.make = make
        }
    }

    let definition: Definition
    /// The name it was registered under.
    var name: String? { definition.name }
    /// "PriceFetcher named 'file'", for messages. Computed, not stored: naming a type
    /// costs a scan of every protocol conformance in the process the first time, and
    /// start-up registers services whose names are only needed when something fails.
    var displayName: String { registrationName(typeName: typeName(Service.self), name: name) }
    /// "PriceFetcher(named 'file')", for dependency paths.
    var pathName: String { Injection.pathName(typeName: typeName(Service.self), name: name) }
    let scope: Scope
    let keepsGraphInstance: Bool
    /// `nil` when the factory takes no argument.
    let argument: ArgumentType?
    var argumentType: ArgumentType? { argument }
    /// The user's factory, for a registration that takes no argument: called directly, since
    /// a wrapping closure cost a call and a context on every resolve.
    let factory: (@Sendable (any Resolver) throws -> Service)?
    /// Otherwise, runs the user's factory (or another entry's, for ``Registration/implements(_:name:)``)
    /// with the resolution, the container that holds this entry (`nil` when it is the
    /// resolution's origin), and the argument, already checked against ``argument``.
    let make: (@Sendable (Resolution, Container?, Any?) throws -> Service)?
    /// Runs after the factory, in the same resolution (Swinject's `initCompleted`).
    let initCompleted: (@Sendable (any Resolver, Service) throws -> Void)?
    /// Whether there is one: testing the closure for `nil` loads, and so retains, it.
    let hasInitCompleted: Bool
    /// Where a shared-scope instance is kept; `nil` for transient and graph.
    let cache: (any InstanceCache<Service>)?
    /// Whether there is one: reading `cache`, an optional existential generic over the service,
    /// looks its metadata up and copies it through value witnesses, which a graph-scope chain
    /// paid on every nested resolve.
    let hasCache: Bool
    /// The address of an emptied ``Resolution`` rooted at this entry, retained, kept for the
    /// next top-level resolve of it; 0 when there is none or one is in use. An integer, not an
    /// `Unmanaged<Resolution>`, so that the atomic is `Sendable`.
    private let spareResolution = Atomic<UInt>(0)

    init(_ definition: Definition, cache: (any InstanceCache<Service>)?) {
        precondition((definition.factory == nil) != (definition.make == nil), "an entry has exactly one way to make its service")
        self.definition = definition
        scope = definition.scope
        keepsGraphInstance = definition.scope.kind == .graph && definition.argument == nil
        argument = definition.argument
        factory = definition.factory
        make = definition.make
        initCompleted = definition.initCompleted
        hasInitCompleted = definition.initCompleted != nil
        self.cache = cache
        hasCache = cache != nil
    }

    deinit {
        if let spare = UnsafeRawPointer(bitPattern: spareResolution.load(ordering: .acquiring)) {
            Unmanaged<Resolution>.fromOpaque(spare).release()
        }
    }

    var summary: String {
        let arguments = argument.map { ", \($0.name)" } ?? ""
        let parts = [
            "Service: \(typeName(Service.self))",
            name.map { "Name: \"\($0)\"" },
            "Factory: (Resolver\(arguments)) -> \(typeName(Service.self))",
            "Scope: \(scope)",
            definition.isForwarding ? "Forwarded" : nil,
            initCompleted == nil ? nil : "InitCompleted: Specified",
        ]
        return "{ " + parts.compactMap { $0 }.joined(separator: ", ") + " }"
    }

    func resetInstance() {
        cache?.reset()
    }

    /// Takes the spare resolution, leaving none; `nil` when there is none.
    @inline(__always)
    func takeSpareResolution() -> Resolution? {
        guard let spare = UnsafeRawPointer(bitPattern: spareResolution.exchange(0, ordering: .acquiringAndReleasing)) else {
            return nil
        }
        return Unmanaged<Resolution>.fromOpaque(spare).takeRetainedValue()
    }

    /// Keeps `resolution`, emptied and referenced from nowhere else, as the spare, unless
    /// another resolve parked one meanwhile.
    @inline(__always)
    func park(_ resolution: consuming Resolution) {
        let address = UInt(bitPattern: Unmanaged.passRetained(resolution).toOpaque())
        if !spareResolution.compareExchange(expected: 0, desired: address, ordering: .acquiringAndReleasing).exchanged {
            Unmanaged<Resolution>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).release()
        }
    }
}
