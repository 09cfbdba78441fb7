/// A `postgres://` (or `postgresql://`) URL as libpq takes it, and what of it may be printed.
///
/// `postgres://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=require&…`: libpq reads it whole (hosts, port,
/// percent-escapes and every query parameter, `sslmode` among them). Only ``redacted`` is ever printed:
/// the scheme, user, hosts and database, never the password (nor the query, which may hold one).
package struct PostgresURL: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The URL as written, password and all: for libpq alone.
    let text: String
    /// `postgres://USER@HOST:PORT/DATABASE`: what messages, `/readyz` and errors name.
    package let redacted: String
    /// The password as written in the URL's user part, for scrubbing messages; `nil` without one.
    private let password: Substring?

    /// The URL's parts, or why it is not one.
    package init(_ text: String) throws(Invalid) {
        guard let scheme = ["postgres://", "postgresql://"].first(where: text.hasPrefix) else {
            throw Invalid("expected postgres://USER:PASSWORD@HOST:PORT/DATABASE")
        }
        guard !text.utf8.contains(0) else { throw Invalid("the URL holds a NUL byte") }
        let rest = text.dropFirst(scheme.count)
        let beforeQuery = rest.prefix { $0 != "?" }
        let authorityEnd = beforeQuery.firstIndex(of: "/") ?? beforeQuery.endIndex
        let authority = beforeQuery[..<authorityEnd]
        let database = beforeQuery[authorityEnd...]
        var hosts = authority
        var user: Substring = ""
        var password: Substring?
        // The last '@' ends the user part: a password may hold an unescaped '@', a host never does.
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            hosts = authority[authority.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                user = userInfo[..<colon]
                password = userInfo[userInfo.index(after: colon)...]
            } else {
                user = userInfo
            }
        }
        self.text = text
        self.password = password
        redacted = "postgres://" + (user.isEmpty ? "" : user + "@") + hosts + database
    }

    package var description: String { redacted }
    package var debugDescription: String { redacted }

    /// `message` with the password taken out wherever it appears (libpq does not print it; this makes sure).
    /// Passwords shorter than 4 characters are left to libpq: scrubbing them would garble every message.
    package func scrubbed(_ message: String) -> String {
        guard let password, password.count >= 4 else { return message }
        return message.replacing(password, with: "***")
    }

    /// Why a URL is not a PostgreSQL one; the text never holds the URL itself.
    package struct Invalid: Error, CustomStringConvertible, Sendable, Equatable {
        package var description: String
        init(_ description: String) { self.description = description }
    }
}
