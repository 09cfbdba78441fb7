import ConcurrencyHelpers

extension Container {
    /// Finds the registration for `type` and `name` that takes no argument, here or in the
    /// nearest ancestor, with the ancestor that holds it, or `nil` when this container does
    /// (sparing a retain on the hot path); `entry` is `nil` when there is none.
    ///
    /// Untyped: an optional of a type generic over `Service` would make the runtime look its
    /// metadata up on every call. The entry under the key of type `S` is an `Entry<S>`
    /// (`register` and `implements` store nothing else), so callers downcast it unchecked.
    @inline(__always)
    func lookup<Service>(_ type: Service.Type, name: String?) -> (entry: (any ServiceEntry)?, owner: Container?) {
        // Most lookups hit the container asked, so that case avoids the loop's bookkeeping.
        if let entry = entries.withLock({ $0[ObjectIdentifier(type), name] }) {
            return (entry, nil)
        }
        let key = RegistrationKey(type, name: name)
        return lookupInAncestors { $0[key] }
    }

    /// The registration for `type` and `name` whose factory takes an `Argument`, typed, and
    /// ``LookupMiss`` when there is none: destructured inside the caller's `do`, this shape
    /// costs no retain beyond the lookup's (a tuple of optionals cost two a resolve).
    @inline(__always)
    func entry<Service, Argument>(
        _ type: Service.Type, name: String?, argument: Argument.Type
    ) throws(LookupMiss) -> (Entry<Service>, Container?) {
        let (id, argumentID) = (ObjectIdentifier(type), ObjectIdentifier(argument))
        if let entry = entries.withLock({ $0[id, name, argument: argumentID] }) {
            return (unsafeDowncast(entry, to: Entry<Service>.self), nil)
        }
        guard case let (entry?, owner) = lookupInAncestors({ $0[id, name, argument: argumentID] }) else {
            throw LookupMiss()
        }
        return (unsafeDowncast(entry, to: Entry<Service>.self), owner)
    }

    /// Finds the registration for `type` and `name` whose factory takes an `Argument`, as
    /// ``lookup(_:name:)`` does.
    @inline(__always)
    func lookup<Service, Argument>(
        _ type: Service.Type, name: String?, argument: Argument.Type
    ) -> (entry: (any ServiceEntry)?, owner: Container?) {
        let (id, argumentID) = (ObjectIdentifier(type), ObjectIdentifier(argument))
        if let entry = entries.withLock({ $0[id, name, argument: argumentID] }) {
            return (entry, nil)
        }
        return lookupInAncestors { $0[id, name, argument: argumentID] }
    }

    /// As ``lookup(_:name:)``, but returns the entry's address, retained once for the caller.
    /// (Untyped: an optional of a type generic over `Service` would make the runtime look its
    /// metadata up on every call.)
    @inline(__always)
    func retainedLookup<Service>(_ type: Service.Type, name: String?) -> (address: UnsafeRawPointer?, owner: Container?) {
        if let address = entries.withLock({ $0.retainedAddress(ObjectIdentifier(type), name) }) {
            return (address, nil)
        }
        return retainedLookupInAncestors(RegistrationKey(type, name: name))
    }

    @inline(never)
    private func retainedLookupInAncestors(_ key: RegistrationKey) -> (address: UnsafeRawPointer?, owner: Container?) {
        guard case let (entry?, owner) = lookupInAncestors({ $0[key] }) else {
            return (nil, nil)
        }
        return (UnsafeRawPointer(Unmanaged<AnyObject>.passRetained(entry).toOpaque()), owner)
    }

    /// The registration under `key` in the nearest ancestor that has one, and that ancestor.
    @inline(never)
    func lookupInAncestors(_ key: RegistrationKey) -> (entry: (any ServiceEntry)?, owner: Container?) {
        lookupInAncestors { $0[key] }
    }

    private func lookupInAncestors(
        _ find: (RegistrationTable) -> (any ServiceEntry)?
    ) -> (entry: (any ServiceEntry)?, owner: Container?) {
        var container = parent
        while let current = container {
            if let entry = current.entries.withLock({ find($0) }) {
                return (entry, current)
            }
            container = current.parent
        }
        return (nil, nil)
    }

    func add<Service>(_ entry: Entry<Service>, name: String?) {
        let key = RegistrationKey(Service.self, name: name)
        entries.withLock { $0.insert(entry, for: key) }
    }

    /// Whether `type` under `name`, taking `argument` (`nil` for none), is registered here or
    /// in an ancestor.
    func isRegistered<Service>(_ type: Service.Type, name: String?, argument: ObjectIdentifier?) -> Bool {
        let id = ObjectIdentifier(type)
        var container: Container? = self
        while let current = container {
            let found = current.entries.withLock { table in
                argument.map { table[id, name, argument: $0] } ?? table[id, name]
            }
            if found != nil {
                return true
            }
            container = current.parent
        }
        return false
    }

    /// Resolves a type nothing is registered for: a ``Lazy``, ``Provider`` or `Optional` of a
    /// registered type, or else the missing-registration error.
    func resolveUnregistered<Service>(_ type: Service.Type, name: String?, resolver: any Resolver) throws -> Service {
        guard let wrapper = type as? any ResolvableWrapper.Type else {
            throw missingRegistration(type, name: name, given: nil)
        }
        do {
            return try Self.make(wrapper, as: type, resolver: resolver, container: self, name: name)
        } catch is WrappedMissing {
            throw missingRegistration(wrapper.wrappedType, name: name, given: nil)
        }
    }

    /// As ``resolveUnregistered(_:name:resolver:)``, passing `argument` on.
    func resolveUnregistered<Service, Argument>(
        _ type: Service.Type, name: String?, argument: Argument, resolver: any Resolver
    ) throws -> Service {
        guard let wrapper = type as? any ResolvableWrapper.Type else {
            throw missingRegistration(type, name: name, given: GivenArgument(argument))
        }
        do {
            return try Self.make(wrapper, as: type, resolver: resolver, container: self, name: name, argument: argument)
        } catch is WrappedMissing {
            throw missingRegistration(wrapper.wrappedType, name: name, given: GivenArgument(argument))
        }
    }

    /// A ``Lazy``, ``Provider`` or `Optional` of a type registered under `name`; `nil` when
    /// `Service` is none of those or what it wraps is not registered.
    func makeWrapper<Service>(_ type: Service.Type, name: String?, resolver: any Resolver) throws -> Service? {
        guard let wrapper = type as? any ResolvableWrapper.Type else {
            return nil
        }
        do {
            return try Self.make(wrapper, as: type, resolver: resolver, container: self, name: name)
        } catch is WrappedMissing {
            return nil
        }
    }

    /// As ``makeWrapper(_:name:resolver:)``, passing `argument` on.
    func makeWrapper<Service, Argument>(
        _ type: Service.Type, name: String?, argument: Argument, resolver: any Resolver
    ) throws -> Service? {
        guard let wrapper = type as? any ResolvableWrapper.Type else {
            return nil
        }
        do {
            return try Self.make(wrapper, as: type, resolver: resolver, container: self, name: name, argument: argument)
        } catch is WrappedMissing {
            return nil
        }
    }

    /// `Wrapper.make`, returned as `Service`, which it is: a cast would cost a dynamic check.
    private static func make<Wrapper: ResolvableWrapper, Service>(
        _ wrapper: Wrapper.Type, as type: Service.Type, resolver: any Resolver, container: Container, name: String?
    ) throws -> Service {
        precondition(Wrapper.self == Service.self)
        return unsafeBitCast(try Wrapper.make(resolver: resolver, container: container, name: name), to: Service.self)
    }

    private static func make<Wrapper: ResolvableWrapper, Service, Argument>(
        _ wrapper: Wrapper.Type, as type: Service.Type, resolver: any Resolver, container: Container, name: String?,
        argument: Argument
    ) throws -> Service {
        precondition(Wrapper.self == Service.self)
        let made = try Wrapper.make(resolver: resolver, container: container, name: name, argument: argument)
        return unsafeBitCast(made, to: Service.self)
    }

    /// The error for a resolve of `type` under `name` with `given` (`nil` for no argument)
    /// that found no registration: missing, or registered with other arguments.
    func missingRegistration(_ type: Any.Type, name: String?, given: GivenArgument?) -> ResolutionError {
        let id = ObjectIdentifier(type)
        var hasUnnamed = false
        var taken: [ArgumentType?] = []
        var container: Container? = self
        while let current = container {
            current.entries.withLock { table in
                hasUnnamed = hasUnnamed || table.hasUnnamed(id)
                for argument in table.argumentTypes(of: id, name: name) where !taken.contains(argument) {
                    taken.append(argument)
                }
            }
            container = current.parent
        }
        let registration = registrationName(typeName: typeName(type), name: name)
        if !taken.isEmpty {
            return ResolutionError.argumentMismatch(registration: registration, taken: taken, given: given?.typeName())
        }
        return ResolutionError.missingRegistration(
            typeName: typeName(type), name: name, registeredNames: names(forTypeID: id), hasUnnamed: hasUnnamed)
    }
}

/// Nothing is registered under the key looked up: the caller tries a wrapper, or reports it.
struct LookupMiss: Error {}
