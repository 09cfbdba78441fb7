import FoundationEssentials
import ProviderABI

/// A streamed update as JSON: the quote's line as ``QuoteFormatter`` writes it, and how and when it came.
extension StreamUpdate {
    /// `QuoteFormatter.json(quote)` plus `"source"` and `"receivedAt"` (ISO 8601, ms), then the quality members:
    /// `status` (`live`: a feed's price or a fallback poll's, as it arrives) and `ageMs` (when received).
    package var json: String { json(between: "", and: "") }

    /// ``json`` between `prefix` and `suffix`, made in one buffer: `data: {…}\n\n` for an SSE event.
    package func json(between prefix: String, and suffix: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        bytes.appendUTF8(prefix)
        var quote = quote
        if quote.status == nil { quote.status = .live }
        QuoteFormatter.writeJSON(quote, amount: amountText, bid: bidText, ask: askText, at: receivedAt, to: &bytes) { bytes in
            bytes.appendUTF8(#","source":"#)
            JSONValue.appendQuoted(source.rawValue, to: &bytes)
            bytes.appendUTF8(#","receivedAt":"#)
            JSONValue.appendQuoted(ISO8601Timestamp.format(receivedAt), to: &bytes)
        }
        bytes.appendUTF8(suffix)
        return String(decoding: bytes, as: UTF8.self)
    }
}
