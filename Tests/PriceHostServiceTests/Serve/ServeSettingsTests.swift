@testable import PriceHostService
@testable import PriceHostCore
import ProviderABI
import Testing

/// The `serve` key of `plugins.json`.
struct ServeSettingsTests {
    let path = "/srv/pricehost/plugins.json"

    func parse(_ serve: String, environment: [String: String] = [:]) throws(ConfigError) -> ServeSettings {
        try ConfigParser.parse(Array(#"{"serve": \#(serve)}"#.utf8), path: path, environment: environment, sections: [ServeSettings.self, SharedSection.self]).serve
    }

    @Test func defaultsWithoutTheKey() throws {
        let settings = try ConfigParser.parse(Array("{}".utf8), path: path, environment: [:], sections: [ServeSettings.self, SharedSection.self]).serve
        #expect(settings == ServeSettings())
        #expect(settings.listen == ListenAddress(host: "127.0.0.1", port: 8480))
        #expect(settings.token == nil)
        #expect(settings.maxConnections == 256)
        #expect(settings.idleTimeoutMilliseconds == 10_000)
        #expect(settings.heartbeatMilliseconds == 15_000)
    }

    @Test func everyKeyIsRead() throws {
        let settings = try parse(#"{"listen": "localhost:9000", "token": "${T}x", "maxConnections": 9, "idleTimeoutSeconds": 0.25, "headerTimeoutSeconds": 2, "heartbeatSeconds": 1.5}"#,
                                 environment: ["T": "abc"])
        #expect(settings.listen == ListenAddress(host: "127.0.0.1", port: 9000))
        #expect(settings.token == "abcx")
        #expect(settings.maxConnections == 9)
        #expect(settings.idleTimeoutMilliseconds == 250)
        #expect(settings.headerTimeoutMilliseconds == 2000)
        #expect(settings.heartbeatMilliseconds == 1500)
    }

    @Test func anUnsetTokenVariableIsKeptAsTheServesProblemNotTheConfigs() throws {
        let settings = try parse(#"{"token": "${PRICEHOST_TOKEN}"}"#)
        #expect(settings.token == nil)
        #expect(settings.tokenProblem?.description == "serve.token: environment variable PRICEHOST_TOKEN is not set")
    }

    @Test(arguments: [
        (#"{"listen": "8480"}"#, #"serve.listen: "8480" is not a listen address; expected IPV4:PORT such as 127.0.0.1:8480 (or localhost:PORT)"#),
        (#"{"maxConnections": 0}"#, "serve.maxConnections: expected a whole number from 1 to 65536, found 0"),
        (#"{"idleTimeoutSeconds": 0.01}"#, "serve.idleTimeoutSeconds: expected a number of seconds from 0.1 to 3600 (at most 3 decimals)"),
        (#"{"heartbeatSeconds": "15"}"#, "serve.heartbeatSeconds: expected a number of seconds from 0.1 to 3600 (at most 3 decimals)"),
        (#"{"lisen": "127.0.0.1:1"}"#, "serve.lisen: unknown key (did you mean listen?); expected one of: listen, token, maxConnections, idleTimeoutSeconds, headerTimeoutSeconds, heartbeatSeconds"),
    ])
    func badValuesNameTheKey(serve: String, reason: String) {
        #expect(throws: ConfigError(path: path, reason: reason)) { try parse(serve) }
    }
}
