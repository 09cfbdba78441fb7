import Synchronization

/// The state of one top-level resolve: where lookups start, which services are being made
/// (for cycle detection) and the graph-scope instances made so far.
///
/// Factories receive it as their ``Resolver``. It lives only as long as the resolve (unless a
/// factory keeps it), so graph state never accumulates in the container, and two resolves on
/// different threads never see each other's graph.
final class Resolution: Resolver {
    private enum Phase {
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
    private struct GraphInstance: @unchecked Sendable {
        let value: Any
    }

    private struct Record {
        let entry: any ServiceEntry
        var phase: Phase
    }

    /// Where lookups start: the container the top-level resolve was called on, or, for a
    /// singleton or weak instance being made, the container that registered it.
    let origin: Container
    /// The resolution that asked for the singleton or weak instance this one makes.
    let parent: Resolution?
    /// The registration this resolution was started for; in progress for its whole life.
    private let root: any ServiceEntry
    /// `Resolver` is `Sendable`, so a factory could hand it to another thread; the lock keeps
    /// the bookkeeping sound even then. A resolution normally runs on one thread, so this lock
    /// is uncontended and the cheaper `Mutex` serves (see ``Lock`` for where that matters).
    private let records = Mutex<[Record]>([])

    init(origin: Container, parent: Resolution?, root: any ServiceEntry) {
        self.origin = origin
        self.parent = parent
        self.root = root
    }

    func resolve<Service>(_ type: Service.Type, name: String?) throws -> Service {
        let (entry, owner) = try origin.lookup(type, name: name)
        try entry.checkNoArgument()
        return try checkedInstance(of: entry, owner: owner, argument: nil)
    }

    func resolve<Service, Argument>(_ type: Service.Type, name: String?, argument: Argument) throws -> Service {
        let (entry, owner) = try origin.lookup(type, name: name)
        let given = GivenArgument(argument)
        try entry.checkArgument(given)
        return try checkedInstance(of: entry, owner: owner, argument: given.value)
    }

    /// Runs the factory of this resolution's root, or of an entry whose record is in progress.
    func run<Service>(_ entry: Entry<Service>, owner: Container?, argument: Any?) throws -> Service {
        do {
            return try entry.make(self, owner, argument)
        } catch let error as ResolutionError {
            // Already names the innermost registration that failed; wrapping again would
            // only bury it.
            throw error
        } catch {
            throw ResolutionError.factoryFailed(registration: entry.displayName, underlying: error)
        }
    }

    /// Returns an instance of `entry`, held by `owner` (`nil` for this resolution's origin),
    /// within this resolution; the argument has been checked.
    func checkedInstance<Service>(of entry: Entry<Service>, owner: Container?, argument: Any?) throws -> Service {
        if let cache = entry.cache {
            if isInProgress(entry) {
                throw cycle(closingWith: entry)
            }
            return try cache.instance {
                // Shared instances resolve their dependencies where they are registered.
                let owner = owner ?? origin
                return try Resolution(origin: owner, parent: self, root: entry).run(entry, owner: nil, argument: argument)
            }
        }
        if entry === root {
            throw cycle(closingWith: entry)
        }
        let start = records.withLock { records -> Start in
            for index in records.indices where records[index].entry === entry {
                switch records[index].phase {
                case .inProgress:
                    return .cycle
                case .made(let instance):
                    return .made(instance.value)
                case .done:
                    records[index].phase = .inProgress
                    return .make(index)
                }
            }
            if records.isEmpty {
                records.reserveCapacity(8)
            }
            records.append(Record(entry: entry, phase: .inProgress))
            return .make(records.count - 1)
        }
        let index: Int
        switch start {
        case .made(let instance):
            // Safe: the record of an `Entry<Service>` holds only a `Service`.
            return instance as! Service
        case .cycle:
            throw cycle(closingWith: entry)
        case .make(let recordIndex):
            index = recordIndex
        }
        let instance: Service
        do {
            instance = try run(entry, owner: owner, argument: argument)
        } catch {
            records.withLock { $0[index].phase = .done }
            throw error
        }
        let keep = entry.scope == .graph && entry.argument == nil
        records.withLock { $0[index].phase = keep ? .made(GraphInstance(value: instance)) : .done }
        return instance
    }

    /// True when this resolution is making `entry` right now.
    func isMaking(_ entry: any ServiceEntry) -> Bool {
        entry === root || records.withLock { records in
            records.contains { record in
                guard record.entry === entry, case .inProgress = record.phase else { return false }
                return true
            }
        }
    }

    /// The registrations this resolution is making, outermost first.
    func activePath() -> [String] {
        let inner = records.withLock { records in
            records.compactMap { record -> String? in
                guard case .inProgress = record.phase else { return nil }
                return record.entry.pathName
            }
        }
        return [root.pathName] + inner
    }

    private enum Start {
        case make(Int)
        case made(Any)
        case cycle
    }
}
