@testable import PriceHostService
@testable import PriceHostCore
import ProviderABI
import Testing

/// The `shared` key of `plugins.json`.
struct SharedSettingsTests {
    let path = "/srv/pricehost/plugins.json"

    func parse(_ shared: String, environment: [String: String] = [:]) throws(ConfigError) -> Config {
        try ConfigParser.parse(Array(#"{"shared": \#(shared)}"#.utf8), path: path, environment: environment, sections: [ServeSettings.self, SharedSection.self])
    }

    @Test func absentMeansNoFleet() throws {
        let config = try ConfigParser.parse(Array("{}".utf8), path: path, environment: [:], sections: [ServeSettings.self, SharedSection.self])
        #expect(config.shared == nil && config.sharedProblem == nil)
    }

    @Test func everyKeyIsReadAndThePasswordComesFromTheEnvironment() throws {
        let config = try parse(#"{"redis": "redis://:${REDIS_PASSWORD}@127.0.0.1:6380/1", "connectTimeoutSeconds": 0.25, "commandTimeoutSeconds": 2}"#,
                               environment: ["REDIS_PASSWORD": "p@ss"])
        #expect(config.shared == SharedSettings(redis: RedisURL(host: "127.0.0.1", port: 6380, database: 1, password: "p@ss"),
                                                connectTimeoutMilliseconds: 250, commandTimeoutMilliseconds: 2000))
    }

    @Test func anUnsetPasswordVariableIsServesProblemNotTheConfigs() throws {
        let config = try parse(#"{"redis": "redis://:${REDIS_PASSWORD}@127.0.0.1"}"#)
        #expect(config.shared == nil)
        #expect(config.sharedProblem?.description == "shared.redis: environment variable REDIS_PASSWORD is not set")
    }

    @Test(arguments: [
        (#"{}"#, "/srv/pricehost/plugins.json: shared.redis: missing"),
        (#"{"redis": 6379}"#, "/srv/pricehost/plugins.json: shared.redis: expected a string, found a number"),
        (#"{"redis": "127.0.0.1:6379"}"#, "/srv/pricehost/plugins.json: shared.redis: expected redis://[:password@]host[:port][/db], e.g. redis://:${REDIS_PASSWORD}@127.0.0.1:6379/0"),
        (#"{"redis": "redis://127.0.0.1", "db": 1}"#, "/srv/pricehost/plugins.json: shared.db: unknown key; expected one of: redis, connectTimeoutSeconds, commandTimeoutSeconds"),
        (#"{"redis": "redis://127.0.0.1", "commandTimeoutSeconds": 0}"#, "/srv/pricehost/plugins.json: shared.commandTimeoutSeconds: expected a number of seconds from 0.01 to 60 (at most 3 decimals)"),
        (#""redis://127.0.0.1""#, "/srv/pricehost/plugins.json: shared: expected an object, found a string"),
    ])
    func badSettingsNameTheKey(shared: String, message: String) {
        #expect(throws: ConfigError(path: path, reason: String(message.dropFirst(path.count + 2)))) { try parse(shared) }
    }
}
