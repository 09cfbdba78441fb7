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
    var text: String? {
        switch self {
        case .bulk(let bytes?): String(validating: bytes, as: UTF8.self)
        case .simple(let text): text
        default: nil
        }
    }
}

/// RESP2 on the wire: commands out as arrays of bulk strings, replies in.
enum RESP {
    /// `*N\r\n` then `$len\r\narg\r\n` per argument: how every command is sent
    /// (binary-safe, so a value is never quoted or escaped).
    static func command(_ arguments: [String]) -> [UInt8] {
        command(arguments.map { Array($0.utf8) })
    }

    /// A command of raw arguments.
    static func command(_ arguments: [[UInt8]]) -> [UInt8] {
        var bytes = Array("*\(arguments.count)\r\n".utf8)
        for argument in arguments {
            bytes += Array("$\(argument.count)\r\n".utf8)
            bytes += argument
            bytes += [13, 10]
        }
        return bytes
    }
}
