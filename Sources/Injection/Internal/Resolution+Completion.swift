import Synchronization

// `initCompleted`, and the reruns it allows: a graph-scope factory made again to close a cycle
// through a property. (`rerun(_:owner:at:)` writes a record's phase: it is in Resolution.swift.)
extension Resolution {
    /// Runs the root's `initCompleted`, with its instance visible to the resolves it makes,
    /// so that a property can close a cycle back to it.
    func completeRoot<Service>(_ entry: Entry<Service>, _ instance: Service) throws {
        if entry.scope.kind != .transient && entry.argument == nil {
            hasRecords.store(true, ordering: .releasing)
            state.withLock { $0.rootInstance = GraphInstance(value: instance) }
        }
        try complete(entry, instance)
    }

    /// The root's instance if a rerun of its factory made one.
    func rerunRootInstance() -> Any? {
        state.withLock { $0.rootInstance?.value }
    }

    /// Runs `entry`'s `initCompleted` on `instance`, reporting its failure as the factory's.
    /// While it runs, a graph-scope registration in progress since before it started may be
    /// made again to close a cycle (Swinject's way): the cycle runs through this property.
    func complete<Service>(_ entry: Entry<Service>, _ instance: Service) throws {
        guard let initCompleted = entry.initCompleted else {
            return
        }
        hasCompletions.store(true, ordering: .releasing)
        state.withLock { state in
            state.completions.append(state.clock)
            state.steps.append(PathStep(clock: state.clock, entry: entry))
            state.clock += 1
        }
        defer {
            state.withLock { state in
                _ = state.completions.popLast()
                _ = state.steps.popLast()
            }
        }
        do {
            try initCompleted(self, instance)
        } catch let error as ResolutionError {
            throw error
        } catch {
            throw ResolutionError.factoryFailed(registration: entry.displayName, underlying: error)
        }
    }

    /// Where the root stands: its shared instance if it has one, otherwise whether its
    /// factory (or `initCompleted`) is still running.
    func rootState() -> ChainState {
        let isRerunnable = root.keepsGraphInstance
        return state.withLock { state in
            if let instance = state.rootInstance {
                return .made(instance.value)
            }
            if state.isFinished {
                return .absent
            }
            // The root started before any `initCompleted`.
            return isRerunnable && !state.completions.isEmpty && state.reruns < Self.rerunLimit ? .rerun : .inProgress
        }
    }

    /// How deep reruns may nest before a cycle is reported instead: a property cycle closes
    /// in a few; more means factories that keep making new instances.
    static var rerunLimit: Int { 32 }

    /// As ``rerun(_:owner:at:)``, for the root; `argument` is the one this request passed.
    func rerunRoot<Service>(_ entry: Entry<Service>, owner: Container?, argument: Any? = nil) throws -> Service {
        state.withLock { $0.reruns += 1 }
        pushStep(entry)
        defer { state.withLock { $0.reruns -= 1; _ = $0.steps.popLast() } }
        let instance = try run(entry, owner: owner, argument: argument)
        let existing = state.withLock { state -> Any? in
            if let made = state.rootInstance {
                return made.value
            }
            state.rootInstance = GraphInstance(value: instance)
            return nil
        }
        if let existing {
            return existing as! Service
        }
        try complete(entry, instance)
        return instance
    }
}
