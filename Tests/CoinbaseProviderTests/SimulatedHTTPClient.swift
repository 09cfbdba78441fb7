import ProviderABI
import Synchronization

/// An HTTPClient that answers from a table and records what it was asked.
final class SimulatedHTTPClient: HTTPClient {
    private let answers: [String: HTTPResponse]
    private let requests = Mutex<[HTTPRequest]>([])

    init(_ answers: [String: HTTPResponse]) {
        self.answers = answers
    }

    var received: [HTTPRequest] { requests.withLock { $0 } }

    func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        requests.withLock { $0.append(request) }
        guard let answer = answers[request.url] else { throw ProviderError(.unavailable, "GET \(request.url): connection refused") }
        return answer
    }
}

func body(_ text: String) -> [UInt8] { Array(text.utf8) }
