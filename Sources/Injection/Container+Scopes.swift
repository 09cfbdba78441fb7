extension Container {
    /// Adds `behavior`: it is told of the registrations made from now on.
    public func addBehavior(_ behavior: any Behavior) {
        behaviors.withLock { $0.append(behavior) }
    }

    /// Empties every instance `scope` keeps in this container and its ancestors (Swinject's
    /// `resetObjectScope`, which resets the parent's too): singletons, weak and custom-scope
    /// instances; the next resolve makes a new one. A reset singleton is released when its
    /// container is, not before. For a custom scope across every container, including other
    /// children of the same parent, use ``Scope/reset()``.
    public func resetObjectScope(_ scope: Scope) {
        var container: Container? = self
        while let current = container {
            let matching = current.entries.withLock { $0.allEntries }.filter { $0.scope == scope }
            for entry in matching {
                entry.resetInstance()
            }
            container = current.parent
        }
    }

    /// Forgets every registration of this container (its ancestors keep theirs), and the
    /// instances they kept.
    public func removeAll() {
        entries.withLock { $0.removeAll() }
    }

    /// This container: Swinject's `synchronize()` returns a thread-safe resolver, and every
    /// container here is one already.
    public func synchronize() -> any Resolver {
        self
    }
}
