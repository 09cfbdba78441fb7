import CProviderABI
import ProviderABI

/// `http_get` (ABI 1.1): copies the plugin's request, performs it with the
/// provider's ``ProviderHTTPClient`` on a task, and completes exactly once.
/// A 1.2 request's `retry_answer` joins the client's retry decision.
let hostHTTPGet: ph_http_get_function = { context, request, completion, completionContext in
    guard let completion else { return }
    let done = CHTTPCompletion(function: completion, context: completionContext)
    guard let host = PluginHostContext.from(context) else {
        done.fail(ProviderError(.invalidRequest, "http_get called with an unknown host_context"))
        return
    }
    let httpRequest: HTTPRequest
    let retryCheck: CHTTPRetryCheck?
    switch CHTTPBridge.request(from: request, context: completionContext) {
    case .success(let copied): (httpRequest, retryCheck) = copied
    case .failure(let problem):
        done.fail(problem)
        return
    }
    let client = host.httpClient()
    host.httpStarted()
    Task {
        defer { host.httpFinished() }
        do {
            let response = if let retryCheck {
                try await client.get(httpRequest, retryingWhen: retryCheck.isRetryable)
            } else {
                try await client.get(httpRequest)
            }
            done.succeed(response)
        } catch {
            done.fail(error)
        }
    }
}
