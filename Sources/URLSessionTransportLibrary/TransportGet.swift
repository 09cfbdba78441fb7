import CProviderABI
import ProviderABI

/// The one transport every request in the process shares, made on the first request.
private let transport = URLSessionNetworking()

/// Performs one GET with URLSession and calls `completion` exactly once, from
/// another thread: the body of the library's C export (``CHTTPBridge/TransportGetFunction``).
/// The host adds its `User-Agent` and deadline to the request before calling.
public func transportGet(_ request: UnsafePointer<ph_http_request>?, _ maxResponseBytes: UInt64,
                         _ completion: ph_http_completion?, _ context: UnsafeMutableRawPointer?) {
    guard let completion else { return }
    let done = CHTTPCompletion(function: completion, context: context)
    switch CHTTPBridge.request(from: request) {
    case .failure(let problem):
        done.fail(problem)
    case .success(let httpRequest):
        let limit = Int(clamping: maxResponseBytes)
        Task {
            do {
                done.succeed(try await transport.get(httpRequest, maxResponseBytes: limit))
            } catch {
                done.fail(error)
            }
        }
    }
}
