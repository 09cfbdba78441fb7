import Foundation
import PriceHostTesting
import Testing

/// The board at `GET /` in a real headless Chromium, driven by Python's selenium
/// (`Fixtures/board/board_browser.py`, which reports what the page showed as JSON; the
/// checks are here). `serve` runs with a token, on the file provider (whose file the test
/// rewrites) and a coinbase feed from a loopback venue that ticks, then falls silent. The
/// browser reaches `serve` through the script's loopback relay, which cuts the connections
/// once to show the board reconnecting by itself.
/// Skips, saying why, without chromium, chromedriver, selenium or Python's websockets.
@Suite(.timeLimit(.minutes(3)))
struct BoardBrowserTests {
    static let script = BuiltProducts.packageRoot + "/Tests/EndToEndTests/Fixtures/board/board_browser.py"
    static let token = "board-token-\(UUID().uuidString.prefix(8))"

    /// Why the test skips, or `nil` when the browser, its driver and selenium are here.
    static let missingReason: String? = {
        let probe = """
            import shutil, sys
            try:
                import selenium
            except ImportError:
                print("python3 with selenium is not installed (pip install selenium)"); sys.exit(0)
            if not (shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")):
                print("chromium is not installed (apt-get install chromium)"); sys.exit(0)
            if not shutil.which("chromedriver"):
                print("chromedriver is not installed (apt-get install chromium-driver)"); sys.exit(0)
            """
        guard let result = try? CommandRunner.run("/usr/bin/env", ["python3", "-c", probe], timeout: 30) else {
            return "python3 did not run"
        }
        let said = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        return result.status == 0 && said.isEmpty ? nil : (said.isEmpty ? "python3 failed: \(result)" : said)
    }()

    /// True when the browser can run; otherwise prints why the test skips. The probe runs
    /// Python: off the cooperative pool.
    static func available() async throws -> Bool {
        guard let reason = try await offThePool({ Self.missingReason }) else { return true }
        print("BoardBrowserTests: \(reason); skipped")
        return false
    }

    /// The file provider's prices: BTC and SOL quoted now, ETH six days ago (stale past `maxAgeSeconds`), no DOGE.
    static func prices(sol: String, at time: Date) -> String {
        let now = CoinbaseFeed.iso(time)
        return """
            [
              {"base": "BTC", "currency": "USD", "amount": "64010.00", "timestamp": "\(now)"},
              {"base": "ETH", "currency": "USD", "amount": "3120.48", "timestamp": "2026-11-20T12:00:00Z"},
              {"base": "SOL", "currency": "USD", "amount": "\(sol)", "timestamp": "\(now)"}
            ]
            """
    }

    /// The venue's first connection: BTC ticks every 0.25 s for 12 s, then silence; a
    /// reconnect after the feed went stale gets the subscriptions and nothing more.
    static func venue() async throws -> StreamVenue {
        // Stamped about when they go out: serve and the browser take seconds to start, and the board shows the venue's time.
        let start = Date().addingTimeInterval(5)
        let ticks = (1...48).flatMap { index -> [StreamVenue.Step] in
            let cents = 64_000_00 + Int((sin(Double(index) / 4) * 400).rounded())
            let price = "\(cents / 100).\(String(format: "%02d", cents % 100))"
            return [.send(CoinbaseFeed.ticker(price, sequence: index, at: start.addingTimeInterval(Double(index) / 4))), .sleep(0.25)]
        }
        return try await StreamVenue.start([[.waitMessage, .send(CoinbaseFeed.subscriptions)] + ticks + [.hold],
                                            [.waitMessage, .send(CoinbaseFeed.subscriptions), .hold]])
    }

    static func config(streamURL: String) -> String {
        """
        {
          "plugins": ["libFileProvider.so", "libCoinbaseProvider.so"],
          "providers": {
            "file": {"path": "prices.json", "maxAgeSeconds": 300, "staleQuotes": "warn"},
            "coinbase": {"baseURL": "http://127.0.0.1:9", "streamURL": "\(streamURL)", "stream": true,
                         "staleAfterSeconds": 1, "fallbackIntervalSeconds": 1, "timeoutSeconds": 1, "maxAttempts": 1}
          },
          "defaults": {"provider": "file", "currency": "USD"},
          "assets": {"BTC": {"providers": ["file", "coinbase"]}, "ETH": {"provider": "file"},
                     "SOL": {"provider": "file"}, "DOGE": {"provider": "file"}},
          "serve": {"token": "\(token)"}
        }
        """
    }

    /// Starts `serve` in `sandbox`, runs the script with the spec `makeSpec` writes for serve's port, and
    /// stops `serve`: the script's report and serve's stderr lines. Off the cooperative pool: it blocks for seconds.
    static func browse(_ sandbox: Sandbox, in files: TemporaryDirectory,
                       spec makeSpec: @escaping @Sendable (UInt16) -> [String: Any]) async throws -> ([String: Any], [String]) {
        let (line, log) = try await offThePool { () throws -> (String, [String]) in
            let server = try ServeProcess(sandbox)
            let specPath = try files.write(JSONSerialization.data(withJSONObject: makeSpec(server.port)), to: "spec.json")
            // The script keeps to a budget of its own and reports what it saw by then; Chromium goes with it.
            let result = try CommandRunner.run("/usr/bin/env", ["python3", Self.script, specPath], currentDirectory: files.path,
                                               timeout: 130, ownProcessGroup: true)
            server.stop()
            guard result.status == 0 else {
                throw FixtureError("board_browser.py failed: \(result)\nserve's log:\n\(server.process.standardError)")
            }
            return (result.outputLines.last ?? "", server.process.errorLines)
        }
        let report = try #require((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any], "not a JSON object: \(line)")
        return (report, log)
    }

    @Test func theBoardShowsLivePricesStalenessAndFailuresAndFollowsAChangeWithinTwoSeconds() async throws {
        guard try await Self.available() else { return }
        guard await StreamVenue.available(for: "BoardBrowserTests") else { return }
        let venue = try await Self.venue()
        defer { venue.stop() }
        let sandbox = try Sandbox(config: Self.config(streamURL: venue.url()), files: ["prices.json": Self.prices(sol: "142.375", at: Date())])
        defer { sandbox.remove() }
        let files = try TemporaryDirectory(prefix: "pricehost-board")
        defer { files.remove() }
        // PRICEHOST_BOARD_SCREENSHOT=docs/images/board.png makes the docs' picture; otherwise it stays in a temporary directory.
        let screenshot = ProcessInfo.processInfo.environment["PRICEHOST_BOARD_SCREENSHOT"] ?? files.file("board.png")
        let (report, log) = try await Self.browse(sandbox, in: files) { port in [
            "port": Int(port), "path": "/?interval=1", "token": Self.token,
            "pricesFile": sandbox.directory.file("prices.json"), "rewrite": Self.prices(sol: "150.5", at: Date()),
            "changedAsset": "SOL", "changedAmount": "150.5", "staleAsset": "ETH", "failingAsset": "DOGE",
            "streamAsset": "BTC", "streamProvider": "coinbase", "screenshot": screenshot,
        ] }
        let context = "\(report)"

        // The token: asked for, typed, kept in the tab; never in a URL or a log line.
        #expect(report["loginShown"] as? Bool == true, "\(context)")
        #expect(report["tokenFocused"] as? Bool == true)
        #expect(report["tokenStored"] as? Bool == true)
        let requests = report["requests"] as? [[String: Any]] ?? []
        #expect(requests.contains { ($0["url"] as? String ?? "").contains("/v1/stream?") }, "\(requests)")
        // The charts ask for candles, then, from a serve without them (404) or without a store (503), for history.
        #expect(requests.contains { ($0["url"] as? String ?? "").contains("/v1/candles?asset=SOL&currency=USD&provider=file&interval=1m&from=") },
                "\(requests)")
        #expect(!requests.contains { ($0["url"] as? String ?? "").contains(Self.token) })
        #expect(!(report["urlAfterLogin"] as? String ?? Self.token).contains(Self.token))
        #expect(!log.isEmpty && !log.contains { $0.contains(Self.token) }, "\(log)")
        #expect(log.contains { $0.hasPrefix("pricehost: info: GET /v1/board 200") }, "\(log)")

        // The price, read from the page; changed upstream, the page shows the new one within 2 s.
        let initial = report["initial"] as? [String: Any] ?? [:]
        #expect(initial["SOL"] as? String == "142.375", "\(context)")
        #expect(initial["ETH"] as? String == "3120.48")
        #expect(report["afterRewrite"] as? String == "150.5")
        let update = try #require(report["updateSeconds"] as? Double, "the new price never showed: \(context)")
        #expect(update <= 2, "the new price took \(update) s")

        // A quote older than maxAgeSeconds is shown stale, in words as well as in color; a fresh one is not.
        let stale = report["staleRow"] as? [String: Any] ?? [:]
        #expect(stale["state"] as? String == "stale" && stale["staleClass"] as? Bool == true, "\(stale)")
        #expect((stale["age"] as? String ?? "").hasSuffix("stale") && (stale["ageTitle"] as? String ?? "").contains("maxAgeSeconds"), "\(stale)")
        let fresh = report["freshRow"] as? [String: Any] ?? [:]
        #expect(fresh["state"] as? String == "fresh" && fresh["staleClass"] as? Bool == false, "\(fresh)")
        #expect(stale["ageBackground"] as? String != fresh["ageBackground"] as? String, "stale looks like fresh: \(stale) \(fresh)")

        // A failing provider gets a line with its error.
        let failing = report["failing"] as? String ?? ""
        #expect(failing.hasPrefix("file is failing: file: no price for DOGE-USD"), "\(context)")

        // The stream: coinbase's pushed price, its source, the median of two, then stale when the feed falls silent.
        let live = report["streamRow"] as? [String: Any] ?? [:]
        #expect(live["state"] as? String == "fresh" && live["source"] as? String == "stream", "\(live)")
        #expect((live["amount"] as? String ?? "").hasPrefix("6"), "\(live)")
        let stats = report["streamStats"] as? [String: Any] ?? [:]
        #expect(stats["min"] != nil && stats["max"] as? String == "64010" && (stats["spread"] as? String ?? "").hasSuffix(" bps"), "\(stats)")
        #expect(report["streamBasis"] as? String == "median of 2 providers")
        let silent = report["streamStale"] as? [String: Any] ?? [:]
        #expect(silent["state"] as? String == "stale" && (silent["ageTitle"] as? String ?? "").contains("staleAfterSeconds"), "\(silent)")

        // A screen reader's view: a status region, headed cards, a table with headers, the chart named in words.
        let access = report["accessibility"] as? [String: Any] ?? [:]
        #expect(access["statusRole"] as? String == "status" && access["statusLive"] as? String == "polite", "\(access)")
        #expect(access["heading"] as? String == "SOL in USD")
        #expect(access["chartRole"] as? String == "img")
        #expect((access["chartLabel"] as? String ?? "").contains("150.5"), "\(access)")
        #expect((access["polylines"] as? Int ?? 0) >= 1)
        #expect(access["rowHeaders"] as? Int == 1 && access["columnHeaders"] as? Int == 4)
        #expect((access["bodyText"] as? String ?? "").contains("150.5"))

        // Offline-ready and small screens and dark mode.
        let origin = report["origin"] as? String ?? "?"
        let resources = report["resources"] as? [String] ?? []
        #expect(resources.allSatisfy { $0.hasPrefix(origin + "/") }, "\(resources)")
        let console = report["console"] as? [String] ?? []
        #expect(!console.contains { $0.contains("Content Security Policy") || $0.contains("Uncaught") }, "\(console)")
        let phone = report["phone"] as? [String: Any] ?? [:]
        #expect((phone["scrollWidth"] as? Int ?? .max) <= (phone["innerWidth"] as? Int ?? 0) && phone["priceVisible"] as? Bool == true, "\(phone)")
        let colors = report["colors"] as? [String: String] ?? [:]
        #expect(colors["light"] != nil && colors["light"] != colors["dark"], "\(colors)")

        // A dropped connection: back by itself, asking for what it missed.
        #expect((report["connectionsCut"] as? Int ?? 0) >= 2 && report["offlineStatus"] as? String != nil, "\(context)")
        #expect((report["backOnline"] as? String ?? "").hasPrefix("Live"), "\(context)")
        #expect(requests.contains { ($0["url"] as? String ?? "").contains("/v1/stream?") && $0["lastEventID"] is String }, "\(requests)")

        // The picture for the docs.
        let bytes = report["screenshotBytes"] as? Int ?? 0
        #expect(bytes > 10_000 && FileManager.default.fileExists(atPath: screenshot), "\(bytes)")
    }
}
