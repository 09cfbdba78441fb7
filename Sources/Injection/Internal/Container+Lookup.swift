import ConcurrencyHelpers

extension Container {
    /// Finds the registration for `type` and `name` here or in the nearest ancestor, with the
    /// ancestor that holds it, or `nil` when this container does (sparing a retain on the hot path).
    func lookup<Service>(_ type: Service.Type, name: String?) throws -> (Entry<Service>, Container?) {
        // Most lookups hit the container asked, so that case avoids the loop's bookkeeping.
        if let entry = entries.withLock({ $0[ObjectIdentifier(type), name] }) {
            // Safe: `register` and `implements` store only `Entry<S>` under a key of type `S`.
            return (unsafeDowncast(entry, to: Entry<Service>.self), nil)
        }
        return try lookupInAncestors(type, key: RegistrationKey(type, name: name))
    }

    /// As ``lookup(_:name:)``, but returns the entry's address, retained once for the caller.
    /// (Untyped: an optional of a type generic over `Service` would make the runtime look its
    /// metadata up on every call.)
    @inline(__always)
    func retainedLookup<Service>(_ type: Service.Type, name: String?) throws -> (UnsafeRawPointer, Container?) {
        if let address = entries.withLock({ $0.retainedAddress(ObjectIdentifier(type), name) }) {
            return (address, nil)
        }
        let (entry, owner) = try lookupInAncestors(type, key: RegistrationKey(type, name: name))
        return (UnsafeRawPointer(Unmanaged.passRetained(entry).toOpaque()), owner)
    }

    private func lookupInAncestors<Service>(
        _ type: Service.Type, key: RegistrationKey
    ) throws -> (Entry<Service>, Container?) {
        var container = parent
        while let current = container {
            if let entry = current.entries.withLock({ $0[key] }) {
                return (unsafeDowncast(entry, to: Entry<Service>.self), current)
            }
            container = current.parent
        }
        throw missingRegistration(type, name: key.name)
    }

    func add<Service>(_ entry: Entry<Service>, name: String?) {
        let key = RegistrationKey(Service.self, name: name)
        entries.withLock { $0.insert(entry, for: key) }
    }

    private func missingRegistration<Service>(_ type: Service.Type, name: String?) -> ResolutionError {
        var hasUnnamed = false
        var container: Container? = self
        while let current = container {
            hasUnnamed = hasUnnamed || current.entries.withLock { $0.hasUnnamed(ObjectIdentifier(type)) }
            container = current.parent
        }
        return ResolutionError.missingRegistration(
            typeName: typeName(type), name: name, registeredNames: names(for: type), hasUnnamed: hasUnnamed)
    }
}
