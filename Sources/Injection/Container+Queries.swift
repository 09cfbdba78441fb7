import ConcurrencyHelpers

extension Container {
    /// Names registered for a type, this container's and its ancestors', sorted, without
    /// duplicates; the unnamed registration is not listed.
    public func names<Service>(for type: Service.Type) -> [String] {
        let id = ObjectIdentifier(type)
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
        let key = RegistrationKey(type, name: name)
        var container: Container? = self
        while let current = container {
            if current.entries.withLock({ $0[key] != nil }) {
                return true
            }
            container = current.parent
        }
        return false
    }
}
