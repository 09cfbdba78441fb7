import ConcurrencyHelpers

extension Container {
    /// Names registered for a type, this container's and its ancestors', sorted, without
    /// duplicates; the unnamed registration is not listed.
    public func names<Service>(for type: Service.Type) -> [String] {
        names(forTypeID: ObjectIdentifier(type))
    }

    func names(forTypeID id: ObjectIdentifier) -> [String] {
        var names = Set<String>()
        var container: Container? = self
        while let current = container {
            let found = current.entries.withLock { $0.names(of: id) }
            names.formUnion(found)
            container = current.parent
        }
        return names.sorted()
    }

    /// True when a registration for `type` under `name` (`nil` for the unnamed one) exists
    /// here or in an ancestor.
    public func hasRegistration<Service>(_ type: Service.Type, name: String? = nil) -> Bool {
        isRegistered(type, name: name, argument: nil)
    }

    /// True when a registration for `type` under `name` whose factory takes an `Argument`
    /// exists here or in an ancestor.
    public func hasRegistration<Service, Argument>(
        _ type: Service.Type, name: String? = nil, argument: Argument.Type
    ) -> Bool {
        isRegistered(type, name: name, argument: ObjectIdentifier(argument))
    }
}
