import PriceHostStore

/// The quotes `__store-bench` writes, shaped like a venue's and the same on every run (a fixed seed):
/// each asset's price walks a few of its smallest units at a time, written as ``DecimalAmount/format(_:)``
/// writes it (`67012.45`, `0.6213`, no trailing zeros), from a stream, received 20 to 79 ms after the venue's time.
struct StoreBenchWorkload {
    /// The assets of the series, in order; `--series N` takes the first N, all from `coinbase`, in USD.
    static let assets = ["BTC", "ETH", "SOL", "XRP", "ADA", "DOGE", "LTC", "DOT"]
    /// Each asset's first price, in units of its last decimal place, and its decimal places.
    private static let starts: [(units: Int64, places: Int)] = [
        (6_701_245, 2), (345_678, 2), (171_234, 3), (6_213, 4), (4_511, 4), (16_342, 5), (8_412, 2), (7_213, 3),
    ]
    /// The origin every series has: the provider the store benchmark's `serve` also loads.
    static let provider = "coinbase"
    /// Days of raw quotes a filled store keeps at 1 a second: `rawRetentionDays`' default.
    static let rawDays = StoreSettings(path: "/").rawRetentionDays

    static func series(_ index: Int) -> SeriesKey {
        SeriesKey(asset: assets[index], currency: "USD", origin: .provider(provider))
    }

    private var random = SplitMix64(seed: 0x5354_4f52_4542_454e)
    private var prices: [Int64]

    init() {
        prices = Self.starts.map(\.units)
    }

    /// The next quote of series `index` at `timestamp` (Unix milliseconds).
    mutating func quote(series index: Int, at timestamp: Int64) -> StoredQuote {
        let step = Int64(random.next() % 7) - 3
        prices[index] = max(1, prices[index] + step)
        let lag = Int64(20 + random.next() % 60)
        return StoredQuote(series: Self.series(index), amount: Self.text(prices[index], places: Self.starts[index].places),
                           timestamp: timestamp, receivedAt: timestamp + lag, source: .stream)
    }

    /// A number below `bound`, from the same sequence.
    mutating func below(_ bound: Int64) -> Int64 {
        Int64(random.next() % UInt64(bound))
    }

    /// `units` with `places` decimal places, without trailing zeros (`6701240, 2` is `67012.4`).
    static func text(_ units: Int64, places: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        var fraction = String(units % scale)
        fraction = String(repeating: "0", count: places - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        return String(units / scale) + (fraction.isEmpty ? "" : "." + fraction)
    }
}

/// Sebastiano Vigna's SplitMix64: a small, fast, seeded generator; what it makes is a workload, not a secret.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
