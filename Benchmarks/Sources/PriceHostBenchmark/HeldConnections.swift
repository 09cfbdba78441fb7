import Foundation
import Glibc
import PriceHostTesting
import Synchronization

/// Many connections held open to a server: idle keep-alive ones (each has had one answer),
/// or slow-header ones (a request head that never ends, a byte now and then). Closed on ``close()``.
final class HeldConnections: Sendable {
    private let descriptors: [Int32]
    private let trickling = Atomic<Bool>(false)
    private let stopped = DispatchSemaphore(value: 0)

    private init(_ descriptors: [Int32]) {
        self.descriptors = descriptors
    }

    var count: Int { descriptors.count }

    /// `count` connections to `127.0.0.1:port`, each sent `GET path` and read its whole answer, then left idle.
    static func idle(_ count: Int, port: UInt16, path: String) throws -> HeldConnections {
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        var opened: [Int32] = []
        opened.reserveCapacity(count)
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        for index in 0..<count {
            do {
                let descriptor = try connected(port)
                opened.append(descriptor)
                guard sendAll(descriptor, request[...]), readAnswer(descriptor, &buffer) else {
                    throw BenchmarkError("idle connection \(index + 1): no whole answer to GET \(path): \(String(cString: strerror(errno)))")
                }
            } catch {
                opened.forEach { Glibc.close($0) }
                throw error
            }
        }
        return HeldConnections(opened)
    }

    /// `count` connections that each send the start of a request head and then one more byte of a
    /// header about once a second, from one thread, until ``close()``: the head never ends.
    static func slowHeaders(_ count: Int, port: UInt16, path: String) throws -> HeldConnections {
        var opened: [Int32] = []
        let start = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8)
        for _ in 0..<count {
            do {
                let descriptor = try connected(port)
                opened.append(descriptor)
                guard sendAll(descriptor, start[...]) else { throw BenchmarkError("slow client: send: \(String(cString: strerror(errno)))") }
            } catch {
                opened.forEach { Glibc.close($0) }
                throw error
            }
        }
        let held = HeldConnections(opened)
        held.trickling.store(true, ordering: .releasing)
        Thread.detachNewThread { [held] in held.trickle() }
        return held
    }

    /// One byte to 1/50 of the clients every 20 ms: each gets a byte a second.
    private func trickle() {
        var next = 0
        let perRound = max(1, descriptors.count / 50)
        let byte: [UInt8] = [UInt8(ascii: "a")]
        while trickling.load(ordering: .acquiring) {
            for _ in 0..<perRound {
                _ = byte.withUnsafeBytes { send(descriptors[next], $0.baseAddress, 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                next = (next + 1) % descriptors.count
            }
            usleep(20_000)
        }
        stopped.signal()
    }

    /// Stops the trickle (if any) and closes every connection.
    func close() {
        let wasTrickling = trickling.exchange(false, ordering: .acquiringAndReleasing)
        if wasTrickling { stopped.wait() }
        descriptors.forEach { Glibc.close($0) }
    }

    private static func connected(_ port: UInt16) throws -> Int32 {
        let descriptor = try LoopbackHTTPConnection.connectedSocket(port: port)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return descriptor
    }

    private static func sendAll(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        var rest = bytes
        while !rest.isEmpty {
            let sent = rest.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            rest = rest.dropFirst(sent)
        }
        return true
    }

    /// Reads one answer: its head, then `Content-Length` bytes.
    private static func readAnswer(_ descriptor: Int32, _ buffer: inout [UInt8]) -> Bool {
        var filled = 0
        let marker = Array("\r\n\r\n".utf8)
        let lengthName = Array("content-length: ".utf8)
        while filled < buffer.count {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + filled, $0.count - filled, 0) }
            guard count > 0 else { return false }
            filled += count
            guard let end = buffer[..<filled].firstRange(of: marker)?.upperBound else { continue }
            let head = buffer[..<end].map { (65...90).contains($0) ? $0 + 32 : $0 }
            guard let start = head.firstRange(of: lengthName)?.upperBound else { return false }
            let length = Int(String(decoding: head[start...].prefix { (48...57).contains($0) }, as: UTF8.self)) ?? 0
            if filled >= end + length { return true }
        }
        return false
    }
}
