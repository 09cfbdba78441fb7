import CProviderABI
import FoundationEssentials
import ProviderABI

/// The completion every plugin fetch gets. Converts the plugin's answer, or
/// reports a late or repeated call.
let hostFetchCompletion: ph_fetch_completion = { context, quote, error in
    let id = UInt(bitPattern: context)
    let (waiter, finishedBy) = PendingFetches.shared.take(id)
    guard let waiter else {
        PendingFetches.shared.countLateCompletion()
        guard PendingFetches.shared.logsLateCompletions else { return }
        // Through the diagnostics of the fetch it finished; one forgotten by now can only go to the process's.
        let who = finishedBy.map { "plugin \($0.who)" } ?? "a plugin"
        (finishedBy?.diagnostics ?? .process).warning("\(who) called a fetch completion that was already finished (a second call, or after the timeout); ignored")
        return
    }
    waiter.continuation.resume(with: PluginAnswer.convert(quote: quote, error: error, for: waiter))
}

/// Turning what a plugin passed to its completion into a quote or a failure.
enum PluginAnswer {
    /// The smallest `ph_quote` a plugin may declare: the 1.0 layout, which ends where 1.4's `bid` begins.
    static let minimumQuoteSize = MemoryLayout<ph_quote>.offset(of: \ph_quote.bid)!
    static let minimumErrorSize = MemoryLayout<ph_error>.size

    static func convert(quote: UnsafePointer<ph_quote>?, error: UnsafePointer<ph_error>?, for waiter: PendingFetches.Waiter) -> Result<Quote, any Error> {
        func failure(_ code: ProviderError.Code, _ message: String, refused: Bool = true) -> Result<Quote, any Error> {
            .failure(QuoteFailure(provider: waiter.provider, request: waiter.request, code: code, message: message, isRefusedAnswer: refused))
        }
        switch (quote, error) {
        case (nil, let error?):
            let size = CStruct.declaredSize(of: error)
            guard size >= minimumErrorSize else { return failure(.failed, "plugin broke the ABI: ph_error.struct_size is \(size)") }
            let copy = CStruct.copyPrefix(of: UnsafeRawPointer(error), size: size, as: ph_error.self)
            let code = copy.code.map { ProviderError.Code(rawValue: String(cString: $0)) } ?? .failed
            let message = copy.message.map { String(cString: $0) } ?? "failed without a message"
            return failure(code, message, refused: false)
        case (let quote?, nil):
            let size = CStruct.declaredSize(of: quote)
            guard size >= minimumQuoteSize else { return failure(.invalidResponse, "plugin broke the ABI: ph_quote.struct_size is \(size)") }
            let copy = CStruct.copyPrefix(of: UnsafeRawPointer(quote), size: size, as: ph_quote.self)
            guard let assetPointer = copy.asset, let currencyPointer = copy.currency, let amountPointer = copy.amount else {
                return failure(.invalidResponse, "plugin returned a quote without asset, currency or amount")
            }
            let asset = String(cString: assetPointer)
            let currency = String(cString: currencyPointer)
            guard asset == waiter.request.asset, currency == waiter.request.currency else {
                return failure(.invalidResponse, "asked for \(waiter.request.pair) but the plugin answered \(asset)-\(currency)")
            }
            let amountText = String(cString: amountPointer)
            guard let amount = DecimalAmount.parse(amountText) else {
                return failure(.invalidResponse, "plugin returned an amount that is not a decimal number: \(JSONValue.quoted(amountText))")
            }
            let bidAsk: (bid: Decimal?, ask: Decimal?)
            // A side's rule is a feed's: a decimal above zero (an empty book is NULL, not "0").
            switch QuoteSides.read(copy, size: size, accepts: QuoteSides.positive(_:)) {
            case .success(let sides): bidAsk = sides
            case .failure(let bad): return failure(.invalidResponse, "plugin returned \(bad.named) that is not a decimal price above zero: \(JSONValue.quoted(bad.text))")
            }
            let timestamp = copy.timestamp_ms == 0 ? Date() : Date(timeIntervalSince1970: TimeInterval(copy.timestamp_ms) / 1000)
            guard ISO8601Timestamp.isValid(timestamp) else {
                return failure(.invalidResponse, "plugin returned timestamp_ms \(copy.timestamp_ms), outside the years 0001 to 9999")
            }
            return .success(Quote(asset: asset, currency: currency, amount: amount, provider: waiter.provider, timestamp: timestamp,
                                  bid: bidAsk.bid, ask: bidAsk.ask))
        case (nil, nil):
            return failure(.failed, "plugin broke the ABI: completion called with neither a quote nor an error")
        case (_?, _?):
            return failure(.failed, "plugin broke the ABI: completion called with both a quote and an error")
        }
    }
}
