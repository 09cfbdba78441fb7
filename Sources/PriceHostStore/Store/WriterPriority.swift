import Glibc

/// How the store's writer thread competes for the cores: it yields to everything else while it keeps up,
/// and competes as an equal once it falls behind.
///
/// While the queue is shallow the writer runs under Linux's `SCHED_IDLE`: it gets a core only when no
/// other thread wants it, and a thread that wakes takes its core at once. On 2 cores a batch of
/// 1,000 quotes took a core for 1.5 to 3 ms, and a stream's thread that woke meanwhile waited that
/// long for it (`perf sched timehist`): a stream's p99 went from 0.4 to 1.5 ms while recording
/// 10,000 quotes/s. A thread in `SCHED_IDLE` on a busy machine gets little, though (on a CI machine
/// running the suite twice over, a writer reopening a file made writable again did not get the few
/// milliseconds it needed in 5 s), so the writer competes as an equal for a batch
/// - of ``catchUpBatch`` quotes or more: it is behind;
/// - taken ``lateness`` or more after it was due: the wait for a core was itself the delay;
/// - somebody waits for (a flush, the store closing);
/// - with no open writer (the first, or one after a failure): a file or server to open, then the batch.
///
/// The next batch that is none of these goes back to idle.
///
/// Linux lets a thread leave `SCHED_IDLE` only with `CAP_SYS_NICE` or an `RLIMIT_NICE` of 20 or more (systemd's
/// `LimitNICE=+0`); without, it could go idle and never come back, and starve. So the writer goes idle only where
/// a throwaway thread found the way back open (``reversible``); elsewhere it always runs at the normal priority.
enum WriterPriority: Equatable {
    case idle
    case normal

    /// A batch this large means the writer is behind: written at the normal priority. A second's quotes at
    /// 25,000 a second, an eighth of the queue's capacity.
    static let catchUpBatch = 25_000

    /// A batch taken this long after it was due was held up waiting for a core.
    static let lateness: Duration = .milliseconds(100)

    /// The priority for a batch of `count` quotes.
    /// - Parameters:
    ///   - awaited: somebody waits for it to be written.
    ///   - late: how long after it was due it was taken.
    ///   - opening: the writer must be opened first.
    static func forBatch(of count: Int, awaited: Bool, late: Duration = .zero, opening: Bool = false) -> WriterPriority {
        awaited || opening || late >= lateness || count >= catchUpBatch ? .normal : .idle
    }

    /// Whether a thread of this process may go idle and come back: tried once, on a thread of its own.
    static let reversible: Bool = {
        let answer = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
        answer.initialize(to: false)
        defer { answer.deallocate() }
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            context?.assumingMemoryBound(to: Bool.self).pointee = WriterPriority.idle.apply() && WriterPriority.normal.apply()
            return nil
        }, answer)
        guard started == 0 else { return false }
        pthread_join(thread, nil)
        return answer.pointee
    }()

    /// The priority the writer takes for a batch: ``forBatch(of:awaited:late:opening:)``'s where the way back from idle
    /// is open, else always the normal one.
    static func forWriter(batch count: Int, awaited: Bool, late: Duration, opening: Bool) -> WriterPriority {
        reversible ? forBatch(of: count, awaited: awaited, late: late, opening: opening) : .normal
    }

    /// `SCHED_IDLE` from `<linux/sched.h>`: Swift's Glibc module does not export it (a `_GNU_SOURCE` name).
    private static let schedIdle: Int32 = 5

    /// Puts the calling thread in this priority; false when the system refused (the thread keeps its own).
    @discardableResult
    func apply() -> Bool {
        var parameters = sched_param()
        parameters.sched_priority = 0
        let policy = self == .idle ? Self.schedIdle : Int32(SCHED_OTHER)
        return pthread_setschedparam(pthread_self(), policy, &parameters) == 0
    }
}
