import PriceHostCore
import ProviderABI

/// What `serve` reads from the `serve` key of `plugins.json`; `--listen` overrides `listen`.
///
/// ```json
/// "serve": {"listen": "127.0.0.1:8480", "token": "${PRICEHOST_TOKEN}", "maxConnections": 256,
///           "idleTimeoutSeconds": 10, "headerTimeoutSeconds": 10, "heartbeatSeconds": 15}
/// ```
package struct ServeSettings: ConfigSection, Equatable {
    /// `listen`: where to accept connections (default `127.0.0.1:8480`).
    package var listen = ListenAddress.default
    /// `token`: when set, every route but `/healthz` needs `Authorization: Bearer TOKEN`. `${VAR}` is substituted.
    package var token: String?
    /// Why `token` could not be read, e.g. its `${VAR}` is not set: `serve` refuses to start
    /// (it must not serve without the token it was given), while other commands, which never
    /// use the token, are not stopped by a secret only the service's environment holds.
    package var tokenProblem: JSONShapeError?
    /// `maxConnections`: connections open at once; one more gets an immediate 503 (1 to 65536; default 256).
    var maxConnections = 256
    /// `idleTimeoutSeconds`: a keep-alive connection with no request for this long is closed (0.1 to 3600; default 10).
    var idleTimeoutMilliseconds = 10_000
    /// `headerTimeoutSeconds`: a request line and headers must arrive within this long, or the connection
    /// is closed with 408 (slowloris) (0.1 to 3600; default 10).
    var headerTimeoutMilliseconds = 10_000
    /// `heartbeatSeconds`: an SSE stream sends a comment line after this long without an event (0.1 to 3600; default 15).
    var heartbeatMilliseconds = 15_000

    /// The keys `serve` takes.
    package static let keys = ["listen", "token", "maxConnections", "idleTimeoutSeconds", "headerTimeoutSeconds", "heartbeatSeconds"]

    package static let key = "serve"

    /// The defaults.
    package init() {}

    package static func read(_ section: JSONCursor, environment: [String: String]) throws(JSONShapeError) -> ServeSettings {
        try ServeSettings(section, environment: environment)
    }

    /// Reads the `serve` object.
    /// - Throws: ``JSONShapeError`` naming the key.
    package init(_ cursor: JSONCursor, environment: [String: String]) throws(JSONShapeError) {
        try cursor.rejectUnknownKeys(allowed: Self.keys)
        if let value = try cursor.optionalMember("listen") {
            let text = try value.string()
            guard let address = ListenAddress(text) else { throw value.error(ListenAddress.rule(text)) }
            listen = address
        }
        if let value = try cursor.optionalMember("token") {
            let text = try value.string()
            do throws(JSONShapeError) {
                let token = try EnvironmentSubstitution.substitute(text, at: value, environment: environment)
                guard !token.isEmpty else { throw value.error("must not be empty (remove the key to serve without a token)") }
                guard token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
                    throw value.error("must be printable ASCII without spaces, as an Authorization header carries it")
                }
                self.token = token
            } catch {
                tokenProblem = error
            }
        }
        if let value = try cursor.optionalMember("maxConnections") { maxConnections = try value.integer(in: 1...65_536) }
        idleTimeoutMilliseconds = try Self.seconds(cursor, "idleTimeoutSeconds") ?? idleTimeoutMilliseconds
        headerTimeoutMilliseconds = try Self.seconds(cursor, "headerTimeoutSeconds") ?? headerTimeoutMilliseconds
        heartbeatMilliseconds = try Self.seconds(cursor, "heartbeatSeconds") ?? heartbeatMilliseconds
    }

    /// A number of seconds from 0.1 to 3600 with up to three decimals, in milliseconds.
    private static func seconds(_ cursor: JSONCursor, _ key: String) throws(JSONShapeError) -> Int? {
        guard let value = try cursor.optionalMember(key) else { return nil }
        guard case .number(let text) = value.value, let milliseconds = Durations.milliseconds(text),
              (100...3_600_000).contains(milliseconds) else {
            throw value.error("expected a number of seconds from 0.1 to 3600 (at most 3 decimals)")
        }
        return milliseconds
    }
}
