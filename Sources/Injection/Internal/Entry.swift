import Synchronization

/// One registration: how to make a `Service`, in which scope, and (for shared scopes) where
/// the instance is kept.
///
/// The table stores entries as `any ServiceEntry`; an entry stored under the key of type `S`
/// is always an `Entry<S>`, which is what makes the downcast in ``Container`` safe.
final class Entry<Service>: ServiceEntry {
    /// The name it was registered under.
    let name: String?
    /// "PriceFetcher named 'file'", for messages. Computed, not stored: naming a type
    /// costs a scan of every protocol conformance in the process the first time, and
    /// start-up registers services whose names are only needed when something fails.
    var displayName: String { registrationName(typeName: typeName(Service.self), name: name) }
    /// "PriceFetcher(named 'file')", for dependency paths.
    var pathName: String { Injection.pathName(typeName: typeName(Service.self), name: name) }
    let scope: Scope
    /// `nil` when the factory takes no argument.
    let argument: ArgumentType?
    /// The user's factory, for a registration that takes no argument: called directly, since
    /// a wrapping closure cost a call and a context on every resolve.
    let factory: (@Sendable (any Resolver) throws -> Service)?
    /// Otherwise, runs the user's factory (or another entry's, for ``Registration/implements(_:name:)``)
    /// with the resolution, the container that holds this entry (`nil` when it is the
    /// resolution's origin), and the argument, already checked against ``argument``.
    let make: (@Sendable (Resolution, Container?, Any?) throws -> Service)?
    /// Where a singleton or weak instance is kept; `nil` for transient and graph.
    let cache: (any InstanceCache<Service>)?
    /// The address of an emptied ``Resolution`` rooted at this entry, retained, kept for the
    /// next top-level resolve of it; 0 when there is none or one is in use. An integer, not an
    /// `Unmanaged<Resolution>`, so that the atomic is `Sendable`.
    private let spareResolution = Atomic<UInt>(0)

    init(
        name: String?,
        scope: Scope,
        argument: ArgumentType?,
        cache: (any InstanceCache<Service>)?,
        factory: (@Sendable (any Resolver) throws -> Service)? = nil,
        make: (@Sendable (Resolution, Container?, Any?) throws -> Service)? = nil
    ) {
        precondition((factory == nil) != (make == nil), "an entry has exactly one way to make its service")
        self.name = name
        self.scope = scope
        self.argument = argument
        self.cache = cache
        self.factory = factory
        self.make = make
    }

    deinit {
        if let spare = UnsafeRawPointer(bitPattern: spareResolution.load(ordering: .acquiring)) {
            Unmanaged<Resolution>.fromOpaque(spare).release()
        }
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

    /// Throws unless the factory takes no argument.
    @inline(__always)
    func checkNoArgument() throws {
        if let expected = argument {
            throw ResolutionError.argumentMissing(registration: displayName, expected: expected.name)
        }
    }

    /// Throws unless `given` is what the factory takes.
    @inline(__always)
    func checkArgument(_ given: GivenArgument) throws {
        guard let expected = argument else {
            throw ResolutionError.argumentUnexpected(registration: displayName, given: given.typeName())
        }
        if expected.id != given.type {
            throw ResolutionError.argumentTypeMismatch(
                registration: displayName, expected: expected.name, given: given.typeName())
        }
    }
}
