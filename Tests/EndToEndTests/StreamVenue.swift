import Foundation
import PriceHostTesting
import Testing

/// A loopback venue for the stream tests: `Fixtures/streams/venue_server.py`, Python's
/// `websockets` (a real server) playing a script of steps per connection (see the script's
/// header), over `ws://` or, with certificates, `wss://`.
struct StreamVenue {
    static let directory = BuiltProducts.packageRoot + "/Tests/EndToEndTests/Fixtures/streams"
    static let script = directory + "/venue_server.py"

    /// One step of a connection's script.
    enum Step {
        case waitMessage
        case send(String)
        case play(String, every: Double)
        case fragments([String])
        case sleep(Double)
        /// Waits (at most 30 s) until the file at the path exists: the test's signal that what it waited for happened.
        case waitFile(String)
        case close(Int, String)
        case drop
        case raw(String)
        case pings(Int)
        case big(Int)
        case hold
        /// `count` messages, `rate` a second: `text` with `SEQ`, `PRICE` and `TIME` replaced by the message's
        /// number n (from 1), 50000 + n, and the time it is sent (ISO 8601, UTC, ms); each logged `SENT <n> <unix ms>`.
        case flood(String, count: Int, rate: Int)

        var json: Any {
            switch self {
            case .waitMessage: ["wait_message"]
            case .send(let text): ["send", text]
            case .play(let file, let seconds): ["play", file, seconds]
            case .fragments(let parts): ["fragments", parts]
            case .sleep(let seconds): ["sleep", seconds]
            case .waitFile(let path): ["wait_file", path]
            case .close(let code, let reason): ["close", code, reason]
            case .drop: ["drop"]
            case .raw(let hex): ["raw", hex]
            case .pings(let count): ["pings", count]
            case .big(let bytes): ["big", bytes]
            case .hold: ["hold"]
            case .flood(let text, let count, let rate): ["flood", text, count, rate]
            }
        }
    }

    let server: PythonFixtureServer
    let files: TemporaryDirectory

    /// True when Python's `websockets` is installed; otherwise prints why `test` skips.
    static func available(for test: String) async -> Bool {
        await PythonFixtureServer.available(for: test)
    }

    /// Starts the venue: connection n plays `connections[n - 1]` (the last list for later ones).
    /// - Parameter certificates: a directory with server.pem and server.key, for `wss://`.
    static func start(_ connections: [[Step]], certificates: TemporaryDirectory? = nil) async throws -> StreamVenue {
        let files = try TemporaryDirectory(prefix: "pricehost-venue")
        let script = try JSONSerialization.data(withJSONObject: ["connections": connections.map { $0.map(\.json) }])
        let scriptPath = try files.write(script, to: "script.json")
        // The recorded feeds sit beside the server script, which plays them by name.
        var arguments = [scriptPath]
        if let certificates { arguments += [certificates.file("server.pem"), certificates.file("server.key")] }
        do {
            return StreamVenue(server: try await PythonFixtureServer.start(script: Self.script, arguments), files: files)
        } catch {
            files.remove()
            throw error
        }
    }

    /// `ws://127.0.0.1:PORT/PATH` (`wss://` when `secure`).
    func url(secure: Bool = false, path: String = "/") -> String { server.url(secure: secure, path: path) }

    /// How many connections the venue accepted so far.
    var connections: Int { server.lines(startingWith: "CONNECTED ").count }

    /// The messages the client sent, in order: `(connection, text)`.
    var received: [(Int, String)] {
        server.lines(startingWith: "RECEIVED ").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 2)
            guard parts.count == 3, let number = Int(parts[1]) else { return nil }
            return (number, String(parts[2]))
        }
    }

    /// Ends the server and removes its files.
    func stop() {
        server.stop()
        files.remove()
    }
}

/// A sandbox whose config streams `provider` from `venue` (its `streamURL`), and runs `pricehost` there.
struct StreamSandbox {
    let sandbox: Sandbox

    /// - Parameters:
    ///   - settings: more members of the provider's settings, each after a comma.
    ///   - restURL: the provider's REST `baseURL` (a loopback server), for the fallback.
    init(provider: String, plugin: String, streamURL: String, restURL: String = "http://127.0.0.1:9", settings: String = "") throws {
        sandbox = try Sandbox(config: """
            {
              "plugins": ["\(plugin)"],
              "providers": {
                "\(provider)": {"baseURL": "\(restURL)", "streamURL": "\(streamURL)", "stream": true,
                               "timeoutSeconds": 2, "maxAttempts": 1\(settings)}
              },
              "defaults": {"provider": "\(provider)"}
            }
            """)
    }

    /// `pricehost watch --stream ARGUMENTS`, off the cooperative pool; killed after `timeout` seconds.
    func watch(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 30) async throws -> CommandResult {
        let sandbox = sandbox
        return try await offThePool {
            try sandbox.run(["watch", "--stream"] + arguments, environment: environment, timeout: timeout)
        }
    }

    /// Starts `pricehost watch --stream ARGUMENTS` in the background.
    func startWatch(_ arguments: [String], environment: [String: String] = [:]) throws -> BackgroundProcess {
        try BackgroundProcess(BuiltProducts.pricehost, ["watch", "--stream"] + arguments + ["--config", sandbox.configPath],
                              environment: environment, currentDirectory: sandbox.directory.path)
    }

    func remove() { sandbox.remove() }
}

/// Coinbase Exchange's feed messages, as its documentation shows them, for scripted venues.
enum CoinbaseFeed {
    static let subscriptions = #"{"type":"subscriptions","channels":[{"name":"heartbeat","product_ids":["BTC-USD"]},{"name":"ticker","product_ids":["BTC-USD"]}]}"#

    /// A `ticker` message for `product` at `price`, stamped `time`.
    static func ticker(_ price: String, product: String = "BTC-USD", sequence: Int, at time: Date) -> String {
        ticker(price, product: product, sequence: String(sequence), time: iso(time))
    }

    /// The same with the sequence and the time as written: a time to the millisecond exactly, or a flood's `SEQ` and `TIME`.
    static func ticker(_ price: String, product: String = "BTC-USD", sequence: String, time: String) -> String {
        #"{"type":"ticker","sequence":\#(sequence),"product_id":"\#(product)","price":"\#(price)","open_24h":"63210.45","volume_24h":"8123.45678901","low_24h":"62980.00","high_24h":"64512.77","volume_30d":"301245.98765432","best_bid":"\#(price)","best_bid_size":"0.41002311","best_ask":"\#(price)","best_ask_size":"0.02011870","side":"buy","time":"\#(time)","trade_id":\#(sequence),"last_size":"0.00512000"}"#
    }

    /// A `heartbeat` message.
    static func heartbeat(_ product: String = "BTC-USD", sequence: Int, at time: Date) -> String {
        #"{"type":"heartbeat","sequence":\#(sequence),"last_trade_id":\#(sequence),"product_id":"\#(product)","time":"\#(iso(time))"}"#
    }

    static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}

/// The JSON objects of a command's stdout lines.
func jsonLines(_ result: CommandResult) -> [[String: Any]] {
    result.outputLines.compactMap { line in
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }
}
