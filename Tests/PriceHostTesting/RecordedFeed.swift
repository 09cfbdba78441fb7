import Foundation

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
}
