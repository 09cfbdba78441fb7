/// Reads RESP2 replies out of the bytes received, however they were cut.
///
/// Strict: a reply type Redis 2 never sends (RESP3's `_`, `,`, `#`, …), a length or
/// integer that is not a plain decimal, a missing CRLF, a line over 64 KiB, a bulk
/// string over ``maximumBulkBytes``, an array over ``maximumElements`` or nested
/// deeper than ``maximumDepth`` is ``Malformed``, and the connection is dropped:
/// after one bad byte nothing that follows can be trusted.
struct RESPParser {
    /// The largest bulk string read (quotes are a few hundred bytes).
    static let maximumBulkBytes = 16 << 20
    /// The most elements in one array.
    static let maximumElements = 1 << 20
    /// The deepest nesting of arrays.
    static let maximumDepth = 16
    /// The longest simple line (status, error, integer, length).
    static let maximumLineBytes = 64 * 1024

    /// Why bytes are not RESP2.
    struct Malformed: Error, Equatable, CustomStringConvertible {
        package var description: String
    }

    private var buffer: [UInt8] = []
    private var start = 0

    /// Adds received bytes.
    package mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// Bytes received and not yet read as a reply.
    var pendingByteCount: Int { buffer.count - start }

    /// The next complete reply, or `nil` until more bytes arrive.
    /// - Throws: ``Malformed``.
    package mutating func next() throws(Malformed) -> RESPValue? {
        var index = start
        guard let value = try Self.value(in: buffer, at: &index, depth: 0) else { return nil }
        start = index
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 64 * 1024 {
            buffer.removeSubrange(..<start)
            start = 0
        }
        return value
    }

    /// Parses one reply from a complete byte string (tests, fuzzing).
    package static func parse(_ bytes: [UInt8]) throws(Malformed) -> RESPValue? {
        var parser = RESPParser()
        parser.append(bytes)
        return try parser.next()
    }

    private static func value(in bytes: [UInt8], at index: inout Int, depth: Int) throws(Malformed) -> RESPValue? {
        guard index < bytes.count else { return nil }
        let type = bytes[index]
        var cursor = index + 1
        guard let line = try line(in: bytes, at: &cursor) else { return nil }
        switch type {
        case UInt8(ascii: "+"):
            index = cursor
            return .simple(String(decoding: line, as: UTF8.self))
        case UInt8(ascii: "-"):
            index = cursor
            return .error(String(decoding: line, as: UTF8.self))
        case UInt8(ascii: ":"):
            guard let number = integer(line) else { throw Malformed(description: "integer reply is not a number: \(printable(line))") }
            index = cursor
            return .integer(number)
        case UInt8(ascii: "$"):
            guard let length = integer(line), length >= -1 else { throw Malformed(description: "bulk length is not a number: \(printable(line))") }
            if length == -1 {
                index = cursor
                return .bulk(nil)
            }
            guard length <= maximumBulkBytes else { throw Malformed(description: "bulk string of \(length) bytes is over the limit of \(maximumBulkBytes)") }
            guard bytes.count - cursor >= length + 2 else { return nil }
            guard bytes[cursor + length] == 13, bytes[cursor + length + 1] == 10 else {
                throw Malformed(description: "bulk string of \(length) bytes is not followed by CRLF")
            }
            index = cursor + length + 2
            return .bulk(Array(bytes[cursor..<(cursor + length)]))
        case UInt8(ascii: "*"):
            guard let count = integer(line), count >= -1 else { throw Malformed(description: "array length is not a number: \(printable(line))") }
            if count == -1 {
                index = cursor
                return .array(nil)
            }
            guard count <= maximumElements else { throw Malformed(description: "array of \(count) elements is over the limit of \(maximumElements)") }
            guard depth < maximumDepth else { throw Malformed(description: "arrays nested deeper than \(maximumDepth)") }
            var elements: [RESPValue] = []
            elements.reserveCapacity(min(count, 1024))
            for _ in 0..<count {
                guard let element = try value(in: bytes, at: &cursor, depth: depth + 1) else { return nil }
                elements.append(element)
            }
            index = cursor
            return .array(elements)
        default:
            throw Malformed(description: "unknown reply type byte \(type) (RESP2 has + - : $ *)")
        }
    }

    /// The bytes up to CRLF from `cursor`, which moves past it; `nil` when the CRLF has not arrived.
    private static func line(in bytes: [UInt8], at cursor: inout Int) throws(Malformed) -> ArraySlice<UInt8>? {
        var end = cursor
        while end < bytes.count {
            if bytes[end] == 13 {
                guard end + 1 < bytes.count else { return nil }
                guard bytes[end + 1] == 10 else { throw Malformed(description: "CR not followed by LF") }
                let line = bytes[cursor..<end]
                cursor = end + 2
                return line
            }
            if bytes[end] == 10 { throw Malformed(description: "LF without CR") }
            end += 1
            if end - cursor > maximumLineBytes { throw Malformed(description: "a line over \(maximumLineBytes) bytes") }
        }
        return nil
    }

    /// A plain decimal: an optional `-`, then 1 to 18 digits.
    private static func integer(_ line: ArraySlice<UInt8>) -> Int? {
        var digits = line[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard (1...18).contains(digits.count) else { return nil }
        var value = 0
        for byte in digits {
            guard (48...57).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return negative ? -value : value
    }

    private static func printable(_ line: ArraySlice<UInt8>) -> String {
        let text = String(decoding: line.prefix(40), as: UTF8.self)
        return "\"" + String(text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? Character($0) : "?" }) + "\""
    }
}
