/// One candle as a batch builds it: the prices as exact text, the count, and the venue's times of its open and close
/// quotes. Both backends add a batch's quotes to it in the order they came, so that they agree to the byte.
struct CandleState {
    var open: String, high: String, low: String, close: String
    var count: Int64
    var openTimestamp: Int64, closeTimestamp: Int64

    init(_ amount: String, at timestamp: Int64) {
        open = amount; high = amount; low = amount; close = amount
        count = 0
        openTimestamp = timestamp; closeTimestamp = timestamp
    }

    /// Adds one quote: the earliest (by the venue's time) opens, the latest closes (the later one written on a tie).
    mutating func add(_ amount: String, at timestamp: Int64) {
        count += 1
        if timestamp < openTimestamp { open = amount; openTimestamp = timestamp }
        if timestamp >= closeTimestamp { close = amount; closeTimestamp = timestamp }
        if DecimalText.compare(amount, high) > 0 { high = amount }
        if DecimalText.compare(amount, low) < 0 { low = amount }
    }
}
