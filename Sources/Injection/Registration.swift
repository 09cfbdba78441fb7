/// A registration just made, as `Container.register` returns it.
///
/// Its modifiers replace the registration in its container and return the new handle, so they
/// chain: `register { … }.implements(P.self).scope(.singleton).initCompleted { … }`.
public struct Registration<Service>: Sendable {
    let container: Container
    let entry: Entry<Service>
    /// Re-adds the types added with ``implements(_:name:)`` for a replaced entry.
    private let forwards: [@Sendable (Entry<Service>, Container) -> Void]

    init(container: Container, entry: Entry<Service>, forwards: [@Sendable (Entry<Service>, Container) -> Void] = []) {
        self.container = container
        self.entry = entry
        self.forwards = forwards
    }

    /// The name it is registered under.
    public var name: String? { entry.name }
    /// The scope its instances live in.
    public var scope: Scope { entry.scope }

    /// Makes this registration also answer for `type` under `name`, in the same container
    /// (Swinject's type forwarding, Resolver's `implements`).
    ///
    /// Both types share one instance within the registration's scope: resolving either in one
    /// graph, or either of a singleton, yields the same object. The instance is converted with
    /// a conditional cast at resolve time; if it is not a `type`, resolving `type` throws
    /// ``ResolutionError`` with code ``ResolutionError/Code/typeMismatch``.
    ///
    /// - Returns: This registration, to chain further calls.
    @discardableResult
    public func implements<Other>(_ type: Other.Type, name: String? = nil) -> Registration<Service> {
        let forward: @Sendable (Entry<Service>, Container) -> Void = { source, container in
            container.add(Self.forwarding(source, as: Other.self, name: name), name: name)
        }
        forward(entry, container)
        let behaviors = container.behaviors.withLock { $0 }
        for behavior in behaviors {
            behavior.container(container, didRegisterType: Other.self, toService: self, withName: name)
        }
        return Registration(container: container, entry: entry, forwards: forwards + [forward])
    }

    /// Swinject's `forType`: ``implements(_:name:)``.
    @discardableResult
    public func forType<Other>(_ type: Other.Type, name: String? = nil) -> Registration<Service> {
        implements(type, name: name)
    }

    /// Runs `completion` on each new instance right after its factory, in the same resolution
    /// (Swinject's `initCompleted`): for property injection, and to close a cycle through a
    /// property. A graph-scope instance is already shared while `completion` runs, so a
    /// dependency it resolves that resolves this registration again gets this very instance.
    /// A cycle with no such property still throws ``ResolutionError/Code/dependencyCycle``.
    ///
    /// What `completion` throws is reported as ``ResolutionError/Code/factoryFailed``.
    /// Calling this again adds another completion, run after the earlier ones.
    @discardableResult
    public func initCompleted(
        _ completion: @escaping @Sendable (any Resolver, Service) throws -> Void
    ) -> Registration<Service> {
        var definition = entry.definition
        if let earlier = definition.initCompleted {
            definition.initCompleted = { resolver, instance in
                try earlier(resolver, instance)
                try completion(resolver, instance)
            }
        } else {
            definition.initCompleted = completion
        }
        return replaced(by: definition, cache: entry.cache)
    }

    /// Resolver's `resolveProperties`: ``initCompleted(_:)``.
    @discardableResult
    public func resolveProperties(
        _ completion: @escaping @Sendable (any Resolver, Service) throws -> Void
    ) -> Registration<Service> {
        initCompleted(completion)
    }

    /// Moves the registration to `scope` (Resolver's `.scope(.application)`); the types added
    /// with ``implements(_:name:)`` follow.
    @discardableResult
    public func scope(_ scope: UnsharedScope) -> Registration<Service> {
        var definition = entry.definition
        definition.scope = scope.scope
        return replaced(by: definition, cache: nil)
    }

    /// Swinject's `inObjectScope`: ``scope(_:)-(UnsharedScope)``.
    @discardableResult
    public func inObjectScope(_ scope: UnsharedScope) -> Registration<Service> {
        self.scope(scope)
    }

    func replaced(by definition: Entry<Service>.Definition, cache: (any InstanceCache<Service>)?) -> Registration<Service> {
        let replacement = Registration(container: container, entry: Entry(definition, cache: cache), forwards: forwards)
        replacement.add()
        return replacement
    }

    /// Puts the entry, and the types it is forwarded to, in the container.
    func add() {
        container.add(entry, name: entry.name)
        for forward in forwards {
            forward(entry, container)
        }
    }

    private static func forwarding<Other>(_ source: Entry<Service>, as type: Other.Type, name: String?) -> Entry<Other> {
        // Transient here: the instance is cached, if at all, under the source registration.
        let definition = Entry<Other>.Definition(
            name: name, scope: .transient, argument: source.argument, isForwarding: true,
            make: { resolution, owner, argument in
                let instance = try resolution.checkedInstance(of: source, owner: owner, argument: argument)
                guard let converted = instance as? Other else {
                    throw ResolutionError.typeMismatch(
                        registration: source.displayName,
                        instanceType: typeName(Swift.type(of: instance as Any)),
                        expected: typeName(Other.self))
                }
                return converted
            })
        return Entry(definition, cache: nil)
    }
}

extension Registration where Service: Sendable {
    /// Moves the registration to `scope` (Resolver's `.scope(.application)`); the types added
    /// with ``implements(_:name:)`` follow. An instance already kept in the old scope is not
    /// carried over.
    // Disfavoured: `.graph` and `.transient`, which both overloads take, then mean the
    // UnsharedScope one's (the same scopes, with no cache to make), and a non-`Sendable`
    // service reaches this one only for a shared scope, where it fails to compile.
    @_disfavoredOverload
    @discardableResult
    public func scope(_ scope: Scope) -> Registration<Service> {
        var definition = entry.definition
        definition.scope = scope
        return replaced(by: definition, cache: container.makeCache(scope, Service.self))
    }

    /// Swinject's `inObjectScope`: ``scope(_:)-(Scope)``.
    @_disfavoredOverload
    @discardableResult
    public func inObjectScope(_ scope: Scope) -> Registration<Service> {
        self.scope(scope)
    }
}
