import ConcurrencyHelpers
import Glibc
import PriceHostCore
import Synchronization

/// The listening socket and its connections: one thread accepts and hands each connection to
/// one of a few event loops (one per core, at most 4, ``EventLoop``), which reads its requests,
/// answers them in order and writes without ever blocking; SSE streams are handed to a few
/// writer threads (as many, ``StreamWriter``), each writing many streams. An idle connection
/// costs its buffers, not a thread.
///
/// Limits: past `maxConnections` a new connection gets an immediate 503; an idle keep-alive
/// connection is closed after `idleTimeout`; a request whose head (and body) has not arrived
/// within `headerTimeout` of its first byte gets 408 and the connection is closed (slowloris);
/// a client that takes no byte of its answer for 10 s is disconnected. ``drain(within:)`` stops
/// accepting, lets requests in flight finish (with `Connection: close`) and closes the rest.
package final class ServeServer: Sendable {
    /// What a connection's requests are handed to, on the loop's thread: it must not block
    /// (``ServeReply/later(_:)`` for work that waits).
    package typealias Handler = @Sendable (ServeRequest) -> ServeReply
    /// Told of each request the transport refused before the handler could see it (`nil`: it could
    /// not be read; `invalid` 400/408/413/431/501/505, `overload` 503), with the route name, the status and
    /// the milliseconds since its first byte. Answered requests are the application's to count (its middleware).
    package typealias Finished = @Sendable (ServeRequest?, String, Int, Double) -> Void

    /// The timeouts and the connection bound.
    package struct Limits: Sendable {
        var maxConnections: Int
        var idleTimeoutMilliseconds: Int
        var headerTimeoutMilliseconds: Int
        var heartbeatMilliseconds: Int
        /// A connection whose answer waits this long without the client taking a byte is closed.
        var sendTimeoutMilliseconds = 10_000

        package init(_ settings: ServeSettings) {
            maxConnections = settings.maxConnections
            idleTimeoutMilliseconds = settings.idleTimeoutMilliseconds
            headerTimeoutMilliseconds = settings.headerTimeoutMilliseconds
            heartbeatMilliseconds = settings.heartbeatMilliseconds
        }
    }

    /// The address listened on, with the port the kernel chose for port 0.
    package let address: ListenAddress
    package let limits: Limits
    /// What the connections' timeouts are read from (idle, header, send): the system's clock when
    /// serving, a ``TestClock`` in a test that moves past a timeout without racing it.
    let clock: any PriceClock
    private let listener: Int32
    /// Connections open, streams included: counted up when accepted, down when closed.
    private let openCount = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    /// The loops, made by ``start(handler:finished:)``.
    private let loops = Lock<[EventLoop]>([])
    /// The streams' writers, made when the first stream starts.
    private let writers = Lock<[StreamWriter]?>(nil)
    /// Who may close the listener: the accept loop once it runs (and only when it ends, so it
    /// never accepts on a number reused meanwhile), otherwise ``drain(within:)`` or `deinit`.
    /// Shutting the listener down happens under the same lock as its close, so it never hits a reused number.
    private let listenerState = Lock(ListenerState.idle)

    private enum ListenerState {
        case idle, accepting, closed
    }

    /// How many event loops (and stream writers): one per core, at most 4.
    static let loopCount = min(4, max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    /// Binds and listens.
    /// - Throws: ``ServeError`` with the system's reason (the port in use, say).
    package init(address: ListenAddress, limits: Limits, clock: any PriceClock = SystemClock()) throws(ServeError) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ServeError(address: address, reason: String(cString: strerror(errno))) }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = address.port.bigEndian
        inet_pton(AF_INET, address.host, &socketAddress.sin_addr)
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 4096) == 0 else {
            let code = errno
            close(descriptor)
            let hint = switch code {
            case EADDRINUSE: " (another process listens there; stop it or choose another port with --listen)"
            case EACCES: " (ports below 1024 need privileges; choose a port above 1024)"
            case EADDRNOTAVAIL: " (no interface of this machine has that address)"
            default: ""
            }
            throw ServeError(address: address, reason: String(cString: strerror(code)) + hint)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        self.address = ListenAddress(host: address.host, port: UInt16(bigEndian: socketAddress.sin_port))
        self.limits = limits
        self.clock = clock
    }

    /// True once ``drain(within:)`` began: answers say `Connection: close`.
    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// Starts the event loops and the accepting thread.
    /// - Parameters:
    ///   - handler: answers each request, on a loop's thread.
    ///   - finished: called after each answer is made, before it is written (see ``Finished``).
    ///   - taskExecutor: where ``ServeReply/later(_:)`` work runs: by default Swift's global executor
    ///     (tests give one of their own: their cooperative pool may be held by other tests).
    /// - Returns: false when a thread could not start, or the server was started or drained before.
    package func start(handler: @escaping Handler, finished: @escaping Finished, taskExecutor: (any TaskExecutor)? = nil) -> Bool {
        let claimed = listenerState.withLock { state in
            guard state == .idle else { return false }
            state = .accepting
            return true
        }
        guard claimed else { return false }
        Self.raiseDescriptorLimit()
        let made = (0..<Self.loopCount).compactMap { _ in EventLoop(server: self, handler: handler, finished: finished, taskExecutor: taskExecutor) }
        guard made.count == Self.loopCount, made.allSatisfy({ $0.start() }) else {
            made.forEach { $0.stop() }
            closeListener()
            return false
        }
        loops.withLock { $0 = made }
        let started = DetachedThread.start(stackBytes: 256 * 1024) { [self] in acceptLoop(made, finished: finished) }
        if !started {
            made.forEach { $0.stop() }
            closeListener()
        }
        return started
    }

    /// Raises the soft limit on open descriptors to the hard limit: a connection costs one, and
    /// `maxConnections` may be up to 65,536 (the default soft limit is often 1,024).
    static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// Closes the listener, once: the accept loop's last act, or drain's or deinit's when none ran.
    private func closeListener() {
        listenerState.withLock { state in
            guard state != .closed else { return }
            state = .closed
            close(listener)
        }
    }

    deinit {
        // The accept loop holds the server, so it has ended (and closed the listener) or never ran.
        closeListener()
    }

    private func acceptLoop(_ loops: [EventLoop], finished: @escaping Finished) {
        defer { closeListener() }
        var next = 0
        while !isStopping {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED || errno == EMFILE || errno == ENFILE || errno == ENOMEM {
                    // Out of descriptors: let some close rather than spin.
                    if errno != EINTR && errno != ECONNABORTED { usleep(10_000) }
                    continue
                }
                return
            }
            // Not inherited by the children `check` would start: serve starts none, but a plugin might.
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            _ = fcntl(connection, F_SETFL, fcntl(connection, F_GETFL) | O_NONBLOCK)
            guard openCount.add(1, ordering: .acquiringAndReleasing).newValue <= limits.maxConnections else {
                openCount.subtract(1, ordering: .acquiringAndReleasing)
                finished(nil, "overload", 503, 0)
                // A fresh socket's buffer takes these few hundred bytes at once.
                _ = Socket.sendAll(connection, ServeResponse.error(503, "too many connections (serve.maxConnections is \(limits.maxConnections)); try again shortly",
                                                                   headers: [("Retry-After", "1")]).serialized(keepAlive: false))
                close(connection)
                continue
            }
            Socket.setNoDelay(connection)
            // Spread in turn: each loop owns the connection from here, and alone closes it.
            loops[next].adopt(connection)
            next = (next + 1) % loops.count
        }
    }

    /// Closes a connection its owner is done with, and counts it out.
    func release(_ connection: Int32) {
        close(connection)
        openCount.subtract(1, ordering: .acquiringAndReleasing)
    }

    /// Hands the connection on `descriptor` to a stream writer, which sends `head` (the SSE response's)
    /// and then `source`'s events until the client leaves or the server stops, and then closes it.
    /// - Returns: true when a writer took the connection over; false when the caller still owns it
    ///   (the source would not start, the server is stopping, or no writer could start).
    func startStream(on descriptor: Int32, source: any ServeEventSource, head: String = ServeServer.streamHead) -> Bool {
        guard !isStopping, let writer = streamWriter(for: descriptor) else { return false }
        // A fixed kernel buffer per stream (no autotuning to megabytes): a client that stops
        // reading costs at most this, and falls behind in its inbox soon enough to be seen.
        Socket.setSendBuffer(descriptor, bytes: StreamWriter.socketBuffer)
        // An event is one write: it goes out at once, never held behind the previous one's acknowledgement.
        Socket.setNoDelay(descriptor)
        guard let subscription = source.subscribe(ready: { writer.ready(descriptor) }) else { return false }
        var stream = StreamWriter.Stream(descriptor: descriptor, subscription: subscription)
        stream.output.append(head)
        guard writer.add(stream) else {
            subscription.cancel()
            return false
        }
        return true
    }

    /// The head of every SSE response.
    static let streamHead = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
        + "X-Accel-Buffering: no\r\nConnection: close\r\n\r\n"

    /// The writer for a stream on `descriptor` (streams are spread over the writers by descriptor);
    /// `nil` when none can be made (out of descriptors).
    private func streamWriter(for descriptor: Int32) -> StreamWriter? {
        writers.withLock { writers in
            if writers == nil {
                let made = (0..<Self.loopCount).compactMap { _ in
                    StreamWriter(heartbeatMilliseconds: limits.heartbeatMilliseconds,
                                 isStopping: { [weak self] in self?.isStopping ?? true },
                                 release: { [weak self] descriptor in
                                     if let self { release(descriptor) } else { close(descriptor) }
                                 })
                }
                guard made.count == Self.loopCount else { return nil }
                writers = made
            }
            return writers.map { $0[Int(descriptor) % $0.count] }
        }
    }

    /// How many connections are open.
    package var openConnectionCount: Int { openCount.load(ordering: .acquiring) }

    /// Stops accepting, closes every connection waiting for a request (an SSE stream ends the
    /// same way), lets those with a request in flight answer it with `Connection: close`, and
    /// waits until all are closed or `within` has passed.
    /// - Returns: true when every connection closed in time.
    package func drain(within limit: Duration) -> Bool {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return openConnectionCount == 0 }
        // Wakes the accept loop, which closes the listener as it ends, however long that takes;
        // a listener nothing accepts on (never started) is closed here.
        listenerState.withLock { state in
            switch state {
            case .accepting: shutdown(listener, Int32(SHUT_RDWR))
            case .idle:
                state = .closed
                close(listener)
            case .closed: break
            }
        }
        for loop in loops.withLock({ $0 }) { loop.wake() }
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if openConnectionCount == 0 && listenerState.withLock({ $0 == .closed }) { break }
            usleep(10_000)
        }
        guard openConnectionCount == 0 else { return false }
        // Each loop ends once it has no connection; let go of them (they hold the server while they run).
        loops.withLock { $0 = [] }
        return true
    }
}
