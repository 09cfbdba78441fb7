/// RESP2 on the wire: commands out as arrays of bulk strings, replies in.
enum RESP {
    /// `*N\r\n` then `$len\r\narg\r\n` per argument: how every command is sent
    /// (binary-safe, so a value is never quoted or escaped).
    package static func command(_ arguments: [String]) -> [UInt8] {
        command(arguments.map { Array($0.utf8) })
    }

    /// A command of raw arguments.
    package static func command(_ arguments: [[UInt8]]) -> [UInt8] {
        var bytes = Array("*\(arguments.count)\r\n".utf8)
        for argument in arguments {
            bytes += Array("$\(argument.count)\r\n".utf8)
            bytes += argument
            bytes += [13, 10]
        }
        return bytes
    }
}
