import ProviderABI
import Synchronization

/// One GET (or a webhook's POST) as the transport hands it to the event loop.
struct CurlJob: Sendable {
    /// What a finished exchange gives back: the answer, and where a 3xx points.
    struct Exchange: Sendable {
        var response: HTTPResponse
        /// The absolute URL a redirect names (libcurl resolves a relative `Location`).
        var redirectURL: String?
    }

    /// Tells a job apart from the others, for cancellation.
    let id: Int
    let url: String
    /// Every header to send, `User-Agent` included.
    let headers: [HTTPHeader]
    /// A POST's body; `nil` for a GET.
    var body: [UInt8]? = nil
    /// The whole exchange's deadline.
    package let timeout: Duration
    package let options: TransferOptions
    package let continuation: CheckedContinuation<Exchange, any Error>
    /// Set when the task is cancelled, possibly before the job reaches the loop:
    /// a job that starts cancelled is answered at once instead of running to its deadline.
    let cancelled: Cancelled

    /// `GET` or `POST`, for messages.
    var method: String { body == nil ? "GET" : "POST" }

    /// A flag shared by the task's cancellation handler and the loop.
    final class Cancelled: Sendable {
        private let flag = Atomic(false)
        package var isSet: Bool { flag.load(ordering: .acquiring) }
        package func set() { flag.store(true, ordering: .releasing) }
    }
}
