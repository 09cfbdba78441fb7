/// The head of the server's answer to the handshake: HTTP/1.1's status line and header fields.
///
/// Strict where it is cheap: CRLF line ends, no obsolete line folding, a
/// three-digit status. Values are read as UTF-8, invalid bytes replaced.
package struct WebSocketResponseHead: Equatable, Sendable {
    /// The status code: 101 for an upgrade.
    package let status: Int
    /// The reason phrase.
    package let reason: String
    /// The header fields, in order, names as sent.
    package let fields: [WebSocketHandshake.Field]

    /// The head with these parts.
    package init(status: Int, reason: String, fields: [WebSocketHandshake.Field]) {
        self.status = status
        self.reason = reason
        self.fields = fields
    }

    /// Reads a head: the bytes up to and including the empty line.
    /// - Throws: ``WebSocketError/Code/handshakeMalformed``, naming `url` and the line at fault.
    package static func parse(_ bytes: ArraySlice<UInt8>, url: WebSocketURL) throws(WebSocketError) -> WebSocketResponseHead {
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "\n") {
                guard index > start, bytes[index - 1] == UInt8(ascii: "\r") else { throw .handshakeMalformed(url, "a line ends in LF without CR") }
                lines.append(bytes[start..<(index - 1)])
                start = index + 1
            }
            index += 1
        }
        // The last line is the empty one that ends the head.
        guard let statusLine = lines.first, lines.last?.isEmpty == true else { throw .handshakeMalformed(url, "the head does not end with an empty line") }
        let status = String(decoding: statusLine, as: UTF8.self)
        let parts = status.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0] == "HTTP/1.1" else {
            throw .handshakeMalformed(url, "the status line \(WebSocketError.quoted(status)) is not HTTP/1.1")
        }
        guard parts[1].utf8.count == 3, parts[1].utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let code = Int(parts[1]) else {
            throw .handshakeMalformed(url, "the status line \(WebSocketError.quoted(status)) has no three-digit status")
        }
        var fields: [WebSocketHandshake.Field] = []
        for line in lines.dropFirst().dropLast() {
            let text = String(decoding: line, as: UTF8.self)
            guard let colon = text.firstIndex(of: ":"), WebSocketHandshake.isToken(String(text[..<colon])) else {
                throw .handshakeMalformed(url, "the header line \(WebSocketError.quoted(text)) is not name: value")
            }
            let value = text[text.index(after: colon)...].trimmingWhitespace()
            fields.append(.init(name: String(text[..<colon]), value: value))
        }
        return WebSocketResponseHead(status: code, reason: parts.count > 2 ? String(parts[2]) : "", fields: fields)
    }

    /// The values of every field named `name` (any case), in order.
    package func values(of name: String) -> [String] {
        let lowered = name.lowercased()
        return fields.filter { $0.name.lowercased() == lowered }.map(\.value)
    }

    /// The comma-separated elements of every field named `name`, trimmed, empty ones left out (RFC 9110 §5.6.1).
    package func listValues(of name: String) -> [String] {
        values(of: name).flatMap { $0.split(separator: ",").map { $0.trimmingWhitespace() } }.filter { !$0.isEmpty }
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    fileprivate func trimmingWhitespace() -> String {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isWhitespace($0) }), let last = lastIndex(where: { !isWhitespace($0) }) else { return "" }
        return String(self[first...last])
    }
}
