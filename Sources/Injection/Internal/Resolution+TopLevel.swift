import Synchronization

// A top-level resolve: the resolution it takes from its root registration's spare slot (or
// makes), the factory runs, and, once it returns, that resolution parked again, emptied, or
// kept for a factory that holds on to it.
extension Resolution {
    /// Runs `entry`'s factory as the root of a resolution whose lookups start at `origin`.
    ///
    /// `parent` is the resolution that asked for the singleton or weak instance `entry` makes,
    /// if any; `owner` is the container that holds `entry` when that is not `origin`.
    @inline(__always)
    static func resolve<Service>(
        _ entry: Entry<Service>, origin: Container, parent: Resolution?, owner: Container?, argument: Any?
    ) throws -> Service {
        let resolution: Resolution
        if parent == nil, let spare = entry.takeSpareResolution() {
            spare.originAddress.store(UInt(bitPattern: Unmanaged.passUnretained(origin).toOpaque()), ordering: .releasing)
            resolution = spare
        } else {
            resolution = Resolution(origin: origin, parent: parent, root: entry)
        }
        let instance: Service
        do {
            // Guaranteed by `resolution` itself, which lives past the call; saying so spares a
            // retain and release of it around the factory.
            instance = try Unmanaged.passUnretained(resolution)._withUnsafeGuaranteedRef {
                let instance = try $0.run(entry, owner: owner, argument: argument)
                if $0.hasCompletions.load(ordering: .acquiring), let made = $0.rerunRootInstance() {
                    // A cycle through a property made the root again, and the graph holds that one.
                    return made as! Service
                }
                if entry.hasInitCompleted {
                    try $0.completeRoot(entry, instance)
                }
                return instance
            }
        } catch {
            finish(resolution, entry: entry, origin: origin, shared: nil)
            throw error
        }
        finish(resolution, entry: entry, origin: origin, shared: instance)
        return instance
    }

    /// Runs the factory of this resolution's root, or of an entry whose record is in progress.
    @inline(__always)
    func run<Service>(_ entry: Entry<Service>, owner: Container?, argument: @autoclosure () -> Any?) throws -> Service {
        do {
            // Called in place: binding the closure to a local would retain its context.
            if entry.factory != nil {
                return try entry.factory!(self)
            }
            return try entry.make!(self, owner, argument())
        } catch let error as ResolutionError {
            // Already names the innermost registration that failed; wrapping again would
            // only bury it.
            throw error
        } catch {
            throw ResolutionError.factoryFailed(registration: entry.displayName, underlying: error)
        }
    }

    /// Parks `resolution`, emptied, as `entry`'s spare when nothing else holds it; otherwise
    /// lets it keep its origin and root alive for whoever does.
    @inline(__always)
    ///
    /// `shared` is the root's instance, `nil` after a failure. (`Any?`, not `Service?`:
    /// generic code would look the metadata of `Service?` up on every resolve.)
    static func finish<Service>(
        _ resolution: consuming Resolution, entry: Entry<Service>, origin: Container, shared: @autoclosure () -> Any?
    ) {
        var resolution = resolution
        if isKnownUniquelyReferenced(&resolution) {
            if resolution.parent == nil && resolution.reset() {
                entry.park(resolution)
            }
        } else {
            // A graph root stays the graph's: a `Lazy` made in it that resolves the root gets it.
            let instance = entry.keepsGraphInstance ? shared().map { GraphInstance(value: $0) } : nil
            resolution.keep(origin: origin, root: entry, instance: instance)
        }
    }

    /// Empties the records for reuse, keeping their buffer; false if the buffer grew past what
    /// is worth keeping.
    private func reset() -> Bool {
        guard hasRecords.load(ordering: .acquiring) else {
            return true
        }
        hasRecords.store(false, ordering: .releasing)
        // Only an `initCompleted` sets the root's instance (directly or through a rerun).
        let hadCompletions = hasCompletions.load(ordering: .acquiring)
        return state.withLock { state in
            for index in state.records.indices {
                Record.releaseEntry(state.records[index].id)
            }
            state.records.removeAll(keepingCapacity: true)
            state.clock = 0
            if hadCompletions {
                state.rootInstance = nil
                hasCompletions.store(false, ordering: .releasing)
            }
            return state.records.capacity <= 32
        }
    }

    private func keep(origin: Container, root: any ServiceEntry, instance: GraphInstance?) {
        state.withLock { state in
            state.kept = (origin, root)
            state.isFinished = true
            state.rootInstance = instance ?? state.rootInstance
            if instance == nil && !root.keepsGraphInstance {
                state.rootInstance = nil
            }
        }
    }
}

extension Resolution {
    /// What a ``Provider`` made with this resolution resolves through now: the resolution
    /// while it runs (its graph, and cycle detection), and once it has returned, the container
    /// it started at, so that each access is a graph of its own, as Swinject's provider.
    func currentResolver() -> any Resolver {
        state.withLock { $0.kept?.origin } ?? self
    }
}
