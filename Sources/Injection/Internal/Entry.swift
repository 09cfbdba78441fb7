/// One registration: how to make a `Service`, in which scope, and (for shared scopes) where
/// the instance is kept.
///
/// The table stores entries as `any ServiceEntry`; an entry stored under the key of type `S`
/// is always an `Entry<S>`, which is what makes the downcast in ``Container`` safe.
final class Entry<Service>: ServiceEntry {
    /// "PriceFetcher named 'file'", for messages.
    let displayName: String
    let pathName: String
    let scope: Scope
    /// `nil` when the factory takes no argument.
    let argument: ArgumentType?
    /// Runs the user's factory with the resolution, the container that holds this entry (`nil`
    /// when it is the resolution's origin), and the argument, already checked against
    /// ``argument``.
    let make: @Sendable (Resolution, Container?, Any?) throws -> Service
    /// Where a singleton or weak instance is kept; `nil` for transient and graph.
    let cache: (any InstanceCache<Service>)?

    init(
        name: String?,
        scope: Scope,
        argument: ArgumentType?,
        cache: (any InstanceCache<Service>)?,
        make: @escaping @Sendable (Resolution, Container?, Any?) throws -> Service
    ) {
        let type = typeName(Service.self)
        displayName = registrationName(typeName: type, name: name)
        pathName = Injection.pathName(typeName: type, name: name)
        self.scope = scope
        self.argument = argument
        self.cache = cache
        self.make = make
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
