import Foundation
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// `watch --record`: what `watch` prints is kept in the quote store, and `history` reads back exactly that; and what
/// writes nothing (`watch` without `--record`, `fetch`). The store is the default one, under an `XDG_STATE_HOME` of the
/// test's; the quotes are stamped just before the test, within the store's raw retention.
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

        /// What `history --at time --format csv` prints after its header: `asset,currency,amount,provider,timestamp,at,ageMs`.
        func price(at time: String, _ more: [String] = []) throws -> String? {
            let result = try run(["history", "--asset", "BTC", "--at", time, "--format", "csv"] + more)
            #expect(result.status == 0, "\(result)")
            return result.outputLines.dropFirst().first
        }

        /// The candles' counts between `from` and `to`, and their lowest low and highest high, from `history --format csv`.
        func candles(from: String, to: String, _ more: [String] = []) throws -> [String] {
            let result = try run(["history", "--asset", "BTC", "--from", from, "--to", to, "--format", "csv"] + more)
            #expect(result.status == 0, "\(result)")
            return Array(result.outputLines.dropFirst())
        }

        func remove() { sandbox.remove() }
    }

    /// `date` to the second, as the file provider's timestamps and `watch` print them.
    static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// The start of `date`'s minute.
    static func minute(_ date: Date) -> Date { Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 60).rounded(.down) * 60) }

    @Test func historyReadsBackWhatWatchPrinted() throws {
        let recording = try Recording()
        defer { recording.remove() }
        let now = Date()
        let first = Self.iso(now.addingTimeInterval(-2)), second = Self.iso(now.addingTimeInterval(-1))
        try recording.price("91234.56", at: first)
        let one = try recording.run(["watch", "--asset", "BTC", "--interval", "0.1", "--ticks", "2", "--format", "csv", "--record"])
        try recording.price("91240.5", at: second)
        let two = try recording.run(["watch", "--asset", "BTC", "--ticks", "1", "--format", "csv", "--record"])
        #expect(one == CommandResult(status: 0, standardOutput: """
            asset,currency,amount,provider,timestamp
            BTC,USD,91234.56,file,\(first)
            BTC,USD,91234.56,file,\(first)

            """, standardError: ""))
        #expect(two.outputLines == ["asset,currency,amount,provider,timestamp", "BTC,USD,91240.5,file,\(second)"], "\(two)")

        let atFirst = try recording.price(at: first)
        #expect(atFirst?.hasPrefix("BTC,USD,91234.56,file,\(first),\(first),0") == true, "\(atFirst ?? "nothing")")
        #expect(try recording.price(at: second)?.hasPrefix("BTC,USD,91240.5,file,\(second),\(second),0") == true)
        // Three lines printed of two quotes (the first got twice is kept once), two counted, in one minute or two.
        let candles = try recording.candles(from: Self.iso(Self.minute(now.addingTimeInterval(-2))), to: second)
        let counts = candles.compactMap { $0.split(separator: ",").last.flatMap { Int($0) } }
        #expect(counts.reduce(0, +) == 2, "\(candles)")
        #expect(candles.first?.split(separator: ",")[1] == "91234.56" && candles.last?.split(separator: ",")[4] == "91240.5", "\(candles)")
    }

    /// SIGTERM ends watch with status 0, and what it printed is written first: the quote, printed again each tick and
    /// kept once, was printed within the writer's 100 ms batch before the signal.
    @Test func aStopSignalWritesWhatWasPrinted() throws {
        let recording = try Recording()
        defer { recording.remove() }
        let stamped = Date().addingTimeInterval(-1)
        let time = Self.iso(stamped), minute = Self.iso(Self.minute(stamped))
        try recording.price("91234.56", at: time)
        let watch = try BackgroundProcess(BuiltProducts.pricehost, ["watch", "--asset", "BTC", "--interval", "0.1", "--format", "csv", "--record",
                                                                   "--config", recording.sandbox.configPath],
                                          environment: ["XDG_STATE_HOME": recording.state], currentDirectory: recording.sandbox.directory.path)
        let shown = watch.waitForOutput { $0.count >= 6 }
        let status = watch.terminate(signal: SIGTERM, within: 10)
        #expect(shown && status == 0, "status \(String(describing: status)): \(watch.standardOutput) \(watch.standardError)")
        let printed = watch.outputLines.dropFirst()
        #expect(printed.count >= 5 && printed.allSatisfy { $0 == "BTC,USD,91234.56,file,\(time)" }, "\(watch.standardOutput)")
        #expect(try recording.candles(from: minute, to: time) == ["\(minute),91234.56,91234.56,91234.56,91234.56,1"])
    }

    /// Each median printed is kept as the median's series, apart from its sources.
    @Test func mediansAreRecordedAsTheMedian() throws {
        let stamp = Int64(Date().timeIntervalSince1970) * 1000 - 1000
        let time = Self.iso(Date(timeIntervalSince1970: Double(stamp) / 1000))
        let plugins = try [("alpha", "100.00"), ("beta", "101.00"), ("gamma", "110.00")].map { provider, amount in
            try Sandbox.testPlugin(["PROVIDER=\"\(provider)\"", "AMOUNT=\"\(amount)\"", "TIMESTAMP_MS=\(stamp)"], name: "libRecorded\(provider).so")
        }
        let recording = try Recording(config: #"{"plugins": [\#(plugins.map { "\"\($0)\"" }.joined(separator: ", "))]}"#)
        defer { recording.remove() }
        let result = try recording.run(["watch", "--provider", "alpha,beta,gamma", "--asset", "BTC", "--aggregate", "median",
                                        "--format", "csv", "--interval", "0.1", "--ticks", "2", "--record"])
        #expect(result.status == 0 && result.outputLines.count == 3, "\(result)")
        #expect(result.outputLines.last == "BTC,USD,101,median,\(time),100,110,990.1,3,", "\(result)")
        #expect(try recording.price(at: time, ["--aggregate", "median"])?.hasPrefix("BTC,USD,101,median,\(time),\(time),0") == true)
        #expect(try recording.candles(from: Self.iso(Self.minute(Date(timeIntervalSince1970: Double(stamp) / 1000))), to: time,
                                      ["--aggregate", "median"]).map { $0.split(separator: ",").dropFirst().joined(separator: ",") }
            == ["101,101,101,101,1"]) // printed twice, the same median of the same quotes: kept once
        // The sources were asked, not printed: none of theirs is kept.
        let alpha = try recording.run(["history", "--asset", "BTC", "--provider", "alpha", "--at", time])
        #expect(alpha.status == 1 && alpha.errorLines == ["pricehost: error: no price of BTC-USD from alpha at or before \(time)"], "\(alpha)")
    }

    /// `watch --stream --record`: each update printed is kept with the venue's time, as `stream`.
    @Test func streamedUpdatesAreRecorded() async throws {
        guard await StreamVenue.available(for: "WatchRecordTests.\(#function)") else { return }
        let start = Int64(Date().timeIntervalSince1970) - 5
        let microseconds = [start, start + 1, start + 2].map { Int($0) * 1_000_000 }
        let venue = try await StreamVenue.start([[
            .waitMessage,
            .send(StreamVenueBehaviourTests.bitstampTrade("64000.10", microseconds: microseconds[0])),
            .send(StreamVenueBehaviourTests.bitstampTrade("64001.25", microseconds: microseconds[1])),
            .send(StreamVenueBehaviourTests.bitstampTrade("64002.50", microseconds: microseconds[2])), .hold,
        ]])
        defer { venue.stop() }
        let sandbox = try StreamSandbox(provider: "bitstamp", plugin: "libBitstampProvider.so", streamURL: venue.url())
        defer { sandbox.remove() }
        let state = sandbox.sandbox.directory.file("state")
        let result = try await sandbox.watch(["--asset", "BTC", "--provider", "bitstamp", "--ticks", "3", "--format", "csv", "--record"],
                                             environment: ["XDG_STATE_HOME": state])
        let printed = result.outputLines.dropFirst().map { $0.split(separator: ",").map(String.init) }
        #expect(result.status == 0 && printed.map { $0[2] } == ["64000.1", "64001.25", "64002.5"], "\(result)")
        for line in printed {
            let history = try await offThePool {
                try sandbox.sandbox.run(["history", "--asset", "BTC", "--provider", "bitstamp", "--at", line[4], "--format", "csv"],
                                        environment: ["XDG_STATE_HOME": state])
            }
            #expect(history.outputLines.dropFirst().first?.hasPrefix("BTC,USD,\(line[2]),bitstamp,\(line[4]),\(line[4]),0") == true, "\(history)")
        }
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

        // A directory where the file would be: the configured path cannot be created either.
        let directory = try Recording(config: configJSON(plugins: ["libFileProvider.so"], extra: #", "store": {"url": "sqlite:sub"}"#))
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.sandbox.directory.file("sub"), withIntermediateDirectories: false)
        #expect(try directory.run(["watch", "--asset", "BTC", "--ticks", "1", "--record"]) == CommandResult(status: 3, standardOutput: "", standardError: """
            pricehost: error: watch --record: cannot create the quote store \(directory.sandbox.directory.file("sub")): it is a directory, not a file

            """))

        let recording = try Recording()
        defer { recording.remove() }
        // A file it cannot write: refused before anything is printed, in one line, and the file is left as it was.
        let notes = String(repeating: "These are my notes, not a database.\n", count: 20)
        try recording.sandbox.directory.write(notes, to: "state/pricehost/quotes.db")
        #expect(try recording.run(["watch", "--asset", "BTC", "--ticks", "1", "--record"]) == CommandResult(status: 3, standardOutput: "", standardError: """
            pricehost: error: watch --record: the quote store \(recording.store) cannot be written: the file is not an SQLite database (file is not a database)

            """))
        #expect(try String(contentsOfFile: recording.store, encoding: .utf8) == notes)
        try FileManager.default.removeItem(atPath: recording.state)
        let missing = try recording.run(["watch", "--asset", "BTC", "--ticks", "1", "--record"], environment: ["PRICEHOST_LIBSQLITE": "/nonexistent/libsqlite3.so.0"])
        #expect(missing.status == 3 && missing.standardOutput == "", "\(missing)")
        #expect(missing.errorLines.count == 1 && missing.standardError.hasPrefix("pricehost: error: watch --record: cannot load /nonexistent/libsqlite3.so.0"), "\(missing)")
        #expect(!FileManager.default.fileExists(atPath: recording.state))
    }

    /// The disk fills while `watch --record` runs: a quote it prints after is not kept, and the run says how many in one
    /// line at its end and exits 3, since the store no longer holds what was printed. Ended by a stop signal here: that
    /// path and the run's own end both finish the recorder, and the line is said once.
    @Test func quotesPrintedThatTheStoreCouldNotKeepEndTheRunWithStatusThree() throws {
        let recording = try Recording(config: configJSON(plugins: ["libFileProvider.so"], extra: #", "store": {"url": "sqlite:disk/quotes.db"}"#))
        defer { recording.remove() }
        let mountPoint = recording.sandbox.directory.file("disk")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
        guard let disk = PrivateTmpfs.make(at: mountPoint, size: "512k", for: "WatchRecordTests.\(#function)") else { return }
        let first = Self.iso(Date().addingTimeInterval(-2)), second = Self.iso(Date().addingTimeInterval(-1))
        try recording.price("91234.56", at: first)
        let command = [BuiltProducts.pricehost, "watch", "--asset", "BTC", "--interval", "0.1", "--format", "csv", "--record",
                       "--config", recording.sandbox.configPath]
        let watch = try BackgroundProcess(disk.launcher[0], Array(disk.launcher.dropFirst()) + command, currentDirectory: recording.sandbox.directory.path)
        defer { _ = watch.terminate(signal: SIGKILL, within: 10) }
        #expect(watch.waitForOutput { $0.count >= 3 }, "\(watch.standardError)")
        let fill = try disk.run(#"cat /dev/zero > "$0/fill""#, inNamespaceOf: watch.pid)
        #expect(fill.standardError.contains("No space left on device"), "\(fill)")
        // A new price, printed on a full disk: never kept.
        try recording.price("91240.5", at: second)
        #expect(watch.waitForOutput { $0.filter { $0.contains("91240.5") }.count >= 3 }, "\(watch.standardOutput)")
        let status = watch.terminate(signal: SIGTERM, within: 20)
        let lost = watch.errorLines.filter { $0.hasPrefix("pricehost: error: watch --record:") }
        let said = lost.first?.wholeMatch(of: /pricehost: error: watch --record: ([12]) of the 2 quotes printed could not be kept in the quote store (.*): the disk is full \(database or disk is full\)/)
        #expect(status == 3 && lost.count == 1 && said?.2 == "\(mountPoint)/quotes.db",
                "status \(String(describing: status)): \(watch.standardError)")
        // Meanwhile it said so in watch's words, not serve's.
        #expect(watch.errorLines.contains { $0.hasSuffix("the disk is full (database or disk is full); watch --record goes on, and quotes are not kept until it can") },
                "\(watch.standardError)")
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
