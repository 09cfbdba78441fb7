import CEventPoll
import Glibc

/// An epoll set and the eventfd that wakes whoever waits on it: any thread may ``wake()``;
/// only the loop that owns the set waits on it and changes it.
///
/// Both descriptors are the set's own, closed when it is released and not before: a thread
/// that wakes a loop that has just ended never writes into a number given to something else.
final class EventPoll: Sendable {
    private let set: Int32
    private let wakeEvent: Int32

    /// The readiness the loop asks for: `EPOLLIN`, `EPOLLOUT`, both, or nothing (a connection whose
    /// reading is paused and that has nothing to write is still told of a hang-up or an error).
    struct Interest: OptionSet, Sendable {
        let rawValue: UInt32
        static let read = Interest(rawValue: EPOLLIN.rawValue | EPOLLRDHUP.rawValue)
        static let write = Interest(rawValue: EPOLLOUT.rawValue)
    }

    /// The data of the wake event: no descriptor has it.
    static let wakeToken = UInt64.max

    /// `nil` when the process is out of descriptors.
    init?() {
        let set = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard set >= 0 else { return nil }
        let wakeEvent = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
        guard wakeEvent >= 0 else {
            Glibc.close(set)
            return nil
        }
        self.set = set
        self.wakeEvent = wakeEvent
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(u64: Self.wakeToken))
        epoll_ctl(set, EPOLL_CTL_ADD, wakeEvent, &event)
    }

    deinit {
        Glibc.close(wakeEvent)
        Glibc.close(set)
    }

    /// Adds `descriptor` with `interest`; false when the kernel refuses (out of memory).
    func add(_ descriptor: Int32, _ interest: Interest) -> Bool {
        var event = epoll_event(events: interest.rawValue, data: epoll_data_t(u64: UInt64(UInt32(bitPattern: descriptor))))
        return epoll_ctl(set, EPOLL_CTL_ADD, descriptor, &event) == 0
    }

    /// Changes what `descriptor` is watched for.
    func modify(_ descriptor: Int32, _ interest: Interest) {
        var event = epoll_event(events: interest.rawValue, data: epoll_data_t(u64: UInt64(UInt32(bitPattern: descriptor))))
        epoll_ctl(set, EPOLL_CTL_MOD, descriptor, &event)
    }

    /// Stops watching `descriptor` (before it is closed or handed to another owner).
    func remove(_ descriptor: Int32) {
        epoll_ctl(set, EPOLL_CTL_DEL, descriptor, nil)
    }

    /// Waits at most `milliseconds` for events, into `events`; how many came (0 on timeout or a signal).
    func wait(_ events: inout [epoll_event], milliseconds: Int32) -> Int {
        let count = events.withUnsafeMutableBufferPointer { buffer in
            epoll_wait(set, buffer.baseAddress, Int32(buffer.count), milliseconds)
        }
        return max(0, Int(count))
    }

    /// Wakes the loop waiting on the set.
    func wake() {
        var one: UInt64 = 1
        _ = Glibc.write(wakeEvent, &one, 8)
    }

    /// Resets the wake event, so that the next wait sleeps until the next ``wake()``.
    func drainWakes() {
        var count: UInt64 = 0
        _ = Glibc.read(wakeEvent, &count, 8)
    }
}
