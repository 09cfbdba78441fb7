/// The registrations of one container, by service type and then by name.
///
/// Most resolves ask for an unnamed registration, and a `[RegistrationKey: entry]` dictionary
/// hashed every key, type and optional name, with SipHash: a good share of a lookup. Here the
/// type picks its bucket by its metadata address, with no hashing beyond a multiply, and only a
/// name is hashed, by the dictionary of that type's named registrations.
struct RegistrationTable: Sendable {
    private struct Bucket: Sendable {
        /// `nil` for a free bucket.
        var type: ObjectIdentifier?
        var unnamed: (any ServiceEntry)?
        var named: [String: any ServiceEntry] = [:]
        /// Registrations whose factory takes arguments: a type and name may have several,
        /// told apart by what is passed at resolve time. A list searched in order, as a type
        /// has few of them and comparing two identities beats hashing a key.
        var withArguments: [ArgumentSlot] = []
    }

    private struct ArgumentSlot: Sendable {
        let argument: ObjectIdentifier
        let name: String?
        var entry: any ServiceEntry
    }

    /// Open addressing with linear probing; the count is a power of two, at most half used.
    private var buckets = [Bucket](repeating: Bucket(), count: 16)
    private var typeCount = 0

    /// The registration under `key`, if any.
    @inline(__always)
    subscript(key: RegistrationKey) -> (any ServiceEntry)? {
        self[key.type, key.name]
    }

    /// The registration for `type` under `name`, if any. (Taking the parts rather than a
    /// ``RegistrationKey`` spares copying, and so retaining, the name on the hot path.)
    @inline(__always)
    subscript(type: ObjectIdentifier, name: String?) -> (any ServiceEntry)? {
        guard let index = index(of: type) else {
            return nil
        }
        if let name {
            return buckets[index].named[name]
        }
        return buckets[index].unnamed
    }

    /// The registration for `type` under `name` whose factory takes an argument of the type
    /// `argument` identifies, if any.
    @inline(__always)
    subscript(type: ObjectIdentifier, name: String?, argument argument: ObjectIdentifier) -> (any ServiceEntry)? {
        guard let index = index(of: type) else {
            return nil
        }
        for slot in buckets[index].withArguments where slot.argument == argument && slot.name == name {
            return slot.entry
        }
        return nil
    }

    /// The argument types the registrations for `type` under `name` take (`nil` for none).
    func argumentTypes(of type: ObjectIdentifier, name: String?) -> [ArgumentType?] {
        guard let index = index(of: type) else {
            return []
        }
        let bucket = buckets[index]
        let plain: (any ServiceEntry)? = name.map { bucket.named[$0] } ?? bucket.unnamed
        let taking = bucket.withArguments.filter { $0.name == name }.compactMap(\.entry.argumentType)
        return (plain == nil ? [] : [nil]) + taking.sorted { $0.name < $1.name }
    }

    /// Every registration, in no particular order.
    var allEntries: [any ServiceEntry] {
        buckets.flatMap { bucket -> [any ServiceEntry] in
            [bucket.unnamed].compactMap { $0 } + Array(bucket.named.values) + bucket.withArguments.map(\.entry)
        }
    }

    /// Forgets every registration.
    mutating func removeAll() {
        self = RegistrationTable()
    }

    /// The address of the registration for `type` under `name`, retained once for the caller,
    /// if there is one.
    @inline(__always)
    func retainedAddress(_ type: ObjectIdentifier, _ name: String?) -> UnsafeRawPointer? {
        guard let index = index(of: type) else {
            return nil
        }
        if let name {
            return buckets[index].named[name].map { UnsafeRawPointer(Unmanaged<AnyObject>.passRetained($0).toOpaque()) }
        }
        guard let entry = buckets[index].unnamed else {
            return nil
        }
        return UnsafeRawPointer(Unmanaged<AnyObject>.passRetained(entry).toOpaque())
    }

    /// Stores `entry` under `key`, replacing what was there: beside the registrations of the
    /// same type and name that take other arguments when `entry` takes one.
    mutating func insert(_ entry: any ServiceEntry, for key: RegistrationKey) {
        let index = index(of: key.type) ?? addBucket(for: key.type)
        if let argument = entry.argumentType {
            let slot = ArgumentSlot(argument: argument.id, name: key.name, entry: entry)
            if let existing = buckets[index].withArguments.firstIndex(where: { $0.argument == argument.id && $0.name == key.name }) {
                buckets[index].withArguments[existing] = slot
            } else {
                buckets[index].withArguments.append(slot)
            }
        } else if let name = key.name {
            // Kept at most a quarter full: `Dictionary` probes linearly and compares every
            // string it meets, and at its default three-quarters load some process's random
            // seed puts the name asked for at the end of a long run (a third slower lookups in
            // one run of the benchmark out of a few). Registering is rare; this costs little.
            let needed = (buckets[index].named.count + 1) * 4
            if buckets[index].named.capacity < needed {
                buckets[index].named.reserveCapacity(needed * 2)
            }
            buckets[index].named[name] = entry
        } else {
            buckets[index].unnamed = entry
        }
    }

    /// Whether an unnamed registration for `type` exists.
    func hasUnnamed(_ type: ObjectIdentifier) -> Bool {
        index(of: type).map { buckets[$0].unnamed != nil || buckets[$0].withArguments.contains { $0.name == nil } } ?? false
    }

    /// The names registered for `type`, in no particular order, with repeats when several
    /// registrations of one name take different arguments.
    func names(of type: ObjectIdentifier) -> [String] {
        index(of: type).map { Array(buckets[$0].named.keys) + buckets[$0].withArguments.compactMap(\.name) } ?? []
    }

    @inline(__always)
    private func index(of type: ObjectIdentifier) -> Int? {
        let mask = buckets.count - 1
        var index = Self.start(of: type, mask: mask)
        while let occupant = buckets[index].type {
            if occupant == type {
                return index
            }
            index = (index + 1) & mask
        }
        return nil
    }

    private mutating func addBucket(for type: ObjectIdentifier) -> Int {
        if (typeCount + 1) * 2 > buckets.count {
            let old = buckets
            buckets = [Bucket](repeating: Bucket(), count: old.count * 2)
            for bucket in old where bucket.type != nil {
                buckets[freeIndex(for: bucket.type!)] = bucket
            }
        }
        let index = freeIndex(for: type)
        buckets[index].type = type
        typeCount += 1
        return index
    }

    private func freeIndex(for type: ObjectIdentifier) -> Int {
        let mask = buckets.count - 1
        var index = Self.start(of: type, mask: mask)
        while buckets[index].type != nil {
            index = (index + 1) & mask
        }
        return index
    }

    /// Where probing for `type` starts: Fibonacci hashing of its metadata address, whose low
    /// bits are alignment zeros and so are multiplied up into the high bits that are kept.
    @inline(__always)
    private static func start(of type: ObjectIdentifier, mask: Int) -> Int {
        let mixed = UInt(bitPattern: type) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> 40) & mask
    }
}
