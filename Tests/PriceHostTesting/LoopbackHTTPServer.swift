import ConcurrencyHelpers
import Foundation
import Glibc
import Synchronization

/// A small HTTP/1.1 server on 127.0.0.1 for tests: real sockets, nothing
/// mocked below them. Each connection is served on its own thread, with
/// keep-alive: requests on one connection are answered in order by `handler`.
/// The server counts connections, and requests per path. Stop it with ``stop()``.
public final class LoopbackHTTPServer: Sendable {
    /// A request as the server saw it.
    public struct Request: Sendable, Equatable {
        /// `GET`, …
        public var method: String
        /// The path with its query, e.g. `/v2/prices/BTC-USD/spot`.
        public var path: String
        /// Header names lower-cased.
        public var headers: [String: String]
        /// The body its `Content-Length` announced (a POST's); empty without one.
        public var body: [UInt8] = []
    }

    /// What to answer.
    public struct Reply: Sendable {
        /// The status code.
        public var status: Int
        /// Extra headers.
        public var headers: [(String, String)]
        /// The body.
        public var body: [UInt8]
        /// Wait this long before answering.
        public var delay: Double
        /// Announce this Content-Length instead of the body's (a larger one makes a truncated body).
        public var declaredLength: Int?
        /// Misbehaviour instead of an HTTP answer, for tests of bad upstreams.
        public var raw: Raw?

        /// What a misbehaving server sends. The connection closes after it.
        public enum Raw: Sendable {
            /// These bytes exactly, then the connection stays open (sending nothing) for `holdOpen` seconds.
            case bytes([UInt8], holdOpen: Double)
            /// `head`, then `chunk` again and again until the client hangs up, at most `limit` bytes
            /// or `seconds`, whichever comes first.
            case endless(head: [UInt8], chunk: [UInt8], limit: Int, seconds: Double)
        }

        /// A reply that is not HTTP, or not only: see ``Raw``.
        public static func misbehaving(_ raw: Raw) -> Reply {
            var reply = Reply()
            reply.raw = raw
            return reply
        }

        /// Creates a reply.
        public init(status: Int = 200, headers: [(String, String)] = [], body: String = "", delay: Double = 0, declaredLength: Int? = nil) {
            self.init(status: status, headers: headers, bytes: Array(body.utf8), delay: delay, declaredLength: declaredLength)
        }

        /// Creates a reply with a binary body.
        public init(status: Int = 200, headers: [(String, String)] = [], bytes: [UInt8], delay: Double = 0, declaredLength: Int? = nil) {
            self.status = status
            self.headers = headers
            self.body = bytes
            self.delay = delay
            self.declaredLength = declaredLength
        }
    }

    /// The port it listens on.
    public let port: UInt16
    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private let listener: Int32
    private let handler: @Sendable (Request, Int) -> Reply
    private let counts = Lock<[String: Int]>([:])
    private let concurrency = Lock<(current: Int, peak: Int)>((0, 0))
    private let arrivals = Lock<[ContinuousClock.Instant]>([])
    private let connections = Atomic<Int>(0)

    /// How many TCP connections clients opened.
    public var connectionCount: Int {
        connections.load(ordering: .acquiring)
    }

    /// When each request arrived, in order.
    public var arrivalTimes: [ContinuousClock.Instant] {
        arrivals.withLock { $0 }
    }
    private let stopped = Atomic<Bool>(false)
    private let acceptDone = DispatchSemaphore(value: 0)
    /// Set by the accept loop as it closes the listener; ``stop()`` shuts it down only before that.
    private let listenerClosed = Lock(false)

    /// Starts listening on an ephemeral port of 127.0.0.1.
    /// - Parameter handler: called with the request and how many requests that path had before it (0 for the first).
    public init(handler: @escaping @Sendable (Request, Int) -> Reply) throws {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw ServerError("socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(socketDescriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socketDescriptor, 128) == 0 else {
            close(socketDescriptor)
            throw ServerError("bind/listen: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketDescriptor, $0, &length) }
        }
        listener = socketDescriptor
        port = UInt16(bigEndian: address.sin_port)
        self.handler = handler
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// How many requests `path` received.
    public func requestCount(path: String) -> Int {
        counts.withLock { $0[path, default: 0] }
    }

    /// The most requests that were being answered at the same moment.
    public var peakConcurrentRequests: Int {
        concurrency.withLock { $0.peak }
    }

    /// All requests received, by path.
    public var requestCounts: [String: Int] {
        counts.withLock { $0 }
    }

    /// Stops accepting connections and waits (at most 5 s) for the accept loop to end.
    /// The loop alone closes the listener, as it ends: closed here, while the loop could still
    /// call `accept`, the number could be reused meanwhile by another test's descriptor.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        listenerClosed.withLock { closed in
            if !closed { shutdown(listener, Int32(SHUT_RDWR)) }
        }
        _ = acceptDone.wait(timeout: .now() + 5)
    }

    deinit { stop() }

    private func acceptLoop() {
        defer {
            listenerClosed.withLock { closed in
                closed = true
                close(listener)
            }
            acceptDone.signal()
        }
        while !stopped.load(ordering: .acquiring) {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            Thread.detachNewThread { [self] in serve(connection) }
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        connections.add(1, ordering: .acquiringAndReleasing)
        // An idle keep-alive connection is closed after 10 s, as servers do.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var pending: [UInt8] = []
        // Bounded: a client gets at most 10,000 answers on one connection.
        for _ in 0..<10_000 {
            guard let request = readRequest(connection, buffer: &pending) else { return }
            guard answer(request, on: connection) else { return }
        }
    }

    /// Answers one request; false when the connection must close after it.
    private func answer(_ request: Request, on connection: Int32) -> Bool {
        arrivals.withLock { $0.append(.now) }
        let previous = counts.withLock { counts -> Int in
            let count = counts[request.path, default: 0]
            counts[request.path] = count + 1
            return count
        }
        concurrency.withLock { $0.current += 1; $0.peak = max($0.peak, $0.current) }
        defer { concurrency.withLock { $0.current -= 1 } }
        let reply = handler(request, previous)
        if reply.delay > 0 { Thread.sleep(forTimeInterval: reply.delay) }
        if let raw = reply.raw {
            misbehave(raw, on: connection)
            return false
        }
        // A truncated body can only end with the connection.
        let keepAlive = reply.declaredLength == nil && request.headers["connection"]?.lowercased() != "close"
        var head = "HTTP/1.1 \(reply.status) \(Self.reason(reply.status))\r\n"
        head += "Content-Length: \(reply.declaredLength ?? reply.body.count)\r\nConnection: \(keepAlive ? "keep-alive" : "close")\r\n"
        for (name, value) in reply.headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        guard sendAll(connection, Array(head.utf8)), sendAll(connection, reply.body) else { return false }
        return keepAlive
    }

    private func misbehave(_ raw: Reply.Raw, on connection: Int32) {
        switch raw {
        case .bytes(let bytes, let holdOpen):
            guard sendAll(connection, bytes) else { return }
            if holdOpen > 0 {
                // Until the client gives up (recv returns 0 or fails) or the time is over.
                var timeout = timeval(tv_sec: Int(holdOpen), tv_usec: Int((holdOpen - holdOpen.rounded(.down)) * 1_000_000))
                setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                var byte: UInt8 = 0
                _ = recv(connection, &byte, 1, 0)
            }
        case .endless(let head, let chunk, let limit, let seconds):
            guard sendAll(connection, head) else { return }
            let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
            var sent = head.count
            while sent < limit, ContinuousClock.now < deadline, sendAll(connection, chunk) {
                sent += chunk.count
            }
        }
    }

    /// The next request on the connection; bytes past it (a pipelined request) stay in `buffer`.
    private func readRequest(_ connection: Int32, buffer: inout [UInt8]) -> Request? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while buffer.count < 64 * 1024 {
            if let end = buffer.firstRange(of: [13, 10, 13, 10]) {
                let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
                buffer.removeSubrange(..<end.upperBound)
                let lines = head.components(separatedBy: "\r\n")
                let parts = lines.first?.split(separator: " ") ?? []
                guard parts.count >= 2 else { return nil }
                var headers: [String: String] = [:]
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                // The body, when announced (at most 1 MiB): a POST's, read whole before the request is answered.
                let length = min(Int(headers["content-length"] ?? "") ?? 0, 1 << 20)
                while buffer.count < length {
                    let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
                    guard count > 0 else { return nil }
                    buffer += chunk.prefix(count)
                }
                let body = Array(buffer.prefix(length))
                buffer.removeSubrange(..<length)
                return Request(method: String(parts[0]), path: String(parts[1]), headers: headers, body: body)
            }
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            buffer += chunk.prefix(count)
        }
        return nil
    }

    private func sendAll(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { send(connection, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }

    /// The server could not start.
    public struct ServerError: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }
}
