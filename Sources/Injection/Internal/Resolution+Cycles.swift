// Where a resolution stands in its chain, and the path a cycle's error names.
extension Resolution {
    /// A registration whose `initCompleted` runs, or whose factory runs again, in a resolution:
    /// a step of the path even though its record is no longer in progress.
    struct PathStep {
        /// When it started, on the resolution's ``State/clock``.
        let clock: Int
        let entry: any ServiceEntry
    }

    /// Records that `entry`'s factory runs again now (the caller pops it when it returns).
    func pushStep(_ entry: any ServiceEntry) {
        state.withLock { state in
            state.steps.append(PathStep(clock: state.clock, entry: entry))
            state.clock += 1
        }
    }

    /// Whether `entry` is being made by this resolution or one that waits for it.
    func chainState(of entry: any ServiceEntry) -> ChainState {
        var resolution: Resolution? = self
        while let current = resolution {
            let state = current.state(of: entry)
            if case .absent = state {
                resolution = current.parent
                continue
            }
            return state
        }
        return .absent
    }

    /// Whether this resolution is making `entry` right now, or has its instance while the
    /// instance's `initCompleted` runs.
    func state(of entry: any ServiceEntry) -> ChainState {
        if entry === root {
            return rootState()
        }
        let isMaking = state.withLock { state in
            state.records.contains { $0.id == ObjectIdentifier(entry) && $0.isInProgress }
        }
        return isMaking ? .inProgress : .absent
    }

    /// The registrations this resolution is making, outermost first: the root, the records in
    /// progress, and those whose `initCompleted` runs or whose factory runs again, in the
    /// order they started.
    func activePath() -> [String] {
        let inner = state.withLock { state in
            state.records.filter(\.isInProgress).map { (clock: $0.startedAt, entry: $0.entry as any ServiceEntry) }
                + state.steps.map { (clock: $0.clock, entry: $0.entry) }
        }
        var path: [any ServiceEntry] = [root]
        for step in inner.sorted(by: { $0.clock < $1.clock }) where step.entry !== path.last {
            // Not twice in a row: a rerun and then the `initCompleted` of what it made are one step.
            path.append(step.entry)
        }
        return path.map(\.pathName)
    }

    /// The error for asking for `entry` while it is being made, naming the whole path from
    /// the top-level resolve.
    func cycle(closingWith entry: any ServiceEntry) -> ResolutionError {
        var path: [String] = []
        var resolution: Resolution? = self
        while let current = resolution {
            path.insert(contentsOf: current.activePath(), at: 0)
            resolution = current.parent
        }
        path.append(entry.pathName)
        return ResolutionError.dependencyCycle(path: path)
    }
}
