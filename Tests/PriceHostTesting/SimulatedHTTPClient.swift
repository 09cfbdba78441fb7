import ConcurrencyHelpers
import ProviderABI

/// An HTTPClient that answers from a table by URL and records what it was asked:
/// a plugin's fetcher tested without a network. An unknown URL is `connection refused`.
public final class SimulatedHTTPClient: HTTPClient {
    private let answers: [String: HTTPResponse]
    private let requests = Lock<[HTTPRequest]>([])

    /// Creates a client that answers each URL in `answers`.
    public init(_ answers: [String: HTTPResponse]) {
        self.answers = answers
    }

    /// The requests received, in order.
    public var received: [HTTPRequest] { requests.withLock { $0 } }

    public func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        requests.withLock { $0.append(request) }
        guard let answer = answers[request.url] else { throw ProviderError(.unavailable, "GET \(request.url): connection refused") }
        return answer
    }
}

/// `text`'s UTF-8 bytes, for a response body.
public func body(_ text: String) -> [UInt8] { Array(text.utf8) }
