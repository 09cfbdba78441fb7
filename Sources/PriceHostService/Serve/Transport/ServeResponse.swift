import ProviderABI

/// An answer `serve` writes: status, headers and a body with its `Content-Length`.
package struct ServeResponse: Sendable {
    /// The status code.
    package var status: Int
    /// Headers besides `Content-Length` and `Connection`, which ``serialized(keepAlive:includeBody:)`` adds.
    var headers: [(name: String, value: String)]
    /// The body.
    var body: [UInt8]

    /// Creates a response.
    init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON body.
    package static func json(_ status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> ServeResponse {
        ServeResponse(status: status, headers: [("Content-Type", "application/json")] + headers, body: Array(text.utf8))
    }

    /// `{"error":"message"}` with `status`.
    package static func error(_ status: Int, _ message: String, headers: [(name: String, value: String)] = []) -> ServeResponse {
        json(status, JSONValue.object(JSONObject([("error", .string(message))])).serialized, headers: headers)
    }

    /// Plain text.
    package static func text(_ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8") -> ServeResponse {
        ServeResponse(status: status, headers: [("Content-Type", contentType)], body: Array(text.utf8))
    }

    /// The bytes on the wire; the body left out for `HEAD` (its length still announced).
    package func serialized(keepAlive: Bool, includeBody: Bool = true) -> [UInt8] {
        // Appended as bytes into one buffer: String interpolation of the head cost as much as the rest of a cached quote's answer.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128 + headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 } + (includeBody ? body.count : 0))
        bytes += "HTTP/1.1 ".utf8
        bytes += String(status).utf8
        bytes.append(32)
        bytes += Self.reason(status).utf8
        bytes += "\r\n".utf8
        for (name, value) in headers {
            bytes += name.utf8
            bytes += ": ".utf8
            bytes += value.utf8
            bytes += "\r\n".utf8
        }
        bytes += "Content-Length: ".utf8
        bytes += String(body.count).utf8
        bytes += (keepAlive ? "\r\nConnection: keep-alive\r\n\r\n" : "\r\nConnection: close\r\n\r\n").utf8
        if includeBody { bytes += body }
        return bytes
    }

    /// The reason phrase for `status`.
    package static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}
