/// Strict, incremental UTF-8 validation (RFC 3629, Unicode's well-formed
/// sequences): overlong forms, surrogates, code points past U+10FFFF, stray
/// continuation bytes and truncated sequences are refused.
///
/// Incremental so that a text message fragmented across frames fails on the
/// first bad fragment (RFC 6455 §8.1 allows failing fast): a sequence may
/// start in one chunk and end in the next.
struct WebSocketUTF8Validator: Sendable {
    /// Continuation bytes still owed by the sequence in progress.
    private var remaining: UInt8 = 0
    /// The range the next continuation byte must fall in (narrower after E0, ED, F0, F4).
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    /// A validator at the start of a text.
    init() {}

    /// Whether the text so far ends on a whole character, as a complete message must.
    var isAtCharacterBoundary: Bool { remaining == 0 }

    /// Whether `bytes` continue the text so far as valid UTF-8 (a sequence may be left open at the end).
    mutating func validate(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        var remaining = self.remaining
        var lower = self.lower
        var upper = self.upper
        while index < count {
            if remaining == 0 {
                // ASCII eight bytes at a time: the common case for JSON.
                while index &+ 8 <= count, base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    index &+= 8
                }
                guard index < count else { break }
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                index &+= 1
                switch byte {
                case 0x00...0x7F: continue
                case 0xC2...0xDF: (remaining, lower, upper) = (1, 0x80, 0xBF)
                case 0xE0: (remaining, lower, upper) = (2, 0xA0, 0xBF)  // not overlong
                case 0xED: (remaining, lower, upper) = (2, 0x80, 0x9F)  // not a surrogate
                case 0xE1...0xEF: (remaining, lower, upper) = (2, 0x80, 0xBF)
                case 0xF0: (remaining, lower, upper) = (3, 0x90, 0xBF)  // not overlong
                case 0xF1...0xF3: (remaining, lower, upper) = (3, 0x80, 0xBF)
                case 0xF4: (remaining, lower, upper) = (3, 0x80, 0x8F)  // not past U+10FFFF
                default: return false  // 80-BF alone, C0-C1 (overlong), F5-FF
                }
            } else {
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                index &+= 1
                guard byte >= lower && byte <= upper else { return false }
                remaining &-= 1
                lower = 0x80
                upper = 0xBF
            }
        }
        self.remaining = remaining
        self.lower = lower
        self.upper = upper
        return true
    }

    /// Whether `bytes` are, on their own, complete and valid UTF-8.
    static func isValid(_ bytes: [UInt8]) -> Bool {
        var validator = WebSocketUTF8Validator()
        return bytes.withUnsafeBytes { validator.validate($0) } && validator.isAtCharacterBoundary
    }
}
