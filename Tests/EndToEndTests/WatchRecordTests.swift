import Foundation
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// `watch --record`: a store that cannot be had ends the run before it starts; and what writes nothing (`watch` without
/// `--record`, `fetch`). The store is the default one, under an `XDG_STATE_HOME` of the test's.
@Suite(.offThePool, .timeLimit(.minutes(2)))
struct WatchRecordTests {
    /// A sandbox with the file provider, and `state/` for `XDG_STATE_HOME`.
    struct Recording {
        let sandbox: Sandbox

        init(config: String = configJSON(plugins: ["libFileProvider.so"])) throws {
            sandbox = try Sandbox(config: config)
        }

        var state: String { sandbox.directory.file("state") }
        var store: String { state + "/pricehost/quotes.db" }

        /// Sets the file provider's BTC-USD to `amount`, stamped `time`.
        func price(_ amount: String, at time: String) throws {
            try sandbox.directory.write(#"[{"base": "BTC", "currency": "USD", "amount": "\#(amount)", "timestamp": "\#(time)"}]"#,
                                        to: "prices.json")
        }

        func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
            try sandbox.run(arguments, environment: ["XDG_STATE_HOME": state].merging(environment) { $1 })
        }

        func remove() { sandbox.remove() }
    }

    @Test func aStoreThatCannotBeHadEndsTheRunBeforeItStarts() throws {
        let off = try Recording(config: configJSON(plugins: ["libFileProvider.so"], extra: #", "store": {"enabled": false}"#))
        defer { off.remove() }
        #expect(try off.run(["watch", "--asset", "BTC", "--ticks", "1", "--record"]) == CommandResult(status: 2, standardOutput: "", standardError: """
            pricehost: error: watch --record: the quote store is off ("store": {"enabled": false} in \(off.sandbox.configPath)); turn it on to keep and read quotes

            """))

        // Its directory is a file: the configured path cannot be created.
        let blocked = try Recording(config: configJSON(plugins: ["libFileProvider.so"], extra: #", "store": {"url": "sqlite:prices.json/quotes.db"}"#))
        defer { blocked.remove() }
        try blocked.price("1", at: "2026-11-20T12:00:00Z")
        #expect(try blocked.run(["watch", "--asset", "BTC", "--ticks", "1", "--record"]) == CommandResult(status: 3, standardOutput: "", standardError: """
            pricehost: error: watch --record: cannot create the quote store \(blocked.sandbox.directory.file("prices.json/quotes.db")): unable to open database file

            """))

        let recording = try Recording()
        defer { recording.remove() }
        let missing = try recording.run(["watch", "--asset", "BTC", "--ticks", "1", "--record"], environment: ["PRICEHOST_LIBSQLITE": "/nonexistent/libsqlite3.so.0"])
        #expect(missing.status == 3 && missing.standardOutput == "", "\(missing)")
        #expect(missing.errorLines.count == 1 && missing.standardError.hasPrefix("pricehost: error: watch --record: cannot load /nonexistent/libsqlite3.so.0"), "\(missing)")
        #expect(!FileManager.default.fileExists(atPath: recording.state))
    }

    /// Only `--record` writes: `watch` without it and `fetch` leave the state directory (and HOME's) as they found them.
    @Test func fetchAndWatchWithoutRecordWriteNothing() throws {
        let recording = try Recording()
        defer { recording.remove() }
        try recording.price("91234.56", at: "2026-11-20T12:00:00Z")
        try FileManager.default.createDirectory(atPath: recording.state, withIntermediateDirectories: true)
        let fetch = try recording.run(["fetch", "--asset", "BTC"])
        let watch = try recording.run(["watch", "--asset", "BTC", "--interval", "0.1", "--ticks", "2"])
        let median = try recording.run(["fetch", "--asset", "BTC", "--aggregate", "median", "--provider", "file"])
        #expect(fetch.status == 0 && watch.status == 0 && median.status == 0, "\(fetch)\n\(watch)\n\(median)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: recording.state) == [])
        #expect(!FileManager.default.fileExists(atPath: recording.sandbox.directory.file(".local")))
    }

    @Test func recordMakesTheDefaultStore() throws {
        let recording = try Recording()
        defer { recording.remove() }
        try recording.price("91234.56", at: "2026-11-20T12:00:00Z")
        let result = try recording.run(["watch", "--asset", "BTC", "--ticks", "1", "--format", "csv", "--record"])
        #expect(result == CommandResult(status: 0, standardOutput: "asset,currency,amount,provider,timestamp\nBTC,USD,91234.56,file,2026-11-20T12:00:00Z\n",
                                        standardError: ""))
        #expect(FileManager.default.fileExists(atPath: recording.store))
    }
}
