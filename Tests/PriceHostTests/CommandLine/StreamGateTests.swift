import Foundation
@testable import PriceHost
@testable import PriceHostCore
import PriceHostStore
import PriceHostTesting
import ProviderABI
import Testing

/// `watch --stream --deviation-bps 25 --heartbeat 60s --max-age 30s`: which pushed updates are printed, on a test clock.
struct StreamGateTests {
    final class Rig: Sendable {
        let clock = TestClock()
        let lines = LockedBox<[String]>([])
        let warnings = LockedBox<[String]>([])
        let gate: StreamGate

        init(_ rule: DeliveryRule) {
            let lines = self.lines, warnings = self.warnings
            let printer = StreamPrinter(format: .json, limit: nil, output: { line in lines.update { $0.append(line) } }, stop: WatchCommand.StopFlag())
            gate = StreamGate(rule: rule, clock: clock, printer: printer, warn: { warning in warnings.update { $0.append(warning) } })
        }

        /// An update from `provider` of `amount`, `age` old; its line is `provider:amount`.
        func offer(_ amount: Decimal, from provider: String = "coinbase", age: TimeInterval = 0) {
            let time = clock.wallNow.addingTimeInterval(-age)
            let quote = Quote(asset: "BTC", currency: "USD", amount: amount, provider: provider, timestamp: time)
            gate.offer("BTC-USD \(provider)", label: "BTC-USD from \(provider)", amount: amount, timestamp: time, line: "\(provider):\(amount)",
                       recording: StoredQuote(quote, receivedAt: time, source: .stream))
        }
    }

    @Test func eachProvidersUpdatesArePrintedByTheRuleWithHeartbeats() {
        let rig = Rig(DeliveryRule(deviationBps: 25, heartbeat: .seconds(60)))
        defer { rig.gate.stop() }
        for amount: Decimal in [100, 100.2, 100.25, 100] { rig.offer(amount) }
        rig.offer(100.1, from: "kraken")
        #expect(rig.lines.get() == ["coinbase:100", "coinbase:100.25", "kraken:100.1"])
        // 60 s later: each series' latest again (coinbase's 100, never printed, is its latest).
        rig.clock.advance(by: .seconds(60))
        #expect(rig.lines.get().suffix(2).sorted() == ["coinbase:100", "kraken:100.1"])
        rig.clock.advance(by: .seconds(59))
        #expect(rig.lines.get().count == 5)
        rig.clock.advance(by: .seconds(1))
        #expect(rig.lines.get().count == 7)
    }

    @Test func aStalePairIsSaidOnceOnStderrAndNotPrinted() {
        let rig = Rig(DeliveryRule(maxAge: .seconds(30)))
        defer { rig.gate.stop() }
        rig.offer(100, age: 30)
        rig.offer(101, age: 30.5)
        rig.offer(102, age: 40)
        #expect(rig.lines.get() == ["coinbase:100"])
        #expect(rig.warnings.get() == ["watch --stream: BTC-USD from coinbase is stale: its quote is 30.5 s old, more than --max-age 30 s; its prices are not printed until a fresh one"])
        rig.offer(103)
        #expect(rig.lines.get() == ["coinbase:100", "coinbase:103"])
    }
}
