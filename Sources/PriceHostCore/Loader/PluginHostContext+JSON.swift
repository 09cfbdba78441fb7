import CProviderABI
import ProviderABI

/// `json_get` and `check_amount` (ABI 1.2): the JSON reading and amount
/// checking a C plugin would otherwise write itself. Both are pure: they
/// touch no plugin state, so `host_context` is not consulted.
enum HostValueServices {
    /// Larger texts are refused rather than parsed: an answer is capped far below this.
    static let maximumJSONBytes = 16 << 20

    /// What `json_get` returns for `json` and `path`, and the text for the caller's buffer.
    static func jsonGet(_ json: [UInt8], path: String) -> (result: ph_json_result, text: String) {
        let parsedPath: JSONPath
        do {
            parsedPath = try JSONPath(parsing: path)
        } catch {
            return (PH_JSON_BAD_PATH, error.description)
        }
        let cursor: JSONCursor
        do {
            cursor = try JSONCursor(JSONParser.parse(json)).value(at: parsedPath)
        } catch let error as JSONParseError {
            return (PH_JSON_BAD_TEXT, error.description)
        } catch {
            return (PH_JSON_NOT_FOUND, "\(error)")
        }
        switch cursor.value {
        case .string(let text):
            guard !text.utf8.contains(0) else {
                return (PH_JSON_NUL_IN_STRING, "\(cursor.displayPath): the string contains U+0000, which a C string cannot carry")
            }
            return (PH_JSON_STRING, text)
        case .number(let text): return (PH_JSON_NUMBER, text)
        case .bool(let flag): return (PH_JSON_BOOL, flag ? "true" : "false")
        case .null: return (PH_JSON_NULL, "null")
        case .array(let elements): return (PH_JSON_ARRAY, String(elements.count))
        case .object(let object): return (PH_JSON_OBJECT, String(object.count))
        }
    }

    /// Why the host would refuse `amount` as a quote's amount; `nil` when it would accept it.
    /// The rule is ``DecimalAmount/parse(_:)``, the one ``PluginAnswer`` applies.
    static func amountProblem(_ amount: String) -> String? {
        DecimalAmount.parse(amount) == nil ? "\(JSONValue.quoted(amount)) is not a decimal amount (\(DecimalAmount.rule))" : nil
    }

    /// Writes `text` and a NUL into `buffer` (`size` bytes), truncated to fit;
    /// true when all of it fitted. Truncation never splits a UTF-8 sequence.
    @discardableResult
    package static func write(_ text: String, to buffer: UnsafeMutablePointer<CChar>?, size: Int) -> Bool {
        guard let buffer, size > 0 else { return false }
        var bytes = Array(text.utf8)
        let fits = bytes.count < size
        if !fits {
            var end = size - 1
            // Back up to the start of a UTF-8 sequence: continuation bytes are 10xxxxxx.
            while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            bytes.removeSubrange(end...)
        }
        bytes.withUnsafeBufferPointer { source in
            for (offset, byte) in source.enumerated() { buffer[offset] = CChar(bitPattern: byte) }
        }
        buffer[bytes.count] = 0
        return fits
    }
}

let hostJSONGet: ph_json_get_function = { _, json, length, path, buffer, size in
    guard let path else {
        HostValueServices.write("json_get called with a NULL path", to: buffer, size: size)
        return Int32(truncatingIfNeeded: PH_JSON_BAD_PATH.rawValue)
    }
    guard json != nil || length == 0 else {
        HostValueServices.write("json_get called with a NULL text of \(length) bytes", to: buffer, size: size)
        return Int32(truncatingIfNeeded: PH_JSON_BAD_TEXT.rawValue)
    }
    // Checked before a byte is read: a wrong length must not walk the host through the plugin's memory.
    guard length <= HostValueServices.maximumJSONBytes else {
        HostValueServices.write("json_get called with \(length) bytes; it reads at most \(HostValueServices.maximumJSONBytes)", to: buffer, size: size)
        return Int32(truncatingIfNeeded: PH_JSON_BAD_TEXT.rawValue)
    }
    let bytes = json.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) } ?? []
    let (result, text) = HostValueServices.jsonGet(bytes, path: String(cString: path))
    guard size > 0 else { return Int32(truncatingIfNeeded: result.rawValue) }
    let isValue = Int32(truncatingIfNeeded: result.rawValue) > 0
    if !HostValueServices.write(text, to: buffer, size: size), isValue {
        HostValueServices.write("\(path.pointee == 0 ? "(top level)" : String(cString: path)): the value is \(text.utf8.count) bytes; the buffer holds \(size - 1)",
                                to: buffer, size: size)
        return Int32(truncatingIfNeeded: PH_JSON_TOO_SMALL.rawValue)
    }
    return Int32(truncatingIfNeeded: result.rawValue)
}

let hostCheckAmount: ph_check_amount_function = { _, amount, message, size in
    guard let amount else {
        HostValueServices.write("check_amount called with NULL", to: message, size: size)
        return 1
    }
    guard let problem = HostValueServices.amountProblem(String(cString: amount)) else {
        HostValueServices.write("", to: message, size: size)
        return 0
    }
    HostValueServices.write(problem, to: message, size: size)
    return 1
}
