import ConcurrencyHelpers
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ProviderABI
import Synchronization

/// The real transport: one GET with URLSession, a deadline for the whole
/// exchange, redirects only within the same origin, and a cap on the body
/// that fails the request and cancels the transfer as soon as it is exceeded.
///
/// Known limit: URLSession on Linux delivers data with no back-pressure, so
/// against a server streaming an endless chunked body, memory can grow past
/// the cap (hundreds of MB were seen) before the cancellation takes effect;
/// an announced `Content-Length` over the cap is refused before any body is read.
///
/// It lives in its own shared library (``transportGet``) so that the host links
/// FoundationNetworking, and libcurl behind it, only when it makes a request.
final class URLSessionNetworking: Sendable {
    /// The deadline when the request names none; the host always names one.
    static let defaultTimeout: Duration = .seconds(10)

    private let transfers: TransferDelegate
    private let session: URLSession

    /// Creates a transport with its own URLSession.
    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // The default, 6, would queue a 20-asset fetch behind itself; maxConcurrentRequests is the real bound.
        configuration.httpMaximumConnectionsPerHost = 64
        transfers = TransferDelegate()
        session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    /// Performs one GET; see the host's `Networking` protocol for the contract.
    func get(_ request: HTTPRequest, maxResponseBytes: Int) async throws -> HTTPResponse {
        guard let url = URL(string: request.url), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host != nil else {
            throw ProviderError(.invalidRequest, "GET \(request.url): not an absolute http or https URL")
        }
        if let unsafe = request.headers.first(where: { !$0.isSafe }) {
            throw ProviderError(.invalidRequest, "GET \(request.url): header \(JSONValue.quoted(unsafe.name)) contains a line break or is malformed")
        }
        let timeout = request.timeout ?? Self.defaultTimeout
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = "GET"
        urlRequest.timeoutInterval = Self.seconds(timeout)
        for header in request.headers { urlRequest.setValue(header.value, forHTTPHeaderField: header.name) }

        let task = session.dataTask(with: urlRequest)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfers.start(task, url: request.url, limit: maxResponseBytes, timeout: timeout, continuation: continuation)
            }
        } onCancel: {
            task.cancel()
        }
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

/// Collects each transfer's data and ends it exactly once: on completion,
/// when the body passes the cap, or when the deadline passes.
private final class TransferDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct Transfer {
        var url: String
        var limit: Int
        var timeout: Duration
        var continuation: CheckedContinuation<HTTPResponse, any Error>
        var response: HTTPURLResponse?
        var body: [UInt8] = []
        var failure: ProviderError?
    }

    private let transfers = Lock<[Int: Transfer]>([:])

    func start(_ task: URLSessionDataTask, url: String, limit: Int, timeout: Duration,
               continuation: CheckedContinuation<HTTPResponse, any Error>) {
        let identifier = task.taskIdentifier
        transfers.withLock { $0[identifier] = Transfer(url: url, limit: limit, timeout: timeout, continuation: continuation) }
        // URLSession's own timeout is between bytes; this one bounds the whole exchange.
        DispatchQueue.global().asyncAfter(deadline: .now() + URLSessionNetworking.seconds(timeout)) { [weak self] in
            self?.fail(identifier, ProviderError(.timeout, "GET \(url): no complete answer within \(Self.describe(timeout))"), cancelling: task)
        }
        task.resume()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let tooLarge = transfers.withLock { transfers -> ProviderError? in
            guard var transfer = transfers[dataTask.taskIdentifier] else { return nil }
            transfer.response = response as? HTTPURLResponse
            transfers[dataTask.taskIdentifier] = transfer
            if response.expectedContentLength > Int64(transfer.limit) {
                return Self.tooLarge(transfer, announced: response.expectedContentLength)
            }
            return nil
        }
        if let tooLarge {
            fail(dataTask.taskIdentifier, tooLarge, cancelling: dataTask)
            completionHandler(.cancel)
        } else {
            completionHandler(.allow)
        }
    }

    /// Redirects are followed only within the same origin (scheme, host and port):
    /// elsewhere the plugin's headers (an API key, say) would go with them, and an
    /// https URL could be downgraded. Otherwise the 3xx itself is the answer.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        let from = task.originalRequest?.url
        let to = request.url
        let sameOrigin = from?.scheme?.lowercased() == to?.scheme?.lowercased()
            && from?.host?.lowercased() == to?.host?.lowercased() && from?.port == to?.port
        completionHandler(sameOrigin ? request : nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let tooLarge = transfers.withLock { transfers -> ProviderError? in
            guard var transfer = transfers[dataTask.taskIdentifier] else { return nil }
            guard transfer.body.count + data.count <= transfer.limit else { return Self.tooLarge(transfer, announced: nil) }
            transfer.body.append(contentsOf: data)
            transfers[dataTask.taskIdentifier] = transfer
            return nil
        }
        if let tooLarge { fail(dataTask.taskIdentifier, tooLarge, cancelling: dataTask) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            transfer.continuation.resume(throwing: Self.map(error, transfer))
            return
        }
        guard let response = transfer.response else {
            transfer.continuation.resume(throwing: ProviderError(.unavailable, "GET \(transfer.url): no HTTP response"))
            return
        }
        let headers = response.allHeaderFields.compactMap { name, value -> HTTPHeader? in
            guard let name = name as? String, let value = value as? String else { return nil }
            return HTTPHeader(name, value)
        }
        transfer.continuation.resume(returning: HTTPResponse(status: response.statusCode, headers: headers, body: transfer.body))
    }

    private func fail(_ identifier: Int, _ error: ProviderError, cancelling task: URLSessionTask) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: identifier) }) else { return }
        task.cancel()
        transfer.continuation.resume(throwing: error)
    }

    private static func tooLarge(_ transfer: Transfer, announced: Int64?) -> ProviderError {
        let size = announced.map { "\($0) bytes" } ?? "more than \(transfer.limit) bytes"
        return ProviderError(.responseTooLarge, "GET \(transfer.url): the answer is \(size); the limit (maxResponseBytes) is \(transfer.limit)")
    }

    private static func map(_ error: any Error, _ transfer: Transfer) -> ProviderError {
        let urlError = error as? URLError
        switch urlError?.code {
        case .timedOut?:
            return ProviderError(.timeout, "GET \(transfer.url): no complete answer within \(describe(transfer.timeout))")
        case .badURL?, .unsupportedURL?:
            return ProviderError(.invalidRequest, "GET \(transfer.url): \(error.localizedDescription)")
        case .httpTooManyRedirects?, .secureConnectionFailed?, .serverCertificateUntrusted?, .serverCertificateHasBadDate?,
             .serverCertificateNotYetValid?, .serverCertificateHasUnknownRoot?, .badServerResponse?:
            // Asking again would get the same answer: not retried.
            return ProviderError(.invalidResponse, "GET \(transfer.url): \(describe(urlError ?? URLError(.unknown)))")
        default:
            let reason = urlError.map { describe($0) } ?? error.localizedDescription
            return ProviderError(.unavailable, "GET \(transfer.url): \(reason)")
        }
    }

    private static func describe(_ error: URLError) -> String {
        switch error.code {
        case .cannotConnectToHost: "connection refused"
        case .cannotFindHost, .dnsLookupFailed: "host not found"
        case .networkConnectionLost: "connection lost before the answer was complete"
        case .notConnectedToInternet: "no network"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid:
            "TLS failed: \(error.localizedDescription)"
        default: error.localizedDescription
        }
    }

    static func describe(_ duration: Duration) -> String {
        let seconds = URLSessionNetworking.seconds(duration)
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}
