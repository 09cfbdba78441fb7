import CProviderABI
import Foundation
import ProviderABI

/// `http_get` (ABI 1.1): copies the plugin's request, performs it with the
/// provider's ``ProviderHTTPClient`` on a task, and completes exactly once.
let hostHTTPGet: ph_http_get_function = { context, request, completion, completionContext in
    guard let completion else { return }
    let done = HTTPCompletion(function: completion, context: completionContext)
    guard let host = PluginHostContext.from(context) else {
        done.fail(ProviderError(.invalidRequest, "http_get called with an unknown host_context"))
        return
    }
    guard let request, Int(request.pointee.struct_size) >= MemoryLayout<ph_http_request>.size,
          let urlPointer = request.pointee.url else {
        done.fail(ProviderError(.invalidRequest, "http_get called without a request or URL"))
        return
    }
    let cRequest = request.pointee
    var headers: [HTTPHeader] = []
    if cRequest.header_count > 0 {
        guard let list = cRequest.headers, cRequest.header_count <= 256 else {
            done.fail(ProviderError(.invalidRequest, "http_get called with \(cRequest.header_count) headers but no usable list (at most 256)"))
            return
        }
        for index in 0..<cRequest.header_count {
            guard let name = list[index].name, let value = list[index].value else {
                done.fail(ProviderError(.invalidRequest, "http_get header \(index) has a NULL name or value"))
                return
            }
            headers.append(HTTPHeader(String(cString: name), String(cString: value)))
        }
    }
    let timeout: Duration? = cRequest.timeout_ms == 0 ? nil : .milliseconds(Int(cRequest.timeout_ms))
    let httpRequest = HTTPRequest(url: String(cString: urlPointer), headers: headers, timeout: timeout)
    let client = host.httpClient()
    host.httpStarted()
    Task {
        defer { host.httpFinished() }
        do {
            done.succeed(try await client.get(httpRequest))
        } catch {
            done.fail(error)
        }
    }
}

/// The plugin's completion and its context, used exactly once.
///
/// `@unchecked Sendable` because the ABI makes it so: the plugin's
/// completion may be called from any thread (pricehost_plugin.h).
private struct HTTPCompletion: @unchecked Sendable {
    let function: ph_http_completion
    let context: UnsafeMutableRawPointer?

    func succeed(_ response: HTTPResponse) {
        CHTTPHeaders.with(response.headers) { headers, count in
            response.body.withUnsafeBufferPointer { body in
                var cResponse = ph_http_response(
                    struct_size: UInt32(MemoryLayout<ph_http_response>.size), status: Int32(clamping: response.status),
                    headers: headers, header_count: count, body: body.count == 0 ? nil : body.baseAddress, body_length: body.count)
                function(context, &cResponse, nil)
            }
        }
    }

    func fail(_ error: any Error) {
        CError.with(error, defaultCode: .unavailable) { function(context, nil, $0) }
    }
}
