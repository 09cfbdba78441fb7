/// Where the fleet's Redis is: `redis://[[user]:password@]host[:port][/db]`, as `shared.redis` gives it.
///
/// The host is a name or an IPv4 address (no IPv6, no `rediss://`: TLS is not
/// spoken); the port defaults to 6379 and the database to 0. The password may be
/// percent-encoded (`%40` for `@`). ``description`` never shows the password.
struct RedisURL: Sendable, Equatable, CustomStringConvertible {
    /// The host name or IPv4 address.
    var host: String
    /// The TCP port.
    var port: UInt16 = 6379
    /// The database `SELECT`ed after connecting.
    var database = 0
    /// The ACL user (Redis 6 and later); `nil` for the default user.
    var user: String?
    /// The password sent with `AUTH`; `nil` for none.
    var password: String?

    /// Why a text is not a Redis URL: one sentence that says what is accepted.
    struct ParseError: Error, Equatable, CustomStringConvertible {
        package var description: String
    }

    /// A URL from its parts.
    init(host: String, port: UInt16 = 6379, database: Int = 0, user: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.database = database
        self.user = user
        self.password = password
    }

    /// The URL without its password: `redis://:***@127.0.0.1:6379/0`.
    package var description: String {
        var credentials = ""
        if user != nil || password != nil { credentials = "\(user ?? ""):\(password == nil ? "" : "***")@" }
        return "redis://\(credentials)\(host):\(port)/\(database)"
    }

    /// `host:port`, for messages.
    package var address: String { "\(host):\(port)" }

    /// Parses `text`.
    /// - Throws: ``ParseError`` naming what is wrong; it never quotes the password.
    init(parsing text: String) throws(ParseError) {
        let form = "expected redis://[:password@]host[:port][/db], e.g. redis://:${REDIS_PASSWORD}@127.0.0.1:6379/0"
        if text.hasPrefix("rediss://") { throw ParseError(description: "rediss:// (TLS) is not supported; use redis:// to a Redis on this machine or a private network") }
        guard text.hasPrefix("redis://") else { throw ParseError(description: form) }
        var rest = Substring(text.dropFirst("redis://".count))
        guard !rest.contains("?"), !rest.contains("#") else { throw ParseError(description: "query and fragment are not supported; \(form)") }
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            guard let colon = credentials.firstIndex(of: ":") else {
                throw ParseError(description: "the part before @ must be :password or user:password; \(form)")
            }
            let userText = credentials[..<colon]
            guard let password = Self.percentDecoded(credentials[credentials.index(after: colon)...]),
                  let user = Self.percentDecoded(userText) else {
                throw ParseError(description: "bad percent-encoding in the credentials (use %XX, e.g. %40 for @)")
            }
            guard !password.isEmpty else { throw ParseError(description: "the password after : is empty; remove the credentials to connect without one") }
            self.user = user.isEmpty ? nil : user
            self.password = password
        }
        var authority = rest
        if let slash = rest.firstIndex(of: "/") {
            authority = rest[..<slash]
            let path = rest[rest.index(after: slash)...]
            if !path.isEmpty {
                guard path.allSatisfy(\.isASCII), path.allSatisfy(\.isNumber), let database = Int(path), (0...65_535).contains(database) else {
                    throw ParseError(description: "the database after / must be a number from 0 to 65535, found \"\(path)\"")
                }
                self.database = database
            }
        }
        var hostText = authority
        if let colon = authority.lastIndex(of: ":") {
            hostText = authority[..<colon]
            let portText = authority[authority.index(after: colon)...]
            guard portText.allSatisfy({ $0.isASCII && $0.isNumber }), let port = UInt16(portText), port > 0 else {
                throw ParseError(description: "the port must be a number from 1 to 65535, found \"\(portText)\"")
            }
            self.port = port
        }
        guard !hostText.isEmpty else { throw ParseError(description: "no host; \(form)") }
        guard !hostText.contains("["), hostText.utf8.allSatisfy({ Self.isHostByte($0) }) else {
            throw ParseError(description: "the host must be a name or an IPv4 address (letters, digits, '.', '-'), found \"\(hostText)\"")
        }
        host = String(hostText)
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2E || byte == 0x2D || byte == 0x5F
    }

    /// `%XX` decoded; `nil` for a bad escape or invalid UTF-8.
    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == 0x25 else { bytes.append(byte); continue }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
