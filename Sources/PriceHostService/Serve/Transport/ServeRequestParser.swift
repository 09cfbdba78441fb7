/// Reads HTTP/1.x requests out of the bytes a connection received, strictly:
/// what it cannot read exactly is refused with the status that says why, never guessed at.
///
/// Limits: the request line and headers at most ``maxHeadBytes`` (else 431), a body at
/// most ``maxBodyBytes`` (else 413). Lines end in CRLF (a bare LF is accepted, as RFC 9112
/// allows). No `Transfer-Encoding` (a request body needs `Content-Length`).
enum ServeRequestParser {
    /// The largest request line plus headers, blank line included: 8 KiB.
    static let maxHeadBytes = 8 * 1024
    /// The largest body: 64 KiB.
    static let maxBodyBytes = 64 * 1024

    /// What the bytes so far hold.
    package enum Outcome: Equatable {
        /// Not a whole request yet: read more.
        case incomplete
        /// A request, and how many bytes it took; bytes after it are the next (pipelined) request.
        case request(ServeRequest, consumed: Int)
        /// Not a request we will read: answer `status` with `message`, and close.
        case refused(status: Int, message: String)
    }

    /// Parses the request at the start of `bytes`.
    package static func parse(_ bytes: ArraySlice<UInt8>) -> Outcome {
        guard let (headEnd, bodyStart) = endOfHead(bytes) else {
            return bytes.count > maxHeadBytes
                ? .refused(status: 431, message: "request line and headers exceed \(maxHeadBytes) bytes") : .incomplete
        }
        guard headEnd - bytes.startIndex <= maxHeadBytes else {
            return .refused(status: 431, message: "request line and headers exceed \(maxHeadBytes) bytes")
        }
        let head: ServeRequest
        let contentLength: Int
        switch parseHead(bytes[bytes.startIndex..<headEnd]) {
        case .success(let parsed): (head, contentLength) = parsed
        case .failure(let refusal): return .refused(status: refusal.status, message: refusal.message)
        }
        guard bytes.endIndex - bodyStart >= contentLength else { return .incomplete }
        var request = head
        request.body = Array(bytes[bodyStart..<(bodyStart + contentLength)])
        return .request(request, consumed: bodyStart + contentLength - bytes.startIndex)
    }

    /// Where the head ends (before its blank line) and the body starts; `nil` when the blank line has not arrived.
    private static func endOfHead(_ bytes: ArraySlice<UInt8>) -> (Int, Int)? {
        var index = bytes.startIndex
        // Only as far as a head may go, so a flood of bytes costs one bounded scan.
        let limit = min(bytes.endIndex, bytes.startIndex + maxHeadBytes + 4)
        while index < limit {
            if bytes[index] == 10 {
                let next = index + 1
                if next < bytes.endIndex, bytes[next] == 10 { return (index, next + 1) }
                if next + 1 < bytes.endIndex, bytes[next] == 13, bytes[next + 1] == 10 { return (index, next + 2) }
            }
            index += 1
        }
        return nil
    }

    private struct Refusal: Error {
        var status: Int
        var message: String
        init(_ status: Int, _ message: String) {
            self.status = status
            self.message = message
        }
    }

    private static func parseHead(_ head: ArraySlice<UInt8>) -> Result<(ServeRequest, Int), Refusal> {
        var lines: [ArraySlice<UInt8>] = []
        var start = head.startIndex
        for index in head.indices where head[index] == 10 {
            lines.append(trimmingCR(head[start..<index]))
            start = index + 1
        }
        lines.append(trimmingCR(head[start..<head.endIndex]))
        guard let requestLine = lines.first, !requestLine.isEmpty else { return .failure(Refusal(400, "empty request line")) }
        let parts = requestLine.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return .failure(Refusal(400, "malformed request line; expected METHOD TARGET HTTP/1.1")) }
        guard !parts[0].isEmpty, parts[0].count <= 16, parts[0].allSatisfy(isTokenByte) else {
            return .failure(Refusal(400, "malformed method"))
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            if version.hasPrefix("HTTP/"), parts[2].allSatisfy({ $0 > 32 && $0 < 127 }) {
                return .failure(Refusal(505, "only HTTP/1.0 and HTTP/1.1 are served"))
            }
            return .failure(Refusal(400, "malformed request line; expected METHOD TARGET HTTP/1.1"))
        }
        let target = parts[1]
        guard target.first == UInt8(ascii: "/"), target.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            return .failure(Refusal(400, "malformed request target; expected a path starting with /"))
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let first = line.first, first != 32, first != 9 else {
                return .failure(Refusal(400, "malformed header line (folded or empty)"))
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                  line[line.startIndex..<colon].allSatisfy(isTokenByte) else {
                return .failure(Refusal(400, "malformed header line"))
            }
            let valueBytes = line[(colon + 1)...]
            guard valueBytes.allSatisfy({ $0 == 9 || $0 >= 32 && $0 != 127 }),
                  let value = String(validating: trimmed(valueBytes), as: UTF8.self) else {
                return .failure(Refusal(400, "header value is not valid UTF-8 text"))
            }
            headers.append((String(decoding: line[line.startIndex..<colon], as: UTF8.self).lowercased(), value))
        }
        if headers.contains(where: { $0.name == "transfer-encoding" }) {
            return .failure(Refusal(501, "Transfer-Encoding is not supported; send the body with Content-Length"))
        }
        // Lazily: most requests have no Content-Length, and none should pay for a set of them.
        let lengths = headers.lazy.filter { $0.name == "content-length" }.map(\.value)
        var contentLength = 0
        if let text = lengths.first {
            guard lengths.allSatisfy({ $0 == text }), !text.isEmpty, text.count <= 12, text.utf8.allSatisfy({ (48...57).contains($0) }),
                  let length = Int(text) else {
                return .failure(Refusal(400, "malformed Content-Length"))
            }
            guard length <= maxBodyBytes else { return .failure(Refusal(413, "body exceeds \(maxBodyBytes) bytes")) }
            contentLength = length
        }
        let (path, query): (String, [(name: String, value: String)])
        switch decodeTarget(target) {
        case .success(let decoded): (path, query) = decoded
        case .failure(let refusal): return .failure(refusal)
        }
        let connection = headers.first { $0.name == "connection" }?.value.lowercased() ?? ""
        let keepAlive = version == "HTTP/1.1" ? !contains(connection, "close") : contains(connection, "keep-alive")
        let request = ServeRequest(method: String(decoding: parts[0], as: UTF8.self), target: String(decoding: target, as: UTF8.self),
                                   path: path, query: query, headers: headers, keepAlive: keepAlive)
        return .success((request, contentLength))
    }

    /// The path and the query's parameters, percent-decoded; refused when an escape is malformed or the result is not UTF-8.
    private static func decodeTarget(_ target: ArraySlice<UInt8>) -> Result<(String, [(name: String, value: String)]), Refusal> {
        let question = target.firstIndex(of: UInt8(ascii: "?"))
        guard let path = percentDecoded(target[target.startIndex..<(question ?? target.endIndex)], plusIsSpace: false) else {
            return .failure(Refusal(400, "bad percent-encoding or invalid UTF-8 in the path"))
        }
        var query: [(name: String, value: String)] = []
        if let question {
            for pair in target[(question + 1)...].split(separator: UInt8(ascii: "&")) {
                let equals = pair.firstIndex(of: UInt8(ascii: "="))
                guard let name = percentDecoded(pair[pair.startIndex..<(equals ?? pair.endIndex)], plusIsSpace: true),
                      let value = percentDecoded(equals.map { pair[($0 + 1)...] } ?? [], plusIsSpace: true) else {
                    return .failure(Refusal(400, "bad percent-encoding or invalid UTF-8 in the query"))
                }
                query.append((name, value))
            }
        }
        return .success((path, query))
    }

    /// `bytes` with `%XX` decoded (and `+` as a space when asked); `nil` for a bad escape or invalid UTF-8.
    static func percentDecoded(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) -> String? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex,
                      let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else { return nil }
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(plusIsSpace && byte == UInt8(ascii: "+") ? 32 : byte)
                index += 1
            }
        }
        return String(validating: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: byte - 48
        case 65...70: byte - 55
        case 97...102: byte - 87
        default: nil
        }
    }

    /// Whether `text` holds `word`, by its bytes (String's `contains` builds a searcher each time).
    private static func contains(_ text: String, _ word: StaticString) -> Bool {
        let bytes = Array(text.utf8)
        let pattern = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count >= pattern.count else { return false }
        return (0...(bytes.count - pattern.count)).contains { start in pattern.indices.allSatisfy { bytes[start + $0] == pattern[$0] } }
    }

    /// RFC 9110 token characters.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 48...57, 65...90, 97...122: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"): true
        default: false
        }
    }

    private static func trimmingCR(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        line.last == 13 ? line.dropLast() : line
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, first == 32 || first == 9 { slice = slice.dropFirst() }
        while let last = slice.last, last == 32 || last == 9 { slice = slice.dropLast() }
        return slice
    }
}
