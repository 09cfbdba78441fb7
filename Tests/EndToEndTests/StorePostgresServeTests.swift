import Foundation
import Glibc
import PriceHostTesting
import Testing

/// `pricehost serve` on a PostgreSQL store that stops for 10 s and comes back (issue 36): prices are served
/// throughout, the history routes answer 503 naming the store, `/readyz` says degraded, and what was recorded
/// meanwhile lands afterwards. A PostgreSQL server of the test's own, since it stops it; skips, saying why, without one.
@Suite(.timeLimit(.minutes(2)))
struct StorePostgresServeTests {
    @Test func pricesAreServedWhilePostgresIsDownAndTheQueuedQuotesLandWhenItReturns() async throws {
        try await offThePool {
            let postgres: PostgresServer
            do {
                postgres = try PostgresServer()
            } catch {
                print("StorePostgresServeTests: \(error)")
                return
            }
            defer { postgres.stopAndRemove() }
            let database = try postgres.makeDatabase()
            let sandbox = try StoreSandbox(store: #"{"url": "\#(postgres.url(database: database))"}"#)
            defer { sandbox.remove() }
            let server = try ServeProcess(sandbox.sandbox)
            defer { _ = server.stop() }
            let start = Int64(Date().timeIntervalSince1970 * 1000) - 60_000
            try sandbox.poll(server, "100", at: start, written: 1)

            postgres.stop()
            let stopped = Date()
            // Ten seconds down: a price a second, each answered; the store degraded; history refused, naming the store.
            var amounts = ["100"]
            for second in 1...10 {
                let amount = String(100 + second)
                try sandbox.poll(server, amount, at: start + Int64(second) * 1_000)
                amounts.append(amount)
                usleep(UInt32(max(0, Double(second) - Date().timeIntervalSince(stopped)) * 1_000_000))
            }
            let ready = try StoreSandbox.waitForStore(server, toSay: "degraded")
            #expect((ready["store"] as? String)?.hasPrefix("degraded: ") == true && ready["status"] as? String == "degraded", "\(ready)")
            #expect(!"\(ready)".contains(postgres.password))
            let candles = try server.get("/v1/candles?asset=BTC&provider=file&interval=1m")
            #expect(candles.status == 503 && candles.body.contains("postgres://pricehost@127.0.0.1:\(postgres.port)/\(database)"), "\(candles)")
            #expect(!candles.body.contains(postgres.password))

            try postgres.start()
            // The queued quotes are written once it answers, and one line says so.
            #expect(server.process.waitForErrorLine(containing: "is written again", within: 15) != nil, "\(server.process.standardError)")
            let reply = try server.get("/v1/history?asset=BTC&provider=file&minutes=10")
            #expect(reply.status == 200, "\(reply)")
            for amount in amounts { #expect(reply.body.contains(#""amount":"\#(amount)""#), "\(amount) is missing: \(reply.body)") }
            #expect(try postgres.psql("SELECT count(*) FROM pricehost_quotes", database: database) == String(amounts.count))
            #expect(try StoreSandbox.readiness(server)["store"] as? String == "ok")
            #expect(!server.process.standardError.contains(postgres.password))
        }
    }
}
