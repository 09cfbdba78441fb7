import Synchronization

/// The state of one top-level resolve: where lookups start, which services are being made
/// (for cycle detection) and the graph-scope instances made so far.
///
/// Factories receive it as their ``Resolver``. Its records live only as long as the resolve, so
/// graph state never accumulates in the container, and two resolves on different threads never
/// see each other's graph.
///
/// Top-level resolutions are reused: when a resolve ends and no factory kept its resolver, the
/// resolution is emptied and parked in its root registration's spare slot for the next resolve
/// of that registration (see ``Resolution/resolve(_:origin:parent:owner:argument:)``). That
/// spares the allocation, and the records' buffer, on every resolve. A parked resolution is
/// reachable only through the slot, and one taken from it only through the resolve that took
/// it, so two resolves never share one.
final class Resolution: Resolver {
    /// Where an entry stands in a chain of resolutions.
    enum ChainState {
        case absent
        case inProgress
        /// In progress, and an `initCompleted` started since: run it again (the root only).
        case rerun
        /// Made, and being completed: share it.
        case made(Any)
    }

    // File-private, with every reader and writer of a record's phase in this file: a release
    // build makes an object of each file, and LLVM inlines the value witnesses of a file-private
    // type into the nested resolve. Internal, they cost a 4-deep chain 66 instructions more.
    fileprivate enum Phase {
        case inProgress
        /// Made, not kept: transient, or a graph registration that takes an argument.
        case done
        /// Made and shared for the rest of this resolution.
        case made(GraphInstance)
    }

    // A box: graph-scope services need not be `Sendable`, yet the record that shares one within
    // a resolution sits in this `Sendable` object. Factories run synchronously on the thread
    // that called `resolve`, and `Resolver` documents that a factory uses its resolver only
    // there, so an instance is never touched by two threads at once.
    struct GraphInstance: @unchecked Sendable {
        let value: Any
    }

    /// A record owns one reference to its entry, taken over from the lookup that found it
    /// rather than retained again (a retain and a release fewer per nested resolve), and given
    /// back when the records are emptied.
    struct Record {
        let id: ObjectIdentifier
        unowned(unsafe) let entry: any ServiceEntry
        fileprivate var phase: Phase
        /// When it went in progress, on the resolution's ``State/clock``.
        var startedAt: Int

        /// True while its factory runs.
        var isInProgress: Bool {
            if case .inProgress = phase { true } else { false }
        }

        static func releaseEntry(_ id: ObjectIdentifier) {
            Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: UInt(bitPattern: id))!).release()
        }
    }

    struct State {
        var records: [Record] = []
        /// Set when a factory kept this resolution beyond its resolve: from then on it holds
        /// its origin and root itself, since nothing else is sure to.
        var kept: (origin: Container, root: any ServiceEntry)?
        /// The root's instance once its factory returned, while its `initCompleted` runs and
        /// (graph scope) after the resolve, for a ``Lazy`` that resolves the root through this
        /// resolution later; `nil` for a transient root or one with an argument.
        var rootInstance: GraphInstance?
        /// True once the top-level resolve returned: the root is no longer in progress.
        var isFinished = false
        /// Orders records going in progress and `initCompleted`s starting.
        var clock = 0
        /// When each `initCompleted` running now started, innermost last.
        var completions: [Int] = []
        /// Factories run again to close a cycle through a property, running now.
        var reruns = 0
        /// The `initCompleted`s and reruns running now, for the path a cycle error names.
        var steps: [PathStep] = []
    }

    /// The address of the container where lookups start: the one the top-level resolve was
    /// called on, or, for a singleton or weak instance being made, the one that registered it.
    /// Unretained: the resolve that runs this resolution holds that container for as long as
    /// it runs, and a resolution that outlives its resolve keeps it in `kept`. Atomic because
    /// a reused resolution gets a new origin; it changes only while one resolve holds the
    /// resolution alone.
    let originAddress: Atomic<UInt>
    /// The resolution that asked for the singleton or weak instance this one makes.
    let parent: Resolution?
    /// The registration this resolution was started for; in progress for its whole life.
    /// Unretained for the same reason as the origin, and so that a parked resolution does not
    /// keep the registration whose slot holds it alive.
    unowned(unsafe) let root: any ServiceEntry
    /// `Resolver` is `Sendable`, so a factory could hand it to another thread; the lock keeps
    /// the bookkeeping sound even then. But a resolution runs on one thread (`Resolver` asks
    /// factories not to pass it on), so the lock is all but never contended, and a nested
    /// resolve takes it twice: the cheapest lock there is serves, a ``SpinLock``.
    let state = SpinLock(State())
    /// True once a record is added, so that reusing a resolution whose factory resolved
    /// nothing takes no lock. Set under the lock; read after `isKnownUniquelyReferenced` has
    /// seen every other reference released, so it cannot miss a record another holder added.
    let hasRecords = Atomic<Bool>(false)
    /// True once an `initCompleted` ran in this resolution; until then no factory is rerun.
    let hasCompletions = Atomic<Bool>(false)

    deinit {
        state.withLock { state in
            for index in state.records.indices {
                Record.releaseEntry(state.records[index].id)
            }
        }
    }

    init(origin: Container, parent: Resolution?, root: any ServiceEntry) {
        originAddress = Atomic(UInt(bitPattern: Unmanaged.passUnretained(origin).toOpaque()))
        self.parent = parent
        self.root = root
    }

    func resolve<Service>(_ type: Service.Type, name: String?) throws -> Service {
        // Retained by the lookup; the reference is handed to the entry's record, or released.
        // A miss returns no address rather than throwing: a boxed error and the cast to catch
        // it cost more than the lookups of a `Lazy` resolve.
        let (found, owner) = withOrigin { $0.retainedLookup(type, name: name) }
        guard let address = found else {
            return try withOrigin { try $0.resolveUnregistered(type, name: name, resolver: self) }
        }
        var isTakenOver = false
        defer {
            if !isTakenOver {
                Unmanaged<AnyObject>.fromOpaque(address).release()
            }
        }
        return try Unmanaged<Entry<Service>>.fromOpaque(address)._withUnsafeGuaranteedRef { entry in
            try checkedInstance(of: entry, owner: owner, argument: nil, isTakenOver: &isTakenOver)
        }
    }

    /// Returns an instance of `entry`, held by `owner` (`nil` for this resolution's origin),
    /// within this resolution; the argument has been checked.
    func checkedInstance<Service>(of entry: Entry<Service>, owner: Container?, argument: Any?) throws -> Service {
        var isTakenOver = false
        let instance = try checkedInstance(of: entry, owner: owner, argument: argument, isTakenOver: &isTakenOver)
        if isTakenOver {
            // The record holds a reference of its own.
            _ = Unmanaged.passUnretained(entry).retain()
        }
        return instance
    }

    /// Returns an instance of `entry`; sets `isTakenOver` when a new record took over the
    /// caller's reference to it.
    @inline(__always)
    func checkedInstance<Service>(
        of entry: Entry<Service>, owner: Container?, argument: @autoclosure () -> Any?, isTakenOver: inout Bool
    ) throws -> Service {
        if entry.hasCache, let cache = entry.cache {
            switch chainState(of: entry) {
            case .absent:
                break
            case .inProgress, .rerun:
                return try sharedAgain(entry, argument: argument())
            case .made(let instance):
                // Being completed (`initCompleted`) further up: the same instance closes the cycle.
                return instance as! Service
            }
            return try cache.instance {
                // Shared instances resolve their dependencies where they are registered.
                let origin = owner ?? withOrigin { $0 }
                return try Resolution.resolve(entry, origin: origin, parent: self, owner: nil, argument: argument())
            }
        }
        if entry === root, !isRootDone() {
            return try rootAgain(entry, owner: owner)
        }
        // Making a shared instance for a graph whose root this is: that graph's.
        if parent != nil, entry.keepsGraphInstance, let holder = ancestor(rootedAt: entry) {
            return try instance(of: entry, rootOf: holder)
        }
        // The index of the record to make, or `cycleFound`, or `madeFound(index)`. Plain
        // integers: an enum or optional carrying the `Any` instance out of the lock cost
        // generic value-witness calls on every resolve, not only those that share one.
        let id = ObjectIdentifier(entry)
        let keep = entry.keepsGraphInstance
        let start = state.withLock { state -> Int in
            for index in state.records.indices where state.records[index].id == id {
                switch state.records[index].phase {
                case .inProgress:
                    if keep, let completion = state.completions.last, completion > state.records[index].startedAt,
                        state.reruns < Self.rerunLimit {
                        state.reruns += 1
                        return Self.rerunFound(index)
                    }
                    return Self.cycleFound
                case .made:
                    return Self.madeFound(index)
                case .done:
                    state.records[index].phase = .inProgress
                    state.records[index].startedAt = state.clock
                    state.clock += 1
                    return index
                }
            }
            if state.records.isEmpty {
                if state.records.capacity == 0 {
                    state.records.reserveCapacity(8)
                }
                hasRecords.store(true, ordering: .releasing)
            }
            state.records.append(Record(id: id, entry: entry, phase: .inProgress, startedAt: state.clock))
            state.clock += 1
            isTakenOver = true
            return state.records.count - 1
        }
        if start < 0 {
            return try existing(entry, owner: owner, found: start)
        }
        let instance: Service
        do {
            instance = try run(entry, owner: owner, argument: argument())
        } catch {
            state.withLock { $0.records[start].phase = .done }
            throw error
        }
        // Only a rerun, which only an `initCompleted` starts, makes a record meanwhile.
        let mayHaveRerun = keep && hasCompletions.load(ordering: .acquiring)
        let madeMeanwhile = state.withLock { state -> Bool in
            if mayHaveRerun, case .made = state.records[start].phase {
                return true
            }
            state.records[start].phase = keep ? .made(GraphInstance(value: instance)) : .done
            return false
        }
        if madeMeanwhile {
            // A rerun closing a cycle through a property made it; the graph holds that one.
            return sharedInstance(at: start) as! Service
        }
        if entry.hasInitCompleted {
            try complete(entry, instance)
        }
        return instance
    }

    /// Runs the factory of `entry`, in progress further up, again: an `initCompleted` that
    /// started since asks for it, so the cycle runs through a property. The first instance
    /// made is the graph's; the outer run returns it too.
    func rerun<Service>(_ entry: Entry<Service>, owner: Container?, at index: Int) throws -> Service {
        pushStep(entry)
        defer { state.withLock { $0.reruns -= 1; _ = $0.steps.popLast() } }
        let instance = try run(entry, owner: owner, argument: nil)
        let isFirst = state.withLock { state -> Bool in
            if case .made = state.records[index].phase {
                return false
            }
            state.records[index].phase = .made(GraphInstance(value: instance))
            return true
        }
        guard isFirst else {
            return sharedInstance(at: index) as! Service
        }
        try complete(entry, instance)
        return instance
    }

    /// The instance a made record shares. Safe to force-cast to the record's service type: the
    /// record of an `Entry<S>` holds only an `S`.
    func sharedInstance(at index: Int) -> Any {
        state.withLock { state in
            guard case .made(let instance) = state.records[index].phase else {
                fatalError("a made record is never reset while its resolution runs")
            }
            return instance.value
        }
    }
}
