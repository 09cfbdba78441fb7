import Foundation
import Glibc
import PriceHostTesting
import Synchronization

/// A keep-alive HTTP load generator of our own: `connections` clients, each on a
/// thread with one connection, sending a GET and reading each reply before the
/// next (no pipelining), until the shared count of requests is reached. Request
/// number N asks for `paths[N % paths.count]`; connections are spread over `ports`.
final class LoadClient: Sendable {
    private let descriptors: [Int32]
    /// Each worker's latencies, added when it ends.
    private let latencies = Mutex<[[UInt32]]>([])
    private let requests: [[UInt8]]
    private let issued = Atomic<Int>(0)
    private let failures = Atomic<Int>(0)

    /// Opens `connections` connections to `127.0.0.1:port`, all asking for `path`.
    convenience init(port: UInt16, connections: Int, path: String) throws {
        try self.init(ports: [port], connections: connections, paths: [path])
    }

    /// Opens `connections` connections, spread in turn over `127.0.0.1:` each of `ports`.
    init(ports: [UInt16], connections: Int, paths: [String]) throws {
        requests = paths.map { Array("GET \($0) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8) }
        var opened: [Int32] = []
        for index in 0..<connections {
            let port = ports[index % ports.count]
            let descriptor: Int32
            do {
                descriptor = try LoopbackHTTPConnection.connectedSocket(port: port)
            } catch {
                opened.forEach { close($0) }
                throw BenchmarkError("cannot connect: \(error)")
            }
            var yes: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            opened.append(descriptor)
        }
        descriptors = opened
    }

    deinit { descriptors.forEach { close($0) } }

    /// Requests that did not get a 200 (or whose connection failed).
    var failureCount: Int { failures.load(ordering: .relaxed) }

    /// Runs until `total` requests have been issued since the client was made; the wall time in seconds.
    func run(until total: Int) -> Double {
        let start = Monotonic.nanoseconds()
        let done = DispatchGroup()
        for index in descriptors.indices {
            done.enter()
            Thread.detachNewThread { [self] in
                work(index, until: total)
                done.leave()
            }
        }
        done.wait()
        return Double(Monotonic.nanoseconds() - start) / 1e9
    }

    /// Every latency so far, in microseconds, sorted.
    func sortedLatencies() -> [UInt32] { latencies.withLock { Array($0.joined()) }.sorted() }

    /// Forgets the latencies (after a warm-up).
    func resetLatencies() { latencies.withLock { $0 = [] } }

    private func work(_ index: Int, until total: Int) {
        let descriptor = descriptors[index]
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var recorded: [UInt32] = []
        recorded.reserveCapacity(total / descriptors.count + 16)
        while true {
            let number = issued.wrappingAdd(1, ordering: .relaxed).newValue
            guard number <= total else { break }
            let start = Monotonic.nanoseconds()
            guard sendAll(descriptor, requests[(number - 1) % requests.count]), readReply(descriptor, &buffer) else {
                failures.add(1, ordering: .relaxed)
                break
            }
            recorded.append(UInt32(min(UInt64(UInt32.max), (Monotonic.nanoseconds() - start) / 1000)))
        }
        latencies.withLock { $0.append(recorded) }
    }

    private static let okPrefix = Array("HTTP/1.1 200 ".utf8)
    private static let lengthName = Array("Content-Length: ".utf8)

    private func sendAll(_ descriptor: Int32, _ request: [UInt8]) -> Bool {
        request.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let sent = send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }

    /// Reads one reply (head and Content-Length body); false unless it is a 200.
    private func readReply(_ descriptor: Int32, _ buffer: inout [UInt8]) -> Bool {
        var filled = 0
        var headEnd = -1
        var contentLength = -1
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + filled, $0.count - filled, 0) }
            guard count > 0 else { return false }
            filled += count
            if headEnd < 0, filled >= 4 {
                for index in 3..<filled where buffer[index - 3] == 13 && buffer[index - 2] == 10 && buffer[index - 1] == 13 && buffer[index] == 10 {
                    headEnd = index + 1
                    break
                }
                if headEnd >= 0 {
                    // Bytes, not Strings: the client shares the cores with the server it measures.
                    guard buffer[..<Self.okPrefix.count].elementsEqual(Self.okPrefix),
                          let start = buffer[..<headEnd].firstRange(of: Self.lengthName)?.upperBound else { return false }
                    contentLength = 0
                    for byte in buffer[start..<headEnd] {
                        guard (48...57).contains(byte) else { break }
                        contentLength = contentLength * 10 + Int(byte - 48)
                    }
                    guard headEnd + contentLength <= buffer.count else { return false }
                }
            }
            if headEnd >= 0, filled >= headEnd + contentLength { return filled == headEnd + contentLength }
            if filled == buffer.count { return false }
        }
    }
}
