// `Resolver`'s requirements but the plain resolve (in Resolution.swift, on the hot path): with an
// argument, and the optional resolves that make a wrapper (`Lazy`, `Provider`) when nothing is
// registered. Every lookup starts at the origin.
extension Resolution {
    /// Calls `body` with the origin container.
    @inline(__always)
    func withOrigin<Result>(_ body: (Container) throws -> Result) rethrows -> Result {
        let address = originAddress.load(ordering: .acquiring)
        // Safe: see `originAddress`.
        return try Unmanaged<Container>.fromOpaque(UnsafeRawPointer(bitPattern: address)!)
            ._withUnsafeGuaranteedRef(body)
    }

    func resolve<Service, Argument>(_ type: Service.Type, name: String?, argument: Argument) throws -> Service {
        do {
            let (entry, owner) = try withOrigin { try $0.entry(type, name: name, argument: Argument.self) }
            return try checkedInstance(of: entry, owner: owner, argument: argument)
        } catch is LookupMiss {
            return try withOrigin { try $0.resolveUnregistered(type, name: name, argument: argument, resolver: self) }
        }
    }

    func resolveIfRegistered<Service>(_ type: Service.Type, name: String?) throws -> Service? {
        guard withOrigin({ $0.lookup(type, name: name) }).entry != nil else {
            return try withOrigin { try $0.makeWrapper(type, name: name, resolver: self) }
        }
        return try resolve(type, name: name)
    }

    func resolveIfRegistered<Service, Argument>(_ type: Service.Type, name: String?, argument: Argument) throws -> Service? {
        guard withOrigin({ $0.lookup(type, name: name, argument: Argument.self) }).entry != nil else {
            return try withOrigin { try $0.makeWrapper(type, name: name, argument: argument, resolver: self) }
        }
        return try resolve(type, name: name, argument: argument)
    }
}
