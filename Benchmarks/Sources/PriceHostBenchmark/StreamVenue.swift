import Foundation
import Glibc
import Synchronization

/// A Coinbase-shaped WebSocket venue on 127.0.0.1, inside the benchmark process, for the
/// stream case: it accepts a connection, answers the upgrade (RFC 6455 §4.2.2, with
/// `Sec-WebSocket-Accept` = base64(SHA-1(key + GUID))), reads the client's masked
/// `subscribe` frame, acknowledges it as Coinbase does, and from then on the case
/// writes unmasked text frames to it (``VenueConnection``). Whatever the client sends
/// later is read and dropped on a thread of its own.
final class StreamVenue: Sendable {
    let port: UInt16
    private let listener: Int32

    var url: String { "ws://127.0.0.1:\(port)/" }

    /// Listens on an ephemeral port of 127.0.0.1.
    init() throws {
        guard WebSocketAccept.value(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=" else {
            throw BenchmarkError("stream venue: the Sec-WebSocket-Accept of RFC 6455's example key came out wrong")
        }
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw BenchmarkError("stream venue: socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound, listen(descriptor, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw BenchmarkError("stream venue: cannot listen on 127.0.0.1: \(reason)")
        }
        listener = descriptor
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(listener) }

    /// Waits at most `seconds` for the feed to connect, upgrades the connection and reads its subscription.
    func accept(within seconds: Double) throws -> VenueConnection {
        guard let connection = try acceptIfConnecting(within: seconds) else {
            throw BenchmarkError("stream venue: pricehost did not connect to \(url) within \(Int(seconds)) s")
        }
        return connection
    }

    /// As ``accept(within:)``, but `nil` when nothing connected within `seconds` (``FleetVenue`` asks again).
    func acceptIfConnecting(within seconds: Double) throws -> VenueConnection? {
        var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, Int32(seconds * 1000)) == 1 else { return nil }
        let descriptor = Glibc.accept(listener, nil, nil)
        guard descriptor >= 0 else { throw BenchmarkError("stream venue: accept: \(String(cString: strerror(errno)))") }
        return try VenueConnection(upgrading: descriptor)
    }
}

/// One upgraded connection of the venue: the case writes frames to it; a thread reads what the client sends and drops it.
final class VenueConnection: TickerSink, Sendable {
    private let descriptor: Int32
    /// The client's subscribe message.
    let subscription: String
    private let drained = DispatchSemaphore(value: 0)
    private let ended = Atomic<Bool>(false)

    /// Whether the client is still connected: false once its reader saw the connection end.
    var isOpen: Bool { !ended.load(ordering: .acquiring) }

    fileprivate init(upgrading descriptor: Int32) throws {
        self.descriptor = descriptor
        var yes: Int32 = 1
        // Each frame goes out when written: the latency measured starts at the write.
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var reader = FrameReader(descriptor: descriptor)
        do {
            let head = try reader.head()
            guard let key = Self.header("sec-websocket-key", in: head) else {
                throw BenchmarkError("stream venue: the upgrade request has no Sec-WebSocket-Key:\n\(head)")
            }
            let answer = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: \(WebSocketAccept.value(for: key))\r\n\r\n"
            guard Self.sendAll(descriptor, Array(answer.utf8)) else { throw BenchmarkError("stream venue: the client left during the upgrade") }
            subscription = try reader.textFrame()
            guard subscription.contains(#""type":"subscribe""#), subscription.contains("BTC-USD") else {
                throw BenchmarkError("stream venue: the first message was not a subscribe to BTC-USD: \(subscription)")
            }
            let acknowledgement = #"{"type":"subscriptions","channels":[{"name":"heartbeat","product_ids":["BTC-USD"]},{"name":"ticker","product_ids":["BTC-USD"]}]}"#
            guard Self.sendAll(descriptor, TickerFrames.frame(Array(acknowledgement.utf8))) else {
                throw BenchmarkError("stream venue: the client left after subscribing")
            }
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        // Reads on (a close frame, a ping) until the connection ends, so the client never waits on its writes.
        Thread.detachNewThread { [self] in
            var sink = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = sink.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                // The client's close frame (pricehost stopping) is answered at once, with a close frame without a code.
                if count > 0, sink[0] == 0x88 { _ = Self.sendAll(descriptor, [0x88, 0x00]) }
                if count > 0 || (count < 0 && (errno == EINTR || errno == EAGAIN)) { continue }
                break
            }
            ended.store(true, ordering: .releasing)
            drained.signal()
        }
    }

    /// Writes `bytes` (whole frames), blocking until the socket took them all; false when the client left.
    func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = Glibc.send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Ends the connection (after pricehost was stopped) and waits for its reader.
    func close() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        drained.wait()
        Glibc.close(descriptor)
    }

    private static func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// The value of header `name` (lower case) in an HTTP head.
    private static func header(_ name: String, in head: String) -> String? {
        for line in head.split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == name else { continue }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return nil
    }
}

/// Reads the upgrade request and the client's frames from a blocking socket (with a receive timeout).
private struct FrameReader {
    let descriptor: Int32
    var pending: [UInt8] = []

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Reads until `pending` holds at least `count` bytes.
    mutating func fill(_ count: Int) throws {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while pending.count < count {
            let read = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { throw BenchmarkError("stream venue: the client sent nothing more (\(read < 0 ? String(cString: strerror(errno)) : "it closed"))") }
            pending += chunk[..<read]
        }
    }

    /// The request head, up to its blank line.
    mutating func head() throws -> String {
        let end = Array("\r\n\r\n".utf8)
        while true {
            if let range = pending.firstRange(of: end) {
                let text = String(decoding: pending[..<range.upperBound], as: UTF8.self)
                pending.removeFirst(range.upperBound)
                return text
            }
            guard pending.count < 16_384 else { throw BenchmarkError("stream venue: an upgrade request over 16 KiB") }
            try fill(pending.count + 1)
        }
    }

    /// The next text message: control frames before it are skipped; a client frame must be masked (RFC 6455 §5.1).
    mutating func textFrame() throws -> String {
        while true {
            try fill(2)
            let opcode = pending[0] & 0x0F
            guard pending[0] & 0x80 != 0, pending[1] & 0x80 != 0 else {
                throw BenchmarkError("stream venue: the client sent a fragmented or unmasked frame")
            }
            var length = Int(pending[1] & 0x7F)
            var offset = 2
            if length == 126 {
                try fill(4)
                length = Int(pending[2]) << 8 | Int(pending[3])
                offset = 4
            } else if length == 127 {
                try fill(10)
                length = (2..<10).reduce(0) { $0 << 8 | Int(pending[$1]) }
                offset = 10
            }
            guard length <= 1 << 20 else { throw BenchmarkError("stream venue: a client frame of \(length) bytes") }
            try fill(offset + 4 + length)
            let mask = Array(pending[offset..<(offset + 4)])
            let payload = (0..<length).map { pending[offset + 4 + $0] ^ mask[$0 % 4] }
            pending.removeFirst(offset + 4 + length)
            if opcode == 0x1 { return String(decoding: payload, as: UTF8.self) }
            guard opcode >= 0x8 else { throw BenchmarkError("stream venue: the client sent a frame of opcode \(opcode) before its subscribe") }
        }
    }
}

/// `Sec-WebSocket-Accept` for a `Sec-WebSocket-Key`: base64(SHA-1(key + the GUID of RFC 6455)).
enum WebSocketAccept {
    static func value(for key: String) -> String {
        Data(sha1(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
    }

    /// SHA-1 (FIPS 180-4 §6.1), enough for a handshake: short messages, not speed.
    static func sha1(_ message: [UInt8]) -> [UInt8] {
        var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var padded = message + [0x80]
        padded += [UInt8](repeating: 0, count: (120 - padded.count % 64) % 64)
        padded += (0..<8).map { UInt8(truncatingIfNeeded: (UInt64(message.count) * 8) >> (56 - 8 * UInt64($0))) }
        var words = [UInt32](repeating: 0, count: 80)
        for block in stride(from: 0, to: padded.count, by: 64) {
            for index in 0..<16 {
                words[index] = (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(padded[block + 4 * index + $1]) }
            }
            for index in 16..<80 {
                let mixed = words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16]
                words[index] = mixed << 1 | mixed >> 31
            }
            var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
            for index in 0..<80 {
                let (function, constant): (UInt32, UInt32) = switch index {
                case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (b ^ c ^ d, 0xCA62_C1D6)
                }
                let next = (a << 5 | a >> 27) &+ function &+ e &+ constant &+ words[index]
                (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, next)
            }
            state[0] &+= a
            state[1] &+= b
            state[2] &+= c
            state[3] &+= d
            state[4] &+= e
        }
        return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) } }
    }
}

/// Coinbase `ticker` messages as server frames, made by patching the digits of one
/// template in place: ticker n carries `sequence` 100000000000+n, `trade_id`
/// 1000000000+n and `price` `64000.nnnnnnnn` (n in the 8 decimals), which is how the
/// SSE client tells which ticker an event came from. Every ticker has the same `time`
/// (the case's start); their prices all differ, so the host emits each (a ticker is
/// dropped only when older than the last, or an exact repeat).
struct TickerFrames {
    /// The most tickers one run can number.
    static let capacity = 100_000_000

    private(set) var frame: [UInt8]
    private let sequenceOffset: Int
    private let tradeOffset: Int
    private let priceOffset: Int

    init(time: Date = Date()) {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        // Coinbase writes microseconds: 2026-11-20T12:00:00.283114Z.
        let written = formatter.string(from: time).replacingOccurrences(of: "Z", with: "114Z")
        let payload = #"{"type":"ticker","sequence":@@@@@@@@@@@@,"product_id":"BTC-USD","price":"64000.########","open_24h":"63210.45","volume_24h":"8123.45678901","low_24h":"62980.00","high_24h":"64512.77","volume_30d":"301245.98765432","best_bid":"64000.09","best_bid_size":"0.41002311","best_ask":"64000.10","best_ask_size":"0.02011870","side":"buy","time":"\#(written)","trade_id":%%%%%%%%%%,"last_size":"0.00512000"}"#
        let template = Self.frame(Array(payload.utf8))
        func offset(of marker: String) -> Int { template.firstRange(of: Array(marker.utf8))!.lowerBound }
        frame = template
        sequenceOffset = offset(of: "@@@@")
        tradeOffset = offset(of: "%%%%")
        priceOffset = offset(of: "####")
        stamp(0)
    }

    /// Makes `frame` ticker `number`.
    mutating func stamp(_ number: Int) {
        Self.write(100_000_000_000 + number, width: 12, at: sequenceOffset, in: &frame)
        Self.write(1_000_000_000 + number, width: 10, at: tradeOffset, in: &frame)
        Self.write(number, width: 8, at: priceOffset, in: &frame)
    }

    /// Appends ticker `number` to `buffer`.
    mutating func append(_ number: Int, to buffer: inout [UInt8]) {
        stamp(number)
        buffer += frame
    }

    private static func write(_ value: Int, width: Int, at offset: Int, in bytes: inout [UInt8]) {
        var rest = value
        for index in stride(from: offset + width - 1, through: offset, by: -1) {
            bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }

    /// An unmasked, final text frame (RFC 6455 §5.2) carrying `payload`.
    static func frame(_ payload: [UInt8]) -> [UInt8] {
        let count = payload.count
        let head: [UInt8] = switch count {
        case ..<126: [0x81, UInt8(count)]
        case ..<65_536: [0x81, 126, UInt8(count >> 8), UInt8(count & 0xFF)]
        default: [0x81, 127] + (0..<8).map { UInt8(truncatingIfNeeded: UInt64(count) >> (56 - 8 * UInt64($0))) }
        }
        return head + payload
    }

    /// The ticker number in an event's amount, `64000.nnnnnnnn` (trailing zeros, and a dot
    /// with nothing after it, may be gone: ticker 0 is `64000`).
    static func number(inAmount bytes: UnsafeRawBufferPointer) -> Int {
        guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")) else { return 0 }
        var value = 0
        var digits = 0
        for byte in bytes[(dot + 1)...] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 8 else { break }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        for _ in digits..<8 { value *= 10 }
        return value
    }
}
