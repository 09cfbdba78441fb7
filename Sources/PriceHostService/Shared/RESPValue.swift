/// One RESP2 reply from Redis.
enum RESPValue: Sendable, Equatable {
    /// `+OK`.
    case simple(String)
    /// `-ERR …`: Redis refused the command; the text is Redis's own.
    case error(String)
    /// `:42`.
    case integer(Int)
    /// `$N` bytes; `nil` for `$-1`.
    case bulk([UInt8]?)
    /// `*N` replies; `nil` for `*-1`.
    case array([RESPValue]?)

    /// The bulk string as UTF-8 text, when it is one.
    package var text: String? {
        switch self {
        case .bulk(let bytes?): String(validating: bytes, as: UTF8.self)
        case .simple(let text): text
        default: nil
        }
    }
}
