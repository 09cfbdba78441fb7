import Foundation
import Glibc
import PriceHostTesting
import Testing

/// Bad data in the Redis keys of a fleet that streams: what a `Last-Event-ID` replay takes from a
/// pair's kept events. Debian's redis-server, a loopback venue and the built binary.
@Suite(.timeLimit(.minutes(3)))
struct StreamFleetBadDataTests {
    static let eventsKey = "pricehost:stream:coinbase:events:BTC-USD"

    /// The value of `name{labels}` in `server`'s /metrics.
    static func metric(_ server: ServeProcess, _ line: String) throws -> Int {
        ServeFleet.sample(try server.get("/metrics").body, line)
    }

    @Test func aReplayedEntryThatIsNotThePairsNextEventIsSkippedCountedAndLoggedOnce() async throws {
        try await StreamFleetTests.withFleet("StreamFleetBadDataTests.\(#function)", instances: 1, venue: StreamFleetTests.venue) { fleet in
            let server = fleet.servers[0]
            let watcher = try StreamFleetTests.subscribe(server)
            let last = try #require(try StreamFleetTests.events(watcher, count: 3).last?.id)
            let resumedAfter = StreamFleetTests.number(last)
            // A real entry to copy: `SEQUENCE PUBLISHED {json}`.
            let real = try fleet.redis.cli(["LRANGE", Self.eventsKey, "-1", "-1"])
            let parts = real.split(separator: " ", maxSplits: 2).map(String.init)
            try #require(parts.count == 3 && parts[2].contains(#""asset":"BTC""#), "\(real)")
            // Real events after the resume point come first, so that one numbered as the first of them is out of order.
            var counter = 0
            for _ in 0..<100 where counter < resumedAfter + 3 {  // Bounded: 100 reads, one event (0.1 s) each.
                _ = try StreamFleetTests.events(watcher, count: 1)
                counter = Int(try fleet.redis.cli(["GET", "pricehost:stream:sequence"])) ?? 0
            }
            try #require(counter >= resumedAfter + 3)
            let json = parts[2]
            let published = String(Int64(Date().timeIntervalSince1970 * 1000))
            func entry(_ number: Int, _ text: String) -> String { "\(number) \(published) \(text)" }
            func amount(_ value: String) -> String {
                json.replacingOccurrences(of: #""amount":"[^"]*""#, with: #""amount":"\#(value)""#, options: .regularExpression)
            }
            // Each is bad in one way; they go after the real entries, numbered as the next real one will be.
            let planted = [
                entry(counter + 1, json.replacingOccurrences(of: #""asset":"BTC""#, with: #""asset":"ETH""#)),
                entry(counter + 1, amount("-5")),
                entry(counter + 1, json.replacingOccurrences(of: #""provider":"coinbase""#, with: #""provider":"kraken""#)),
                entry(counter + 1, json.replacingOccurrences(of: #""timestamp":"20"#, with: #""timestamp":"99999-"#)),
                "not an event at all",
                entry(counter + 1_000_000, amount("1.23")),
                entry(resumedAfter + 1, amount("2.34")),
            ]
            try fleet.redis.cli(["RPUSH", Self.eventsKey] + planted)

            for round in 1...2 {
                let back = try StreamFleetTests.subscribe(server, lastEventID: last)
                let resumed = try StreamFleetTests.events(back, count: counter - resumedAfter + 2)
                let numbers = resumed.compactMap(\.id).map(StreamFleetTests.number)
                #expect(numbers == Array((resumedAfter + 1)...(resumedAfter + numbers.count)), "round \(round): \(numbers)")
                for event in resumed {
                    #expect(event.rest.contains(#""asset":"BTC""#) && event.rest.contains(#""provider":"coinbase""#), "\(event)")
                    #expect(!event.rest.contains(#""amount":"1.23""#) && !event.rest.contains(#""amount":"2.34""#), "\(event)")
                }
                #expect(try Self.metric(server, #"pricehost_shared_bad_values_total{provider="coinbase"}"#) == planted.count * round)
            }
            let warnings = server.process.errorLines.filter { $0.contains("shared: redis key \(Self.eventsKey) holds") }
            #expect(warnings == ["pricehost: warning: shared: redis key \(Self.eventsKey) holds 7 entries that are not coinbase's events of BTC-USD in order; skipped in the replay"],
                    "\(server.process.standardError)")
        }
    }
}
