/// One HTTP/1.x request as `serve` received it: the target decoded and checked.
package struct ServeRequest: Sendable, Equatable {
    /// `GET`, `POST`, …
    package var method: String
    /// The request target as sent, e.g. `/v1/prices?asset=BTC`.
    var target: String
    /// The path, percent-decoded, e.g. `/v1/prices`.
    package var path: String
    /// The query's parameters in order, percent-decoded (`+` is a space).
    var query: [(name: String, value: String)]
    /// Header names lower-cased, values trimmed, in order.
    var headers: [(name: String, value: String)]
    /// The body (`Content-Length` bytes; empty without one).
    var body: [UInt8] = []
    /// True when the connection stays open after the answer (HTTP/1.1 unless `Connection: close`).
    var keepAlive: Bool
    /// When its first byte arrived (set by the connection, on the server's clock): what the access log's time counts from.
    package var received: ContinuousClock.Instant = .now

    /// The first value of header `name` (lower case).
    package func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    package static func == (lhs: ServeRequest, rhs: ServeRequest) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.path == rhs.path
            && lhs.query.elementsEqual(rhs.query, by: ==) && lhs.headers.elementsEqual(rhs.headers, by: ==)
            && lhs.body == rhs.body && lhs.keepAlive == rhs.keepAlive
    }
}
