/// An HTTP answer: any status, 4xx and 5xx included.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// The headers, names in lower case.
    public var headers: [HTTPHeader]
    /// The body, at most the provider's `maxResponseBytes`.
    public var body: [UInt8]

    /// Creates a response; header names are lower-cased.
    public init(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers.map { HTTPHeader($0.name.lowercased(), $0.value) }
        self.body = body
    }

    /// The first value of the header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name == lowered }?.value
    }
}
