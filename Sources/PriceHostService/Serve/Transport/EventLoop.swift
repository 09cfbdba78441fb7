import CEventPoll
import ConcurrencyHelpers
import Glibc
import PriceHostCore
import Synchronization

/// One thread serving many connections from one epoll set (level-triggered), never blocking on
/// any of them: it owns each connection it adopts (``ServeConnection``) until it closes it or
/// hands it to a stream writer.
///
/// Other threads talk to it through its inbox and an eventfd: the accepting thread hands it new
/// connections (``adopt(_:)``), and work answered on the cooperative pool hands back its answer
/// (``schedule(_:connection:sequence:)``), which the loop writes in its connection's request order.
/// Every ``scanMilliseconds`` it looks at each connection's timeouts, and at the server stopping.
/// The instants it hands its connections are the server's clock's (``ServeServer/clock``): the
/// timeouts are measured on it, while the scans keep to the machine's time.
final class EventLoop: Sendable {
    private let poll: EventPoll
    private let server: ServeServer
    let handler: ServeServer.Handler
    let finished: ServeServer.Finished
    /// Where `.later` work runs; `nil`: Swift's global executor.
    private let taskExecutor: (any TaskExecutor)?
    private let inbox = Lock(Inbox())
    /// Numbers the connections this loop adopted (see ``ServeConnection/serial``).
    private let serials = Atomic<UInt64>(0)

    /// An answer made on the cooperative pool, for slot `sequence` of a connection.
    private struct Completion: Sendable {
        let descriptor: Int32
        let serial: UInt64
        let sequence: UInt64
        let answer: ServeAnswer
    }

    /// What other threads hand the loop.
    private struct Inbox {
        var arrivals: [Int32] = []
        var completions: [Completion] = []
        /// The eventfd was written since the loop last looked: no need to write it again.
        var signaled = false
        /// The loop's thread has ended (or must end): nothing more is taken.
        var ended = false
    }

    /// How often the loop looks at every connection's timeouts.
    static let scanMilliseconds = 50

    /// `nil` when no epoll set can be made (out of descriptors).
    init?(server: ServeServer, handler: @escaping ServeServer.Handler, finished: @escaping ServeServer.Finished,
          taskExecutor: (any TaskExecutor)?) {
        guard let poll = EventPoll() else { return nil }
        self.poll = poll
        self.server = server
        self.handler = handler
        self.finished = finished
        self.taskExecutor = taskExecutor
    }

    var limits: ServeServer.Limits { server.limits }
    /// Now, on the clock the timeouts are measured on.
    var now: ContinuousClock.Instant { server.clock.now }
    var isStopping: Bool { server.isStopping }

    /// Starts the loop's thread; false when it cannot start.
    func start() -> Bool {
        DetachedThread.start(stackBytes: 512 * 1024) { [self] in run() }
    }

    /// Ends a loop that has no connection yet (a start that failed part way).
    func stop() {
        inbox.withLock { $0.ended = true }
        poll.wake()
    }

    /// Wakes the loop (the server is stopping).
    func wake() { poll.wake() }

    /// Takes `descriptor` over. A loop that has ended leaves it to the caller's release.
    func adopt(_ descriptor: Int32) {
        let (taken, signal) = inbox.withLock { inbox -> (Bool, Bool) in
            guard !inbox.ended else { return (false, false) }
            inbox.arrivals.append(descriptor)
            defer { inbox.signaled = true }
            return (true, !inbox.signaled)
        }
        if !taken { server.release(descriptor) }
        if signal { poll.wake() }
    }

    /// Runs `work` in a task; its answer goes back to slot `sequence` of `connection`, through the inbox.
    func schedule(_ work: @escaping @Sendable () async -> ServeAnswer, connection: ServeConnection, sequence: UInt64) {
        let descriptor = connection.descriptor, serial = connection.serial
        Task(executorPreference: taskExecutor) { [self] in
            let answer = await work()
            let signal = inbox.withLock { inbox -> Bool in
                guard !inbox.ended else { return false }
                inbox.completions.append(Completion(descriptor: descriptor, serial: serial, sequence: sequence, answer: answer))
                defer { inbox.signaled = true }
                return !inbox.signaled
            }
            if signal { poll.wake() }
        }
    }

    private func run() {
        // Indexed by descriptor: a number belongs to at most one open connection.
        var connections: [ServeConnection?] = []
        var open = 0
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        var scratch = [UInt8](repeating: 0, count: 64 * 1024)
        var lastScan = ContinuousClock.now

        func settle(_ connection: ServeConnection, _ fate: ServeConnection.Fate) {
            switch fate {
            case .keep:
                let wanted = connection.wantedInterest
                if wanted != connection.interest {
                    connection.interest = wanted
                    poll.modify(connection.descriptor, wanted)
                }
            case .close:
                forget(connection)
                server.release(connection.descriptor)
            case .stream(let source):
                forget(connection)
                // The stream writer owns it now; when none takes it, it is still ours to close.
                if !server.startStream(on: connection.descriptor, source: source) { server.release(connection.descriptor) }
            }
        }
        func forget(_ connection: ServeConnection) {
            poll.remove(connection.descriptor)
            connections[Int(connection.descriptor)] = nil
            open -= 1
        }

        while true {
            let sinceScan = Int(Socket.milliseconds(since: lastScan))
            let timeout = open == 0 ? 1000 : max(0, Self.scanMilliseconds - sinceScan) + 1
            let count = poll.wait(&events, milliseconds: Int32(timeout))
            var now = self.now
            var woken = false
            for index in 0..<count {
                let event = events[index]
                guard event.data.u64 != EventPoll.wakeToken else {
                    woken = true
                    continue
                }
                let descriptor = Int(event.data.u64)
                guard descriptor < connections.count, let connection = connections[descriptor] else { continue }
                let flags = event.events
                if flags & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 {
                    // Gone both ways (reset): nothing can be written to it any more.
                    settle(connection, .close)
                } else if flags & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue) != 0 {
                    settle(connection, connection.readable(self, scratch: &scratch, at: now))
                } else if flags & EPOLLOUT.rawValue != 0 {
                    settle(connection, connection.writable(self, at: now))
                }
            }
            if woken {
                poll.drainWakes()
                let (arrivals, completions) = inbox.withLock { inbox in
                    inbox.signaled = false
                    defer {
                        inbox.arrivals.removeAll(keepingCapacity: true)
                        inbox.completions.removeAll(keepingCapacity: true)
                    }
                    return (inbox.arrivals, inbox.completions)
                }
                now = self.now
                for descriptor in arrivals {
                    let connection = ServeConnection(descriptor: descriptor, serial: serials.add(1, ordering: .relaxed).newValue, at: now)
                    guard poll.add(descriptor, connection.interest) else {
                        server.release(descriptor)
                        continue
                    }
                    let slot = Int(descriptor)
                    if slot >= connections.count { connections += repeatElement(nil, count: slot + 1 - connections.count + 64) }
                    connections[slot] = connection
                    open += 1
                }
                for completion in completions {
                    let slot = Int(completion.descriptor)
                    guard slot < connections.count, let connection = connections[slot], connection.serial == completion.serial else { continue }
                    settle(connection, connection.answered(completion.sequence, with: completion.answer, self, at: now))
                }
            }
            let stopping = isStopping
            if (woken && stopping) || Socket.milliseconds(since: lastScan) >= Double(Self.scanMilliseconds) {
                lastScan = ContinuousClock.now
                let scanned = self.now
                // By index: closing a connection empties its entry, which iterating a copy would copy the array for.
                for index in connections.indices {
                    guard let connection = connections[index] else { continue }
                    settle(connection, connection.check(self, at: scanned))
                }
            }
            if open == 0, stopping || woken {
                // Ends once the server stops (or a failed start ends it), and only with nothing handed over
                // since: a connection accepted just before the stop is not left behind.
                let ended = inbox.withLock { inbox in
                    guard inbox.arrivals.isEmpty, stopping || inbox.ended else { return false }
                    inbox.ended = true
                    return true
                }
                if ended { return }
            }
        }
    }
}
