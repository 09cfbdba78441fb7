extension Container {
    /// Finds the registration for `type` and `name` here or in the nearest ancestor, with the
    /// container that holds it.
    func lookup<Service>(_ type: Service.Type, name: String?) throws -> (Entry<Service>, Container) {
        let key = RegistrationKey(type, name: name)
        var container = self
        while true {
            if let entry = container.entries.withLock({ $0[key] }) {
                // Safe: `register` and `implements` store only `Entry<S>` under a key of type `S`.
                return (unsafeDowncast(entry, to: Entry<Service>.self), container)
            }
            guard let parent = container.parent else {
                throw missingRegistration(type, name: name)
            }
            container = parent
        }
    }

    func add<Service>(_ entry: Entry<Service>, name: String?) {
        let key = RegistrationKey(Service.self, name: name)
        entries.withLock { $0[key] = entry }
    }

    private func missingRegistration<Service>(_ type: Service.Type, name: String?) -> ResolutionError {
        var hasUnnamed = false
        var container: Container? = self
        while let current = container {
            hasUnnamed = hasUnnamed || current.entries.withLock { $0[RegistrationKey(type, name: nil)] != nil }
            container = current.parent
        }
        return ResolutionError.missingRegistration(
            typeName: typeName(type), name: name, registeredNames: names(for: type), hasUnnamed: hasUnnamed)
    }
}
