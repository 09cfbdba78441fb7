/// ``JSONFields``'s one pass: checks JSON text by ``JSONParser``'s rules and notes where the
/// top-level object's members are, making no value. What it accepts, the parser accepts
/// (`JSONFieldsTests` holds the two to it on mutated documents); a string with escapes is decoded by the
/// parser, only when asked for, so escapes have one decoder.
struct JSONScanner {
    /// The text, valid while the scanner is used (its owner's `withUTF8`).
    let bytes: UnsafeBufferPointer<UInt8>
    private var index: Int
    private var depth = 0
    /// Past this many members, an object's keys are checked for duplicates through a set.
    private static let scannedKeys = 32

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// The members of the document's object; `nil` when the text is not JSON, or its value is not an object.
    mutating func scanDocument() -> [JSONFields.Member]? {
        skipWhitespace()
        guard current == UInt8(ascii: "{"), let members = scanObject() else { return nil }
        skipWhitespace()
        return index == bytes.count ? members : nil
    }

    private mutating func scanValue() -> JSONFields.Kind? {
        guard let byte = current else { return nil }
        switch byte {
        case UInt8(ascii: "{"): return scanObject() == nil ? nil : .other
        case UInt8(ascii: "["): return scanArray() ? .other : nil
        case UInt8(ascii: "\""): return scanString().map { .string(escaped: $0) }
        case UInt8(ascii: "t"): return word("true") ? .other : nil
        case UInt8(ascii: "f"): return word("false") ? .other : nil
        case UInt8(ascii: "n"): return word("null") ? .other : nil
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return scanNumber() ? .number : nil
        default: return nil
        }
    }

    private mutating func scanObject() -> [JSONFields.Member]? {
        guard depth < JSONParser.maximumDepth else { return nil }
        depth += 1
        defer { depth -= 1 }
        index += 1  // {
        var members: [JSONFields.Member] = []
        // The document's own members are the ones kept: room for a feed message's (a Coinbase ticker has 18) at once.
        if depth == 1 { members.reserveCapacity(24) }
        var keySet: Set<[UInt8]>?
        skipWhitespace()
        if current == UInt8(ascii: "}") { index += 1; return members }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { return nil }
            let keyStart = index
            guard let escaped = scanString() else { return nil }
            let key = (keyStart + 1)..<(index - 1)
            var decodedKey: [UInt8]?
            if escaped {
                guard case .string(let text)? = try? JSONParser.parse(Array(bytes[keyStart..<index])) else { return nil }
                decodedKey = Array(text.utf8)
            }
            let fingerprint = decodedKey.map(Self.fingerprint) ?? Self.fingerprint(bytes[key])
            if keySet == nil, members.count >= Self.scannedKeys {
                keySet = Set(members.map { $0.decodedKey ?? Array(bytes[$0.key]) })
            }
            if keySet != nil {
                guard keySet?.insert(decodedKey ?? Array(bytes[key])).inserted == true else { return nil }
            } else if members.contains(where: { $0.fingerprint == fingerprint && sameKey($0, key, decodedKey) }) {
                return nil
            }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { return nil }
            index += 1
            skipWhitespace()
            let valueStart = index
            guard let kind = scanValue() else { return nil }
            members.append(JSONFields.Member(key: key, decodedKey: decodedKey, fingerprint: fingerprint, value: valueStart..<index, kind: kind))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return members
            default: return nil
            }
        }
    }

    /// A key's length and its first and last bytes: keys that differ in them are not compared byte by byte
    /// (each key is checked against all before it: for a ticker's 18, 153 comparisons).
    private static func fingerprint<Key: BidirectionalCollection<UInt8>>(_ key: Key) -> UInt32 {
        guard let first = key.first, let last = key.last else { return 0 }
        return UInt32(truncatingIfNeeded: key.count) & 0xFFFF | UInt32(first) << 16 | UInt32(last) << 24
    }

    private func sameKey(_ member: JSONFields.Member, _ key: Range<Int>, _ decodedKey: [UInt8]?) -> Bool {
        switch (member.decodedKey, decodedKey) {
        case (nil, nil): member.key.count == key.count && bytes[member.key].elementsEqual(bytes[key])
        case (let decoded?, nil): decoded.elementsEqual(bytes[key])
        case (nil, let decoded?): decoded.elementsEqual(bytes[member.key])
        case (let left?, let right?): left == right
        }
    }

    private mutating func scanArray() -> Bool {
        guard depth < JSONParser.maximumDepth else { return false }
        depth += 1
        defer { depth -= 1 }
        index += 1  // [
        skipWhitespace()
        if current == UInt8(ascii: "]") { index += 1; return true }
        while true {
            skipWhitespace()
            guard scanValue() != nil else { return false }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return true
            default: return false
            }
        }
    }

    /// Past a string; whether it has escapes, or `nil` when it breaks the rules.
    private mutating func scanString() -> Bool? {
        index += 1  // opening quote
        var escaped = false
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return escaped
            case UInt8(ascii: "\\"):
                escaped = true
                index += 1
                guard scanEscape() else { return nil }
            case 0..<0x20:
                return nil
            default:
                index += 1
            }
        }
        return nil
    }

    /// The escape after a backslash, surrogates paired as ``JSONParser`` pairs them.
    private mutating func scanEscape() -> Bool {
        guard let byte = current else { return false }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return true
        case UInt8(ascii: "u"):
            guard let high = hex4() else { return false }
            if (0xD800...0xDBFF).contains(high) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else { return false }
                index += 2
                guard let low = hex4() else { return false }
                return (0xDC00...0xDFFF).contains(low)
            }
            return !(0xDC00...0xDFFF).contains(high)
        default:
            return false
        }
    }

    private mutating func hex4() -> UInt32? {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = JSONScanner.hexDigit(byte) else { return nil }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private mutating func scanNumber() -> Bool {
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, isDigit(first) else { return false }
        index += 1
        if first == UInt8(ascii: "0"), let next = current, isDigit(next) { return false }
        skipDigits()
        if current == UInt8(ascii: ".") {
            index += 1
            guard let next = current, isDigit(next) else { return false }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let next = current, isDigit(next) else { return false }
            skipDigits()
        }
        return true
    }

    private mutating func skipDigits() {
        while let byte = current, isDigit(byte) { index += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func word(_ word: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for byte in expected {
            guard current == byte else { return false }
            index += 1
        }
        return true
    }

    private mutating func skipWhitespace() {
        while let byte = current,
              byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") {
            index += 1
        }
    }
}
