/// A strict RFC 8259 parser: no comments, no trailing commas, no duplicate
/// keys, no control characters in strings, nesting at most ``maximumDepth``.
public struct JSONParser {
    /// Deeper nesting is rejected instead of overflowing the stack.
    public static let maximumDepth = 256

    private let bytes: [UInt8]
    /// Where the text starts: after a UTF-8 byte order mark, if any.
    private let start: Int
    private var index = 0
    private var depth = 0

    /// Parses one JSON document (surrounding white space allowed).
    /// - Throws: ``JSONParseError`` naming the line and column.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// Parses one JSON document from UTF-8 bytes.
    /// - Throws: ``JSONParseError`` naming the line and column.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        index = start
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard let byte = current else {
            throw error(depth == 0 ? "the text is empty, expected a JSON value" : "unexpected end of input, expected a value")
        }
        switch byte {
        case UInt8(ascii: "{"): return try nested { (parser: inout JSONParser) throws(JSONParseError) in try parser.parseObject() }
        case UInt8(ascii: "["): return try nested { (parser: inout JSONParser) throws(JSONParseError) in try parser.parseArray() }
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected \(describe(byte)), expected a value")
        }
    }

    private mutating func nested(_ body: (inout JSONParser) throws(JSONParseError) -> JSONValue) throws(JSONParseError) -> JSONValue {
        guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        depth += 1
        defer { depth -= 1 }
        return try body(&self)
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        index += 1  // {
        var object = JSONObject()
        skipWhitespace()
        if current == UInt8(ascii: "}") { index += 1; return .object(object) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                throw error(current == nil ? "unexpected end of input inside an object" : "expected a string key, found \(describe(current))")
            }
            let keyStart = index
            let key = try parseString()
            guard object[key] == nil else {
                index = keyStart
                throw error("duplicate key \"\(key)\"")
            }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\", found \(describe(current))") }
            index += 1
            skipWhitespace()
            object[key] = try parseValue()
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(object)
            default: throw error("expected ',' or '}' after an object member, found \(describe(current))")
            }
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw error("expected ',' or ']' after an array element, found \(describe(current))")
            }
        }
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        var runStart = index
        // Most strings have no escape: made from their bytes in one step, validated once (ASCII needs no validating).
        var ascii = true
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 {
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        if current == UInt8(ascii: "\"") {
            let text: String
            if ascii {
                text = bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[runStart..<index]), as: UTF8.self) }
            } else {
                guard let valid = String(validating: bytes[runStart..<index], as: UTF8.self) else { throw error("invalid UTF-8 in a string") }
                text = valid
            }
            index += 1
            return text
        }
        var scalars = String.UnicodeScalarView()
        func flushRun(_ parser: JSONParser, upTo end: Int) throws(JSONParseError) {
            guard runStart < end else { return }
            guard let text = String(validating: parser.bytes[runStart..<end], as: UTF8.self) else {
                throw parser.error("invalid UTF-8 in a string")
            }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while true {
            guard let byte = current else { throw error("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                try flushRun(self, upTo: index)
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                try flushRun(self, upTo: index)
                index += 1
                scalars.append(try parseEscape())
                runStart = index
            case 0..<0x20:
                let hex = String(byte, radix: 16, uppercase: true)
                throw error("control character U+\(String(repeating: "0", count: 4 - hex.count))\(hex) in a string; escape it")
            default:
                index += 1
            }
        }
    }

    private mutating func parseEscape() throws(JSONParseError) -> Unicode.Scalar {
        guard let byte = current else { throw error("unterminated escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHex4()
            if (0xD800...0xDBFF).contains(high) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("lone high surrogate \\u\(String(high, radix: 16, uppercase: true))")
                }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid low surrogate") }
                let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                guard let scalar = Unicode.Scalar(value) else { throw error("invalid surrogate pair") }
                return scalar
            }
            guard let scalar = Unicode.Scalar(high) else { throw error("lone low surrogate") }
            return scalar
        default:
            index -= 1
            let shown = byte >= 0x21 && byte < 0x7F ? String(Character(Unicode.Scalar(byte))) : describe(byte)
            throw error("invalid escape '\\\(shown)'")
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current else { throw error("unterminated \\u escape") }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("expected a hex digit in \\u escape, found \(describe(byte))")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONParseError) -> String {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, isDigit(first) else { throw error("expected a digit after '-'") }
        index += 1
        if first == UInt8(ascii: "0"), let next = current, isDigit(next) { throw error("leading zero in a number") }
        skipDigits()
        if current == UInt8(ascii: ".") {
            index += 1
            guard let next = current, isDigit(next) else { throw error("expected a digit after '.'") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let next = current, isDigit(next) else { throw error("expected a digit in the exponent") }
            skipDigits()
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func skipDigits() {
        while let byte = current, isDigit(byte) { index += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func expectWord(_ word: StaticString) throws(JSONParseError) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for byte in expected {
            guard current == byte else { throw error("invalid literal, expected '\(word)'") }
            index += 1
        }
    }

    private mutating func skipWhitespace() {
        while let byte = current,
              byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") {
            index += 1
        }
    }

    private func describe(_ byte: UInt8?) -> String {
        guard let byte else { return "end of input" }
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private func error(_ reason: String) -> JSONParseError {
        var line = 1
        var lineStart = start
        let end = Swift.min(index, bytes.count)
        for position in start..<Swift.max(start, end) where bytes[position] == UInt8(ascii: "\n") {
            line += 1
            lineStart = position + 1
        }
        return JSONParseError(line: line, column: end - lineStart + 1, reason: reason)
    }
}
