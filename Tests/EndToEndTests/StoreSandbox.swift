import Foundation
import PriceHostTesting
import Testing

/// A sandbox whose `serve` keeps a quote store: the file provider on `prices.json` (rewritten between
/// polls, each quote with the time the test gives it), and, with a venue, coinbase's feed from it.
struct StoreSandbox {
    let sandbox: Sandbox

    /// - Parameters:
    ///   - store: the config's `store` section.
    ///   - streamURL: coinbase's feed (`"stream": true`), or none.
    init(store: String = #"{"url": "sqlite:quotes.db"}"#, streamURL: String? = nil) throws {
        let coinbase = streamURL.map { url in
            #""coinbase": {"baseURL": "http://127.0.0.1:9", "streamURL": "\#(url)", "stream": true, "staleAfterSeconds": 3600, "timeoutSeconds": 2, "maxAttempts": 1},"#
        } ?? ""
        sandbox = try Sandbox(config: """
            {
              "plugins": [\(streamURL == nil ? "" : #""libCoinbaseProvider.so", "#)"libFileProvider.so"],
              "providers": {\(coinbase) "file": {"path": "prices.json"}},
              "defaults": {"provider": "file", "currency": "USD"},
              "store": \(store)
            }
            """)
        try writePrice("1", at: Int64(Date().timeIntervalSince1970 * 1000))
    }

    var directory: TemporaryDirectory { sandbox.directory }

    /// Where `sqlite:quotes.db` is.
    var storePath: String { directory.file("quotes.db") }

    /// Makes `prices.json` hold BTC-USD at `amount`, stamped `time` (Unix ms): a new file renamed over the old,
    /// so that the file provider sees the change however close together two writes are.
    func writePrice(_ amount: String, at time: Int64) throws {
        let text = #"{"BTC-USD": {"amount": "\#(amount)", "timestamp": "\#(StoreOracle.iso(time))"}}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: directory.file("prices.json")), options: .atomic)
    }

    /// Writes `amount` at `time` and has serve fetch it (`/v1/prices`), which records it.
    /// - Parameter written: wait (at most 10 s) until the store has written this many quotes: a batch of its own.
    @discardableResult
    func poll(_ server: ServeProcess, _ amount: String, at time: Int64, written: Int? = nil) throws -> HTTPReply {
        try writePrice(amount, at: time)
        let reply = try server.get("/v1/prices?asset=BTC&provider=file")
        #expect(reply.status == 200 && reply.body.contains(#""amount":"\#(amount)""#), "\(reply)")
        if let written {
            #expect(try Self.waitForWrites(server, atLeast: written) == written)
        }
        return reply
    }

    func remove() { sandbox.remove() }

    /// The value of the store's metric `name` (`pricehost_store_writes_total`, whatever its labels) in serve's `/metrics`.
    static func metric(_ name: String, of server: ServeProcess) throws -> Int? {
        let line = try server.get("/metrics").body.split(separator: "\n").first { line in
            line.hasPrefix(name) && [" ", "{"].contains(line.dropFirst(name.count).first)
        }
        return line?.split(separator: " ").last.flatMap { Int($0) }
    }

    /// `pricehost_store_writes_total`.
    static func writes(_ server: ServeProcess) throws -> Int? {
        try metric("pricehost_store_writes_total", of: server)
    }

    /// Waits (at most `seconds`, in steps of 50 ms) until the store has written at least `count` quotes; what it has written.
    static func waitForWrites(_ server: ServeProcess, atLeast count: Int, within seconds: Double = 10) throws -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        var written = try writes(server) ?? 0
        while written < count, Date() < deadline {
            usleep(50_000)
            written = try writes(server) ?? 0
        }
        return written
    }

    /// Asks `/v1/price` for the file provider's price at `time` (at most 50 times, 100 ms apart) until it is `amount`; the last reply.
    static func waitForPrice(_ server: ServeProcess, _ amount: String, at time: Int64) throws -> HTTPReply {
        var reply = try server.get("/v1/price?asset=BTC&provider=file&at=\(StoreOracle.iso(time))")
        for _ in 0..<50 where !reply.body.contains(#""amount":"\#(amount)""#) {
            usleep(100_000)
            reply = try server.get("/v1/price?asset=BTC&provider=file&at=\(StoreOracle.iso(time))")
        }
        return reply
    }

    /// `/readyz` as an object.
    static func readiness(_ server: ServeProcess) throws -> [String: Any] {
        let reply = try server.get("/readyz")
        return try #require(try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: Any], "\(reply)")
    }

    /// Asks `/readyz` (at most `attempts` times, `poke` before each: a new quote for the writer) until the store says
    /// something starting with `prefix`; the last answer.
    static func waitForStore(_ server: ServeProcess, toSay prefix: String, attempts: Int = 50,
                             poke: (Int) throws -> Void = { _ in }) throws -> [String: Any] {
        var ready: [String: Any] = [:]
        for attempt in 0..<attempts {
            try poke(attempt)
            ready = try readiness(server)
            if (ready["store"] as? String)?.hasPrefix(prefix) == true { break }
            usleep(100_000)
        }
        return ready
    }
}
