import Dispatch
import Foundation
import Glibc
import Synchronization

/// A Coinbase-shaped spot-price server on 127.0.0.1, inside the benchmark process:
/// `GET /v2/prices/BASE-QUOTE/spot` answers
/// `{"data":{"base":"BASE","currency":"QUOTE","amount":"91234.56"}}` after the
/// server's delay; anything else is a 404 in Coinbase's error shape. One thread
/// accepts, one thread serves each connection, every answer closes its connection.
/// It binds 127.0.0.1 and nothing else.
final class SpotServer: Sendable {
    /// The amount every answer carries; the benchmark checks pricehost printed it.
    static let amount = "91234.56"

    let port: UInt16
    var baseURL: String { "http://127.0.0.1:\(port)" }

    private let listener: Int32
    private let delayMicroseconds: UInt32
    private let requests = Atomic<Int>(0)
    private let load = Mutex<(current: Int, peak: Int)>((0, 0))
    private let stopped = Atomic<Bool>(false)
    private let acceptEnded = DispatchSemaphore(value: 0)
    private let connections = DispatchGroup()

    /// No run of the benchmark makes nearly this many connections to one server.
    private static let maxConnections = 1_000_000
    private static let maxRequestBytes = 16 * 1024

    /// Listens on an ephemeral port of 127.0.0.1 and starts accepting.
    /// - Parameter delayMilliseconds: how long to wait before answering each request.
    init(delayMilliseconds: Int) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw BenchmarkError("loopback server: socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        // A backlog of 128: a burst of 20 connections must not have SYNs dropped and retried a second later.
        guard bound, listen(descriptor, 128) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw BenchmarkError("loopback server: cannot listen on 127.0.0.1: \(reason)")
        }
        listener = descriptor
        port = UInt16(bigEndian: address.sin_port)
        delayMicroseconds = UInt32(max(0, delayMilliseconds)) * 1000
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Requests received so far (well-formed or not).
    var requestCount: Int { requests.load(ordering: .acquiring) }

    /// The most requests that were being answered at one moment.
    var peakConcurrentRequests: Int { load.withLock { $0.peak } }

    /// Stops accepting, and waits (at most 5 s each) for the accept thread and for
    /// connections still being answered.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // shutdown wakes the blocked accept; the descriptor is closed only once the
        // accept thread is done with it, so it cannot accept on a reused number.
        shutdown(listener, Int32(SHUT_RDWR))
        if acceptEnded.wait(timeout: .now() + 5) == .success { close(listener) }
        _ = connections.wait(timeout: .now() + 5)
    }

    deinit { stop() }

    private func acceptLoop() {
        defer { acceptEnded.signal() }
        for _ in 0..<Self.maxConnections {
            let connection = accept(listener, nil, nil)
            if stopped.load(ordering: .acquiring) {
                if connection >= 0 { close(connection) }
                return
            }
            guard connection >= 0 else {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM: usleep(10_000); continue
                default: return
                }
            }
            // Not inherited by the children spawned meanwhile (accept4 is not in the Glibc module).
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            connections.enter()
            Thread.detachNewThread { [self] in
                serve(connection)
                connections.leave()
            }
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let target = readRequestTarget(connection) else { return }
        requests.add(1, ordering: .acquiringAndReleasing)
        load.withLock { $0.current += 1; $0.peak = max($0.peak, $0.current) }
        defer { load.withLock { $0.current -= 1 } }
        if delayMicroseconds > 0 { usleep(delayMicroseconds) }
        let (status, body) = Self.answer(to: target)
        let head = "HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        sendAll(connection, Array((head + body).utf8))
        // Say we are done writing, so the client reads the end of the body before the close.
        shutdown(connection, Int32(SHUT_WR))
    }

    /// The status line's text and the body for `target` (the path of the request line).
    static func answer(to target: String) -> (status: String, body: String) {
        let parts = target.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 5, parts[0].isEmpty, parts[1] == "v2", parts[2] == "prices", parts[4] == "spot" {
            let pair = parts[3].split(separator: "-")
            if pair.count == 2, pair.allSatisfy(isCode) {
                return ("200 OK", #"{"data":{"base":"\#(pair[0])","currency":"\#(pair[1])","amount":"\#(amount)"}}"#)
            }
        }
        return ("404 Not Found", #"{"errors":[{"id":"not_found","message":"Not found"}]}"#)
    }

    private static func isCode(_ text: Substring) -> Bool {
        (2...10).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// Reads up to the blank line that ends the request head; the path of `GET PATH HTTP/1.1`.
    private func readRequestTarget(_ connection: Int32) -> String? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while buffer.count < Self.maxRequestBytes {
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
            guard let end = buffer.firstRange(of: [13, 10, 13, 10]) else { continue }
            let requestLine = String(decoding: buffer[..<end.lowerBound], as: UTF8.self).split(separator: "\r\n").first ?? ""
            let words = requestLine.split(separator: " ")
            guard words.count == 3, words[0] == "GET" else { return "" }
            return String(words[1])
        }
        return nil
    }

    private func sendAll(_ connection: Int32, _ bytes: [UInt8]) {
        var offset = 0
        // Each send moves at least one byte or ends the loop, so it runs at most bytes.count times.
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return -1 }
                return send(connection, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent <= 0 { return }
            offset += sent
        }
    }
}
