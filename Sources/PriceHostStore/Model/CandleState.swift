/// One candle as a batch builds it: the prices as exact text, the count, and the venue's times of its open and close
/// quotes. Both backends add a batch's quotes to it in the order they came, so that they agree to the byte.
struct CandleState {
    var open: String, close: String
    /// The highest and lowest amounts, set with their values read (``ScaledAmount``): each quote is compared with
    /// six candles' high and low, and reading both texts for each comparison was a sixth of the SQLite writer's time.
    private(set) var high: String, low: String
    private var highValue: ScaledAmount, lowValue: ScaledAmount
    var count: Int64
    var openTimestamp: Int64, closeTimestamp: Int64

    init(_ amount: String, at timestamp: Int64) {
        open = amount; high = amount; low = amount; close = amount
        highValue = ScaledAmount(amount); lowValue = highValue
        count = 0
        openTimestamp = timestamp; closeTimestamp = timestamp
    }

    /// A candle as it was kept, to add a later batch's quotes to.
    init(open: String, high: String, low: String, close: String, count: Int64, openTimestamp: Int64, closeTimestamp: Int64) {
        self.open = open; self.high = high; self.low = low; self.close = close
        highValue = ScaledAmount(high); lowValue = ScaledAmount(low)
        self.count = count
        self.openTimestamp = openTimestamp; self.closeTimestamp = closeTimestamp
    }

    /// Adds one quote: the earliest (by the venue's time) opens, the latest closes (the later one written on a tie).
    mutating func add(_ amount: String, at timestamp: Int64) {
        add(amount, ScaledAmount(amount), at: timestamp)
    }

    /// The same, with `amount` read already (once for the six candles a quote is added to).
    mutating func add(_ amount: String, _ value: ScaledAmount, at timestamp: Int64) {
        count += 1
        if timestamp < openTimestamp { open = amount; openTimestamp = timestamp }
        if timestamp >= closeTimestamp { close = amount; closeTimestamp = timestamp }
        if ScaledAmount.compare(value, amount, highValue, high) > 0 { high = amount; highValue = value }
        if ScaledAmount.compare(value, amount, lowValue, low) < 0 { low = amount; lowValue = value }
    }
}
