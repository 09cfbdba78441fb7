import Synchronization

// A singleton, weak or custom-scope registration asked for again while the chain still makes
// it, or a graph's root asked for by a shared instance that graph is making: Swinject's way of
// closing a cycle through a property, across the resolutions of shared instances.
extension Resolution {
    /// The shared-scope `entry`, asked for while a resolution up the chain (its own, since a
    /// shared instance is always made as the root of one) still runs its factory; or a
    /// graph-scope `entry` that a resolution up the chain was started for.
    ///
    /// When an `initCompleted` started since, the cycle passes through a property: the factory
    /// runs again, here, with the argument this request passed (as Swinject's does), and the
    /// first instance made is the one the scope keeps. Otherwise, or if the factory is already
    /// running again for this very request, it is the cycle's error.
    @inline(never)
    func sharedAgain<Service>(_ entry: Entry<Service>, argument: Any?) throws -> Service {
        var isCompleting = false
        var resolution: Resolution? = self
        while let current = resolution {
            let (completing, isRerun) = current.state.withLock { state in
                (!state.completions.isEmpty, state.steps.contains { $0.entry === entry })
            }
            isCompleting = isCompleting || completing
            if current.root === entry {
                guard isCompleting, !isRerun else {
                    break
                }
                if current === self {
                    // Here, so that the graph instances this resolution made are shared.
                    return try rerunRoot(entry, owner: nil, argument: argument)
                }
                return try rerunShared(entry, madeBy: current, argument: argument)
            }
            resolution = current.parent
        }
        throw cycle(closingWith: entry)
    }

    /// The resolution up the chain, waiting for the shared instance this one makes, that was
    /// started for `entry` and still has it in progress or shares its instance; `nil` if none.
    /// (Not generic, and returning no optional of the service: the caller's common path stays
    /// as it was.)
    @inline(never)
    func ancestor(rootedAt entry: any ServiceEntry) -> Resolution? {
        var resolution = parent
        while let current = resolution {
            if current.root === entry {
                if case .absent = current.rootState() {
                    return nil
                }
                return current
            }
            resolution = current.parent
        }
        return nil
    }

    /// The graph-scope `entry` that `holder`, up the chain, was started for: its instance if it
    /// has one (being completed, or kept for a `Lazy`), or, while its factory runs, as
    /// ``sharedAgain(_:argument:)``.
    @inline(never)
    func instance<Service>(of entry: Entry<Service>, rootOf holder: Resolution) throws -> Service {
        if case .made(let instance) = holder.rootState() {
            return instance as! Service
        }
        return try sharedAgain(entry, argument: nil)
    }

    /// Runs `entry`'s factory again in a resolution that waits for this one, so that what this
    /// chain is completing is shared with it, and gives `holder`, which made the first, the
    /// instance to keep.
    private func rerunShared<Service>(_ entry: Entry<Service>, madeBy holder: Resolution, argument: Any?) throws -> Service {
        let origin = holder.withOrigin { $0 }
        let rerun = Resolution(origin: origin, parent: self, root: entry)
        // Marks it as a rerun: asked for once more in it, `entry` is a cycle.
        rerun.pushStep(entry)
        var kept: Any?
        defer { Resolution.finish(rerun, entry: entry, origin: origin, shared: kept) }
        let instance = try rerun.run(entry, owner: nil, argument: argument)
        let existing = holder.state.withLock { state -> Any? in
            // The holder's resolve returns this instance rather than the one its factory is
            // still making, and forgets it when the holder is emptied for reuse.
            holder.hasRecords.store(true, ordering: .releasing)
            holder.hasCompletions.store(true, ordering: .releasing)
            if let made = state.rootInstance {
                return made.value
            }
            state.rootInstance = GraphInstance(value: instance)
            return nil
        }
        if let existing {
            return existing as! Service
        }
        kept = instance
        if entry.hasInitCompleted {
            try rerun.completeRoot(entry, instance)
        }
        return instance
    }
}
