extension Container {
    /// Adds `behavior`: it is told of the registrations made from now on.
    public func addBehavior(_ behavior: any Behavior) {
        behaviors.withLock { $0.append(behavior) }
    }

    /// Empties every instance `scope` keeps in this container (Swinject's
    /// `resetObjectScope`): singletons, weak and custom-scope instances; the next resolve
    /// makes a new one. A reset singleton is released when the container is, not before.
    /// For a custom scope across every container, use ``Scope/reset()``.
    public func resetObjectScope(_ scope: Scope) {
        let matching = entries.withLock { $0.allEntries }.filter { $0.scope == scope }
        for entry in matching {
            entry.resetInstance()
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
