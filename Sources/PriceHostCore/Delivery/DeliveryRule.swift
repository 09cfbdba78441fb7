import FoundationEssentials
import ProviderABI

/// What one stream client or webhook asked of its deliveries (docs/quotes.md, "Delivery rules"):
/// `deviationBps`, `heartbeatSeconds` and `maxAgeSeconds`. Each is off when `nil`; a rule with
/// none set is no rule, and its client takes the shared path unchanged.
package struct DeliveryRule: Sendable, Equatable {
    /// A price is delivered when it moved at least this many basis points (inclusive) from the
    /// last one delivered to this client (25 bps = 0.25 %).
    package var deviationBps: Decimal?
    /// After this long with nothing delivered, the latest price is delivered again.
    package var heartbeat: Duration?
    /// A quote older than this (strictly) is not delivered as a price; an `event: stale` says so, once per episode.
    package var maxAge: Duration?

    package init(deviationBps: Decimal? = nil, heartbeat: Duration? = nil, maxAge: Duration? = nil) {
        self.deviationBps = deviationBps
        self.heartbeat = heartbeat
        self.maxAge = maxAge
    }

    /// True when nothing is asked: every event goes as it comes.
    package var isEmpty: Bool { deviationBps == nil && heartbeat == nil && maxAge == nil }

    /// Whether `new` moved at least `bps` basis points from `last`, compared exactly in `Decimal`:
    /// `|new - last| * 10000 >= bps * |last|`.
    package static func moved(from last: Decimal, to new: Decimal, bps: Decimal) -> Bool {
        (new - last).magnitude * 10_000 >= bps * last.magnitude
    }

    /// The largest `deviationBps`: 100 % of the price.
    package static let maximumBps: Decimal = 10_000

    /// Reads `deviationBps`'s text: a decimal number from 0 to 10000; `nil` for anything else.
    package static func bps(_ text: String) -> Decimal? {
        guard text.utf8.count <= 24, !text.hasPrefix("-"), let value = DecimalAmount.parse(text),
              value >= 0, value <= maximumBps else { return nil }
        return value
    }

    /// Reads `heartbeatSeconds`' text: seconds with at most 3 decimals, in `range` (milliseconds).
    package static func seconds(_ text: String, in range: ClosedRange<Int>) -> Duration? {
        guard let milliseconds = Durations.milliseconds(text), range.contains(milliseconds) else { return nil }
        return .milliseconds(milliseconds)
    }

    /// `heartbeatSeconds`: 1 s to a day, in milliseconds.
    package static let heartbeatRange = 1_000...86_400_000
}
