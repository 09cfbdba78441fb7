import FoundationEssentials
import ProviderABI

/// Reads the file provider's formats:
///
/// - JSON in Coinbase's shape: `{"data":{"base":"BTC","currency":"USD","amount":"15840.01"}}`
/// - a JSON list of quotes: `[{"base":"BTC","currency":"USD","amount":"15840.01","timestamp":"2026-11-20T12:00:00Z"}, …]`
///   (each element may also be in Coinbase's shape)
/// - a JSON map of pairs: `{"BTC-USD": "15840.01", "ETH-USD": {"amount": "3120.5", "timestamp": "…"}}`
/// - CSV: `base,currency,amount[,timestamp]`, one quote a line, an optional
///   header line of those names, blank lines and `#` comments skipped.
///
/// Amounts are decimal strings (a JSON number is read from its text, exactly);
/// timestamps are ISO 8601. A pair may appear once.
public enum PriceFileParser {
    /// The format of a price file.
    public enum Format: Sendable {
        case json, csv

        /// `.csv` by extension, `.json` by extension, else by the first non-blank character.
        public static func detect(path: String, contents: [UInt8]) -> Format {
            let lowered = path.lowercased()
            if lowered.hasSuffix(".csv") { return .csv }
            if lowered.hasSuffix(".json") { return .json }
            let first = withoutByteOrderMark(contents).first { ![UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t")].contains($0) }
            return first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? .json : .csv
        }
    }

    /// Parses a file's contents.
    /// - Parameter path: used in error messages and to detect the format.
    /// - Throws: ``PriceFileError`` naming the line or key that is wrong.
    public static func parse(_ contents: [UInt8], path: String) throws(PriceFileError) -> PriceTable {
        switch Format.detect(path: path, contents: contents) {
        case .json: try parseJSON(contents, path: path)
        case .csv: try parseCSV(contents, path: path)
        }
    }

    // MARK: JSON

    static func parseJSON(_ contents: [UInt8], path: String) throws(PriceFileError) -> PriceTable {
        let root: JSONValue
        do {
            root = try JSONParser.parse(contents)
        } catch {
            throw PriceFileError(path: path, location: "line \(error.line), column \(error.column)", reason: error.reason)
        }
        do {
            return try readQuotes(JSONCursor(root), path: path)
        } catch let error as PriceFileError {
            throw error
        } catch let error as JSONShapeError {
            throw PriceFileError(path: path, location: error.path, reason: error.reason)
        } catch {
            throw PriceFileError(path: path, location: "", reason: "\(error)")
        }
    }

    private static func readQuotes(_ root: JSONCursor, path: String) throws -> PriceTable {
        var table = PriceTable()
        func add(pair: String, _ entry: PriceTable.Entry, at cursor: JSONCursor) throws {
            guard table.insert(pair: pair, entry) else { throw cursor.error("\(pair) appears more than once") }
        }
        switch root.value {
        case .object(let object) where object.keys == ["data"]:
            let (pair, entry) = try readQuoteObject(root)
            try add(pair: pair, entry, at: root)
        case .object:
            for (key, cursor) in try root.members() {
                let pair = try readPair(key, at: cursor)
                try add(pair: pair, try readMapValue(cursor), at: cursor)
            }
        case .array:
            for cursor in try root.elements() {
                let (pair, entry) = try readQuoteObject(cursor)
                try add(pair: pair, entry, at: cursor)
            }
        default:
            throw root.error("expected an object or an array of quotes, found \(root.value.kindDescription)")
        }
        guard !table.entries.isEmpty else { throw PriceFileError(path: path, location: "", reason: "no prices in the file") }
        return table
    }

    /// `{"base","currency","amount"[,"timestamp"]}`, or the same inside `{"data": …}`.
    private static func readQuoteObject(_ cursor: JSONCursor) throws -> (String, PriceTable.Entry) {
        if case .object(let object) = cursor.value, object.keys == ["data"] {
            return try readQuoteObject(try cursor.member("data"))
        }
        try cursor.rejectUnknownKeys(allowed: ["base", "currency", "amount", "timestamp"])
        let baseCursor = try cursor.member("base")
        let base = try readCode(try baseCursor.string(), at: baseCursor)
        let currencyCursor = try cursor.member("currency")
        let currency = try readCode(try currencyCursor.string(), at: currencyCursor)
        let entry = PriceTable.Entry(amount: try readAmount(try cursor.member("amount")),
                                     timestamp: try cursor.optionalMember("timestamp").map(readTimestamp))
        return ("\(base)-\(currency)", entry)
    }

    /// A map value: an amount, or `{"amount"[,"timestamp"]}`.
    private static func readMapValue(_ cursor: JSONCursor) throws -> PriceTable.Entry {
        if case .object = cursor.value {
            try cursor.rejectUnknownKeys(allowed: ["amount", "timestamp"])
            return PriceTable.Entry(amount: try readAmount(try cursor.member("amount")),
                                    timestamp: try cursor.optionalMember("timestamp").map(readTimestamp))
        }
        return PriceTable.Entry(amount: try readAmount(cursor), timestamp: nil)
    }

    private static func readPair(_ key: String, at cursor: JSONCursor) throws -> String {
        let parts = key.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw cursor.error("key is not a pair like BTC-USD") }
        return "\(try readCode(String(parts[0]), at: cursor))-\(try readCode(String(parts[1]), at: cursor))"
    }

    private static func readCode(_ text: String, at cursor: JSONCursor) throws -> String {
        guard let code = AssetCode.normalized(text) else { throw cursor.error("\(JSONValue.quoted(text)) is not a code of 2 to 10 letters or digits") }
        return code
    }

    private static func readAmount(_ cursor: JSONCursor) throws -> Decimal {
        let text: String
        switch cursor.value {
        case .string(let string): text = string
        case .number(let number): text = number
        default: throw cursor.error("expected a decimal string such as \"15840.01\", found \(cursor.value.kindDescription)")
        }
        guard let amount = DecimalAmount.parse(text) else { throw cursor.error("not a decimal number: \(JSONValue.quoted(text))") }
        return amount
    }

    private static func readTimestamp(_ cursor: JSONCursor) throws -> Date {
        let text = try cursor.string()
        guard let date = ISO8601Timestamp.parse(text) else {
            throw cursor.error("not an ISO 8601 timestamp such as 2026-11-20T12:00:00Z: \(JSONValue.quoted(text))")
        }
        return date
    }

    // MARK: CSV

    static func parseCSV(_ contents: [UInt8], path: String) throws(PriceFileError) -> PriceTable {
        var table = PriceTable()
        var sawData = false
        // Split bytes, not Characters: Swift reads "\r\n" as one Character, so
        // splitting a String at "\n" would leave CRLF files in one piece.
        for (offset, rawLine) in withoutByteOrderMark(contents).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let lineNumber = offset + 1
            func fail(_ reason: String) -> PriceFileError {
                PriceFileError(path: path, location: "line \(lineNumber)", reason: reason)
            }
            guard let text = String(validating: rawLine, as: UTF8.self) else { throw fail("not UTF-8 text") }
            let line = Self.trimmed(text)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                .map { Self.trimmed($0) }
            if !sawData, fields.map({ $0.lowercased() }).starts(with: ["base", "currency", "amount"]),
               fields.count == 3 || (fields.count == 4 && fields[3].lowercased() == "timestamp") {
                sawData = true
                continue
            }
            sawData = true
            guard fields.count == 3 || fields.count == 4 else {
                throw fail("expected 3 or 4 fields (base,currency,amount[,timestamp]), found \(fields.count)")
            }
            guard let base = AssetCode.normalized(fields[0]) else { throw fail("base \(JSONValue.quoted(fields[0])) is not a code of 2 to 10 letters or digits") }
            guard let currency = AssetCode.normalized(fields[1]) else { throw fail("currency \(JSONValue.quoted(fields[1])) is not a code of 2 to 10 letters or digits") }
            guard let amount = DecimalAmount.parse(fields[2]) else { throw fail("amount is not a decimal number: \(JSONValue.quoted(fields[2]))") }
            var timestamp: Date?
            if fields.count == 4, !fields[3].isEmpty {
                guard let date = ISO8601Timestamp.parse(fields[3]) else {
                    throw fail("timestamp is not an ISO 8601 timestamp such as 2026-11-20T12:00:00Z: \(JSONValue.quoted(fields[3]))")
                }
                timestamp = date
            }
            guard table.insert(pair: "\(base)-\(currency)", PriceTable.Entry(amount: amount, timestamp: timestamp)) else {
                throw fail("\(base)-\(currency) appears more than once")
            }
        }
        guard !table.entries.isEmpty else { throw PriceFileError(path: path, location: "", reason: "no prices in the file") }
        return table
    }

    /// `bytes` without a leading UTF-8 byte order mark, as spreadsheet programs write one.
    /// `text` without the white space (spaces, tabs, line ends) around it.
    static func trimmed(_ text: some StringProtocol) -> String {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
              let last = text.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(text[first...last])
    }

    static func withoutByteOrderMark(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
    }
}
