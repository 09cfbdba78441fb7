/// What a factory receives to resolve its own dependencies.
///
/// The resolver handed to a factory belongs to one top-level resolution: lookups start at the
/// container where that resolution began (so a child container's overrides apply to the
/// dependencies of services registered only in its parent), ``Scope/graph`` instances are
/// shared through it, and dependency cycles are detected through it. Use it only while the
/// factory runs and on the factory's thread: graph-scope instances, which need not be
/// `Sendable`, are shared through it. Resolving through the container itself from inside a
/// factory starts a new, unrelated resolution, which neither shares the graph nor detects
/// cycles through the outer one.
///
/// A class protocol (Swinject's can be adopted by a struct): a factory receives its resolver as
/// one reference, with no existential box to build, retain and destroy around every factory
/// call. A test double that stands in for a resolver is a class.
public protocol Resolver: AnyObject, Sendable {
    /// Returns the service registered for `type` under `name` (`nil` for the unnamed one).
    ///
    /// - Throws: ``ResolutionError`` when nothing is registered, the registration needs an
    ///   argument, a dependency cycle is found, or a factory throws.
    func resolve<Service>(_ type: Service.Type, name: String?) throws -> Service

    /// Returns the service registered for `type` under `name`, passing `argument` to its factory.
    ///
    /// - Throws: ``ResolutionError`` as ``resolve(_:name:)`` does, and with code
    ///   ``ResolutionError/Code/argumentTypeMismatch`` when the registration takes no argument
    ///   or one of another type.
    func resolve<Service, Argument>(_ type: Service.Type, name: String?, argument: Argument) throws -> Service

    /// Returns the service registered for `type` under `name`, or `nil` when nothing is
    /// registered for it; every other failure throws as ``resolve(_:name:)``.
    func resolveIfRegistered<Service>(_ type: Service.Type, name: String?) throws -> Service?

    /// As ``resolveIfRegistered(_:name:)``, for a registration whose factory takes an `Argument`.
    func resolveIfRegistered<Service, Argument>(_ type: Service.Type, name: String?, argument: Argument) throws -> Service?
}
