import Foundation
import Glibc

/// One HTTP/1.1 reply as a client read it.
public struct HTTPReply: Sendable, Equatable, CustomStringConvertible {
    /// The status code.
    public var status: Int
    /// Header names lower-cased (a repeated header keeps its last value).
    public var headers: [String: String]
    /// The body as text.
    public var body: String

    public var description: String { "\(status) \(headers) \(body)" }
}

/// A raw client connection to 127.0.0.1 for tests of a server: send any bytes
/// (malformed ones too), read replies one at a time. Every read has a deadline.
public final class LoopbackHTTPConnection {
    private let descriptor: Int32
    private var pending: [UInt8] = []
    /// How long a read waits before it throws.
    public var timeout: Double

    /// Connects to `127.0.0.1:port`.
    public init(port: UInt16, timeout: Double = 10) throws {
        self.timeout = timeout
        descriptor = try Self.connectedSocket(port: port)
    }

    deinit { Glibc.close(descriptor) }

    /// A TCP socket connected to `127.0.0.1:port`, for clients that manage the descriptor
    /// themselves (the benchmark's load client); the caller closes it.
    public static func connectedSocket(port: UInt16) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ConnectionError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw ConnectionError("connect to 127.0.0.1:\(port): \(reason)")
        }
        return descriptor
    }

    /// Sends `text` as UTF-8.
    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends `bytes`; throws when the server has closed.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw ConnectionError("send: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    /// `GET path` with `headers`, keeping the connection open.
    public func get(_ path: String, headers: [String: String] = [:]) throws -> HTTPReply {
        try send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers.map { "\($0.key): \($0.value)\r\n" }.joined() + "\r\n")
        return try readReply()
    }

    /// Reads one reply: the head, then `Content-Length` bytes of body.
    public func readReply() throws -> HTTPReply {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let end = pending.firstRange(of: Array("\r\n\r\n".utf8)) {
                let head = String(decoding: pending[..<end.lowerBound], as: UTF8.self)
                let lines = head.components(separatedBy: "\r\n")
                let parts = lines[0].split(separator: " ", maxSplits: 2)
                guard parts.count >= 2, let status = Int(parts[1]) else { throw ConnectionError("not an HTTP reply: \(lines[0])") }
                var headers: [String: String] = [:]
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                let length = Int(headers["content-length"] ?? "0") ?? 0
                while pending.count < end.upperBound + length {
                    try fill(until: deadline)
                }
                let body = String(decoding: pending[end.upperBound..<(end.upperBound + length)], as: UTF8.self)
                pending.removeFirst(end.upperBound + length)
                return HTTPReply(status: status, headers: headers, body: body)
            }
            try fill(until: deadline)
        }
    }

    /// Reads until the text read so far (from the last call on) contains `marker` `count` times; returns it all.
    public func read(until marker: String, count: Int = 1) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while String(decoding: pending, as: UTF8.self).components(separatedBy: marker).count - 1 < count {
            try fill(until: deadline)
        }
        let text = String(decoding: pending, as: UTF8.self)
        pending = []
        return text
    }

    /// True when the server closes the connection within `seconds` (bytes it sends meanwhile are kept).
    public func isClosedByServer(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            do {
                try fill(until: deadline)
            } catch let error as ConnectionError {
                return error.description == "closed by the server"
            } catch {
                return false
            }
        }
    }

    /// What has been read and not yet returned, as text.
    public var unreadText: String { String(decoding: pending, as: UTF8.self) }

    private func fill(until deadline: Date) throws {
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { throw ConnectionError("timed out after \(timeout) s; read so far: \(unreadText.prefix(500))") }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, Int32(remaining * 1000) + 1)
        guard ready > 0 else {
            if ready < 0, errno == EINTR { return }
            throw ConnectionError("timed out after \(timeout) s; read so far: \(unreadText.prefix(500))")
        }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count == 0 { throw ConnectionError("closed by the server") }
        guard count > 0 else { throw ConnectionError("recv: \(String(cString: strerror(errno)))") }
        pending += chunk[..<count]
    }

    /// A failure to connect, send or read.
    public struct ConnectionError: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
        init(_ description: String) { self.description = description }
    }
}
