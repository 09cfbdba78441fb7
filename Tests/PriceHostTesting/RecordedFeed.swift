import Foundation
import ProviderABI

/// The venue feeds recorded under `Tests/EndToEndTests/Fixtures/streams`: one server
/// message a line, as the venue sends it. The end-to-end tests replay them through a
/// loopback WebSocket server; each plugin's reader tests read them line by line.
public enum RecordedFeed {
    /// The directory of the recordings.
    public static var directory: String { BuiltProducts.packageRoot + "/Tests/EndToEndTests/Fixtures/streams" }

    /// The messages of `venue`'s recording (`coinbase`, `binance`, `bitstamp`, `gemini`), in order.
    /// - Throws: when `<venue>.jsonl` cannot be read.
    public static func messages(_ venue: String) throws -> [String] {
        // Blank lines are not messages: split drops them.
        try String(contentsOfFile: directory + "/\(venue).jsonl", encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// What `reader` makes of each message of `venue`'s recording, on a connection for `pairs`.
    /// - Throws: when `<venue>.jsonl` cannot be read.
    public static func readings(_ venue: String, by reader: any StreamReader, pairs: [QuoteRequest]) throws -> [[StreamEvent]] {
        try messages(venue).map { reader.read($0, pairs: pairs) }
    }
}
