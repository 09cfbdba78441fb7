import Foundation
import Glibc
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// `serve` killed (SIGKILL) while its venue pushes a thousand quotes a second: the store's file is
/// sound, and every quote serve had received a second before the kill is in it (its writer commits
/// what is queued a batch at a time, the batches 100 ms apart).
@Suite(.offThePool, .timeLimit(.minutes(2)))
struct StoreCrashTests {
    /// Quotes a second the venue sends: well within what the debug build's writer takes on two loaded cores
    /// (2,000 to 3,000 a second beside a CPU burner). At 2,000 a second a batch there took over 0.5 s, and with
    /// the 100 ms between batches what serve had received a second before was not all written.
    static let rate = 1_000

    @Test func killedWhileWritingTheFileIsSoundAndHoldsWhatCameASecondBefore() async throws {
        guard await StreamVenue.available(for: "StoreCrashTests.\(#function)"),
              PythonSQLite.available(for: "StoreCrashTests.\(#function)") else { return }
        let flood = CoinbaseFeed.ticker("PRICE", sequence: "SEQ", time: "TIME")
        // More than the test needs: it ends the flood by killing serve.
        try await FollowedFeed.with([.flood(flood, count: 60 * Self.rate, rate: Self.rate)]) { feed in
            let (sandbox, server) = (feed.sandbox, feed.server)
            _ = try feed.follower.read(until: "data: ")

            // SIGKILL in the middle of the flood, once serve's count of what it had received, read at least a second
            // before, is a second of the flood.
            var samples: [(read: Date, received: Int)] = []
            var received = 0
            let deadline = Date().addingTimeInterval(30)
            repeat {
                usleep(50_000)
                // The subscriptions message is not a quote.
                samples.append((Date(), try Self.messages(server) - 1))
                received = samples.last { Date().timeIntervalSince($0.read) >= 1 }?.received ?? 0
            } while received < Self.rate && Date() < deadline
            let killedAt = Int64(Date().timeIntervalSince1970 * 1000)
            let queued = try? StoreSandbox.metric("pricehost_store_queue_depth", of: server)
            #expect(server.process.terminate(signal: SIGKILL, within: 10) == 128 + SIGKILL)

            // What the venue sent, by number n: the amount is 50000 + n.
            let sent: [(number: Int, time: Int64)] = feed.venue.server.lines(startingWith: "SENT ").compactMap { line in
                let fields = line.split(separator: " ")
                guard fields.count == 3, let number = Int(fields[1]), let time = Int64(fields[2]) else { return nil }
                return (number, time)
            }
            let store = try PythonSQLite.inspect(sandbox.storePath, provider: "coinbase")
            #expect(store.integrity == "ok")
            let stored = Set(store.amounts.compactMap { Int($0).map { $0 - 50_000 } })
            #expect(received >= Self.rate, "serve had received only \(received) quotes in 30 s")
            let lost = (1...max(received, 1)).filter { !stored.contains($0) }
            let sentBefore = sent.filter { $0.time < killedAt - 1_000 }.count
            let lostCount = lost.count
            #expect(lostCount == 0, """
                \(lostCount) of the \(received) quotes serve had received a second before the kill are not in the store, from number \
                \(lost.first ?? 0) (it holds \(stored.count), up to \(stored.max() ?? 0); the venue had sent \(sentBefore) a second before \
                the kill and \(sent.count) in all; at the kill, \(queued.flatMap { $0 }.map { "\($0) queued" } ?? "no queue depth"))
                """)
            #expect(stored.isSubset(of: Set(sent.map(\.number))), "the store holds quotes the venue never sent")

            // serve opens the file again as it is.
            let restarted = try ServeProcess(sandbox.sandbox)
            defer { restarted.stop() }
            #expect(try StoreSandbox.readiness(restarted)["store"] as? String == "ok")
        }
    }

    /// coinbase's `pricehost_stream_messages_total`: the messages serve received from the venue.
    static func messages(_ server: ServeProcess) throws -> Int {
        let prefix = #"pricehost_stream_messages_total{provider="coinbase"} "#
        let line = try server.get("/metrics").body.split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
    }
}
