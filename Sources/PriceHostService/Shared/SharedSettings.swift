import PriceHostCore
import ProviderABI

/// The `shared` key of `plugins.json`: the Redis that a fleet of `serve` instances
/// shares its cache, coalescing and request budgets through.
///
/// ```json
/// "shared": {"redis": "redis://:${REDIS_PASSWORD}@127.0.0.1:6379/0", "connectTimeoutSeconds": 1, "commandTimeoutSeconds": 0.5}
/// ```
package struct SharedSettings: Sendable, Equatable {
    /// `redis`: where Redis is (`${VAR}` is substituted, for the password).
    var redis: RedisURL
    /// `connectTimeoutSeconds`: the longest a connection attempt takes (0.01 to 60; default 1).
    var connectTimeoutMilliseconds = 1000
    /// `commandTimeoutSeconds`: the longest one round trip takes before the instance works alone (0.01 to 60; default 0.5).
    var commandTimeoutMilliseconds = 500

    /// The keys `shared` takes.
    package static let keys = ["redis", "connectTimeoutSeconds", "commandTimeoutSeconds"]

    /// Reads the `shared` object. An unset `${VAR}` in `redis` is returned as the problem
    /// instead, for `serve` to refuse: other commands never use Redis, so a secret that only the
    /// service's environment holds must not stop them.
    /// - Throws: ``JSONShapeError`` naming the key: a missing `redis`, a URL that is not one, a bad timeout.
    package static func read(_ cursor: JSONCursor, environment: [String: String]) throws(JSONShapeError) -> Result<SharedSettings, JSONShapeError> {
        try cursor.rejectUnknownKeys(allowed: keys)
        let value = try cursor.member("redis")
        let text = try value.string()
        let substituted: String
        do throws(JSONShapeError) {
            substituted = try EnvironmentSubstitution.substitute(text, at: value, environment: environment)
        } catch {
            return .failure(error)
        }
        var settings: SharedSettings
        do throws(RedisURL.ParseError) {
            settings = SharedSettings(redis: try RedisURL(parsing: substituted))
        } catch {
            throw value.error(error.description)
        }
        if let milliseconds = try seconds(cursor, "connectTimeoutSeconds") { settings.connectTimeoutMilliseconds = milliseconds }
        if let milliseconds = try seconds(cursor, "commandTimeoutSeconds") { settings.commandTimeoutMilliseconds = milliseconds }
        return .success(settings)
    }

    private static func seconds(_ cursor: JSONCursor, _ key: String) throws(JSONShapeError) -> Int? {
        guard let value = try cursor.optionalMember(key) else { return nil }
        guard case .number(let text) = value.value, let milliseconds = Durations.milliseconds(text), (10...60_000).contains(milliseconds) else {
            throw value.error("expected a number of seconds from 0.01 to 60 (at most 3 decimals)")
        }
        return milliseconds
    }
}
