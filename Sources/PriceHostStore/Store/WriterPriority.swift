import Glibc

/// How the store's writer thread competes for the cores: it yields to everything else while it keeps up,
/// and competes as an equal once it falls behind.
///
/// While the queue is shallow the writer runs under Linux's `SCHED_IDLE`: it gets a core only when no
/// other thread wants it, and a thread that wakes takes its core at once. On 2 cores a batch of
/// 1,000 quotes took a core for 1.5 to 3 ms, and a stream's thread that woke meanwhile waited that
/// long for it (`perf sched timehist`): a stream's p99 went from 0.4 to 1.5 ms while recording
/// 10,000 quotes/s. A thread in `SCHED_IDLE` on a busy machine gets little, though, so a batch
/// of ``catchUpBatch`` quotes or more (the writer is behind) is written at the normal priority, as
/// is one somebody waits for (a flush, the store closing); the next shallow one goes back to idle.
enum WriterPriority: Equatable {
    case idle
    case normal

    /// A batch this large means the writer is behind: written at the normal priority. A second's quotes at
    /// 25,000 a second, an eighth of the queue's capacity.
    static let catchUpBatch = 25_000

    /// The priority for a batch of `count` quotes; `awaited`: somebody waits for it to be written.
    static func forBatch(of count: Int, awaited: Bool) -> WriterPriority {
        awaited || count >= catchUpBatch ? .normal : .idle
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
