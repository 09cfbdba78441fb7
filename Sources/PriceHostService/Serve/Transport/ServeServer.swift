import ConcurrencyHelpers
import Glibc
import PriceHostCore
import Synchronization

/// The listening socket and its connections: one thread accepts, one thread per
/// connection reads, answers in order and writes; SSE streams are handed to a few
/// writer threads (one per core, at most 4), each writing many streams (``StreamWriter``).
///
/// Limits: past `maxConnections` a new connection gets an immediate 503; an idle
/// keep-alive connection is closed after `idleTimeout`; a request whose head (and
/// body) has not arrived within `headerTimeout` of its first byte gets 408 and the
/// connection is closed (slowloris). ``drain(within:)`` stops accepting, lets
/// requests in flight finish and closes the rest.
package final class ServeServer: Sendable {
    /// What a connection's requests are handed to.
    package typealias Handler = @Sendable (ServeRequest) -> ServeAnswer

    /// The timeouts and the connection bound.
    package struct Limits: Sendable {
        var maxConnections: Int
        var idleTimeoutMilliseconds: Int
        var headerTimeoutMilliseconds: Int
        var heartbeatMilliseconds: Int

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
    private let listener: Int32
    /// Open connections; a descriptor is removed under this lock before it is closed, so
    /// ``drain(within:)`` never shuts down a reused number.
    private let connections = Lock<Set<Int32>>([])
    private let stopping = Atomic<Bool>(false)
    /// The streams' writers, made when the first stream starts.
    private let writers = Lock<[StreamWriter]?>(nil)
    /// Who may close the listener: the accept loop once it runs (and only when it ends, so it
    /// never accepts on a number reused meanwhile), otherwise ``drain(within:)`` or `deinit`.
    /// Shutting the listener down happens under the same lock as its close, so it never hits a reused number.
    private let listenerState = Lock(ListenerState.idle)

    private enum ListenerState {
        case idle, accepting, closed
    }

    /// Binds and listens.
    /// - Throws: ``ServeError`` with the system's reason (the port in use, say).
    package init(address: ListenAddress, limits: Limits) throws(ServeError) {
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
        guard bound == 0, listen(descriptor, 1024) == 0 else {
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
    }

    /// True once ``drain(within:)`` began: answers say `Connection: close`.
    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// Starts accepting on a thread of its own.
    /// - Parameters:
    ///   - handler: answers each request.
    ///   - finished: called after each answer: the request (`nil` for one refused before it could be read), the status and the time taken.
    /// - Returns: false when the thread could not start, or the server was started or drained before.
    package func start(handler: @escaping Handler, finished: @escaping @Sendable (ServeRequest?, String, Int, Double) -> Void) -> Bool {
        let claimed = listenerState.withLock { state in
            guard state == .idle else { return false }
            state = .accepting
            return true
        }
        guard claimed else { return false }
        let started = DetachedThread.start(stackBytes: 256 * 1024) { [self] in
            acceptLoop(handler: handler, finished: finished)
        }
        if !started { closeListener() }
        return started
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

    private func acceptLoop(handler: @escaping Handler, finished: @escaping @Sendable (ServeRequest?, String, Int, Double) -> Void) {
        defer { closeListener() }
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
            let admitted = connections.withLock { open in
                guard open.count < limits.maxConnections else { return false }
                open.insert(connection)
                return true
            }
            guard admitted else {
                finished(nil, "overload", 503, 0)
                Socket.setSendTimeout(connection, milliseconds: 1000)
                _ = Socket.sendAll(connection, ServeResponse.error(503, "too many connections (serve.maxConnections is \(limits.maxConnections)); try again shortly",
                                                                   headers: [("Retry-After", "1")]).serialized(keepAlive: false))
                close(connection)
                continue
            }
            let started = DetachedThread.start { [self] in
                let handedOver = ServeConnection(descriptor: connection, server: self, handler: handler, finished: finished).run()
                if !handedOver { closeConnection(connection) }
            }
            if !started { closeConnection(connection) }
        }
    }

    private func closeConnection(_ connection: Int32) {
        connections.withLock { _ = $0.remove(connection) }
        close(connection)
    }

    /// The writer for a stream on `descriptor` (streams are spread over the writers by descriptor);
    /// `nil` when none can be made (out of descriptors).
    func streamWriter(for descriptor: Int32) -> StreamWriter? {
        writers.withLock { writers in
            if writers == nil {
                let count = min(4, max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
                let made = (0..<count).compactMap { _ in
                    StreamWriter(heartbeatMilliseconds: limits.heartbeatMilliseconds,
                                 isStopping: { [weak self] in self?.isStopping ?? true },
                                 release: { [weak self] descriptor in
                                     if let self { closeConnection(descriptor) } else { close(descriptor) }
                                 })
                }
                guard made.count == count else { return nil }
                writers = made
            }
            return writers.map { $0[Int(descriptor) % $0.count] }
        }
    }

    /// How many connections are open.
    package var openConnectionCount: Int { connections.withLock { $0.count } }

    /// Stops accepting, wakes every connection waiting for a request (an SSE stream
    /// ends the same way), and waits until all are closed or `within` has passed.
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
        // A connection mid-request still writes its answer (only reads are shut), then sees the end.
        connections.withLock { open in
            for connection in open { shutdown(connection, Int32(SHUT_RD)) }
        }
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if openConnectionCount == 0 && listenerState.withLock({ $0 == .closed }) { break }
            usleep(10_000)
        }
        return openConnectionCount == 0
    }
}

/// What a request gets: a response, or a stream that takes the connection over.
package enum ServeAnswer: Sendable {
    /// A response, counted under `route` (a fixed name, for metrics).
    case response(ServeResponse, route: String)
    /// Server-Sent Events until the client leaves or the server stops.
    case stream(StreamPlan)
}
