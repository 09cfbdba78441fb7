// An entry found again while this resolution makes it (shared, rerun or a cycle), and the root
// asked for again: the rare paths of `checkedInstance`, kept out of line.
extension Resolution {
    /// The root asked for again before its resolve finished: its instance while its
    /// `initCompleted` runs, a rerun to close a cycle through a property, or the cycle's error.
    /// (Out of line, as every rare path here: the common path stays small enough to inline.)
    @inline(never)
    func rootAgain<Service>(_ entry: Entry<Service>, owner: Container?) throws -> Service {
        switch rootState() {
        case .absent, .inProgress:
            throw cycle(closingWith: entry)
        case .made(let instance):
            return instance as! Service
        case .rerun:
            return try rerunRoot(entry, owner: owner)
        }
    }

    /// True once the top-level resolve returned, leaving no instance to share (a transient
    /// root that a `Lazy` resolves later, through this resolution, is made anew).
    func isRootDone() -> Bool {
        state.withLock { $0.isFinished && $0.rootInstance == nil }
    }

    /// An entry already recorded in this resolution: shared, rerun, or a cycle.
    @inline(never)
    func existing<Service>(_ entry: Entry<Service>, owner: Container?, found: Int) throws -> Service {
        if found == Self.cycleFound {
            throw cycle(closingWith: entry)
        }
        let (index, isRerun) = Self.decode(found)
        if isRerun {
            return try rerun(entry, owner: owner, at: index)
        }
        return sharedInstance(at: index) as! Service
    }

    static var cycleFound: Int { -1 }

    /// Maps a record's index to a negative result: a made record to share.
    static func madeFound(_ index: Int) -> Int {
        -2 - 2 * index
    }

    /// Maps a record's index to a negative result: an in-progress record to run again.
    static func rerunFound(_ index: Int) -> Int {
        -3 - 2 * index
    }

    /// The record's index, and whether it is to be run again, from a negative result.
    private static func decode(_ result: Int) -> (index: Int, isRerun: Bool) {
        let code = -2 - result
        return (code / 2, code % 2 == 1)
    }
}
