import CProviderABI
import Glibc

/// One HTTP GET across the C boundary, both ways: a plugin calling the
/// host's `http_get`, and the host answering it.
package enum CHTTPBridge {
    /// Lays `request` out as a `ph_http_request` for `start`, and waits for the
    /// completion `start` is given to be called (exactly once, from any thread).
    /// `isRetryable`, when given, becomes the request's `retry_answer` (1.2).
    package static func perform(
        _ request: HTTPRequest,
        retryingWhen isRetryable: (@Sendable (HTTPResponse) -> Bool)? = nil,
        _ start: (UnsafePointer<ph_http_request>, ph_http_completion, UnsafeMutableRawPointer) -> Void
    ) async throws -> HTTPResponse {
        try await withCheckedThrowingContinuation { continuation in
            let box = Unmanaged.passRetained(ResponseBox(continuation, isRetryable: isRetryable))
            let timeoutMilliseconds = request.timeout.map { duration -> UInt32 in
                let (seconds, attoseconds) = duration.components
                let milliseconds = max(0, seconds) * 1000 + attoseconds / 1_000_000_000_000_000
                return UInt32(clamping: milliseconds)
            } ?? 0
            CHTTPHeaders.with(request.headers) { headers, count in
                request.url.withCString { url in
                    var cRequest = ph_http_request(struct_size: UInt32(MemoryLayout<ph_http_request>.size), url: url,
                                                   headers: headers, header_count: count, timeout_ms: timeoutMilliseconds,
                                                   retry_answer: isRetryable == nil ? nil : retryAnswer)
                    start(&cRequest, responseCompletion, box.toOpaque())
                }
            }
        }
    }

    /// The size of a 1.1 `ph_http_request`, the smallest the host accepts; a
    /// 1.2 request adds `retry_answer`.
    package static let requestSizeV1_1 = MemoryLayout<ph_http_request>.offset(of: \ph_http_request.retry_answer)
        ?? MemoryLayout<ph_http_request>.size

    /// The request a caller laid out in C, copied, with its `retry_answer` (1.2)
    /// bound to `context`; or why it cannot be used. A 1.1 request's size is
    /// honoured: nothing past it is read.
    package static func request(from request: UnsafePointer<ph_http_request>?,
                                context: UnsafeMutableRawPointer?) -> Result<(HTTPRequest, CHTTPRetryCheck?), ProviderError> {
        guard let request else { return .failure(ProviderError(.invalidRequest, "http_get called without a request")) }
        let size = CStruct.declaredSize(of: request)
        guard size >= requestSizeV1_1 else {
            return .failure(ProviderError(.invalidRequest, "http_get called with ph_http_request.struct_size \(size), less than a 1.1 request's \(requestSizeV1_1)"))
        }
        let cRequest = CStruct.copyPrefix(of: request, size: size, as: ph_http_request.self)
        guard let urlPointer = cRequest.url else {
            return .failure(ProviderError(.invalidRequest, "http_get called without a URL"))
        }
        var headers: [HTTPHeader] = []
        if cRequest.header_count > 0 {
            guard let list = cRequest.headers, cRequest.header_count <= 256 else {
                return .failure(ProviderError(.invalidRequest, "http_get called with \(cRequest.header_count) headers but no usable list (at most 256)"))
            }
            for index in 0..<cRequest.header_count {
                guard let name = list[index].name, let value = list[index].value else {
                    return .failure(ProviderError(.invalidRequest, "http_get header \(index) has a NULL name or value"))
                }
                headers.append(HTTPHeader(String(cString: name), String(cString: value)))
            }
        }
        let timeout: Duration? = cRequest.timeout_ms == 0 ? nil : .milliseconds(Int(cRequest.timeout_ms))
        let retryCheck = cRequest.retry_answer.map { CHTTPRetryCheck(function: $0, context: context) }
        return .success((HTTPRequest(url: String(cString: urlPointer), headers: headers, timeout: timeout), retryCheck))
    }

    /// Lays `response` out as a `ph_http_response` for the duration of `body`.
    static func withCResponse<Result>(_ response: HTTPResponse, _ body: (UnsafeMutablePointer<ph_http_response>) -> Result) -> Result {
        CHTTPHeaders.with(response.headers) { headers, count in
            response.body.withUnsafeBufferPointer { bytes in
                var cResponse = ph_http_response(
                    struct_size: UInt32(MemoryLayout<ph_http_response>.size), status: Int32(clamping: response.status),
                    headers: headers, header_count: count, body: bytes.count == 0 ? nil : bytes.baseAddress, body_length: bytes.count)
                return body(&cResponse)
            }
        }
    }
}

/// A plugin's `retry_answer` (ABI 1.2) and the context it was given with.
///
/// `@unchecked Sendable` because the ABI makes it so: the function may be
/// called from any thread (pricehost_plugin.h).
package struct CHTTPRetryCheck: @unchecked Sendable {
    let function: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<ph_http_response>?) -> Int32
    let context: UnsafeMutableRawPointer?

    /// True when the plugin calls `response` a failure that may succeed later.
    package func isRetryable(_ response: HTTPResponse) -> Bool {
        CHTTPBridge.withCResponse(response) { function(context, $0) } != 0
    }
}

/// A caller's completion and its context, to be called exactly once.
///
/// `@unchecked Sendable` because the ABI makes it so: the completion may be
/// called from any thread (pricehost_plugin.h).
package struct CHTTPCompletion: @unchecked Sendable {
    let function: ph_http_completion
    let context: UnsafeMutableRawPointer?

    /// Wraps a completion and its context.
    package init(function: ph_http_completion, context: UnsafeMutableRawPointer?) {
        self.function = function
        self.context = context
    }

    /// Completes with `response`, laid out in C for the duration of the call.
    package func succeed(_ response: HTTPResponse) {
        CHTTPBridge.withCResponse(response) { function(context, $0, nil) }
    }

    /// Completes with `error` (code `unavailable` unless it is a ``ProviderError``).
    package func fail(_ error: any Error) {
        CError.with(error, defaultCode: .unavailable) { function(context, nil, $0) }
    }
}

/// The continuation of one GET, kept alive across the boundary until it is completed.
private final class ResponseBox: Sendable {
    let continuation: CheckedContinuation<HTTPResponse, any Error>
    let isRetryable: (@Sendable (HTTPResponse) -> Bool)?

    init(_ continuation: CheckedContinuation<HTTPResponse, any Error>, isRetryable: (@Sendable (HTTPResponse) -> Bool)?) {
        self.continuation = continuation
        self.isRetryable = isRetryable
    }
}

/// A response laid out in C, copied.
private func copyResponse(_ value: ph_http_response) -> HTTPResponse {
    var headers: [HTTPHeader] = []
    if let list = value.headers {
        for index in 0..<value.header_count {
            let header = list[index]
            guard let name = header.name, let headerValue = header.value else { continue }
            headers.append(HTTPHeader(String(cString: name), String(cString: headerValue)))
        }
    }
    let body = value.body.map { Array(UnsafeBufferPointer(start: $0, count: value.body_length)) } ?? []
    return HTTPResponse(status: Int(value.status), headers: headers, body: body)
}

/// `retry_answer` of a request made with a retry predicate: asks it, box still owned by the request.
private let retryAnswer: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<ph_http_response>?) -> Int32 = { context, response in
    guard let context, let response else { return 0 }
    let box = Unmanaged<ResponseBox>.fromOpaque(context).takeUnretainedValue()
    return box.isRetryable?(copyResponse(response.pointee)) == true ? 1 : 0
}

/// Called exactly once per GET, by whoever performs it.
private let responseCompletion: ph_http_completion = { context, response, error in
    guard let context else { return }
    let box = Unmanaged<ResponseBox>.fromOpaque(context).takeRetainedValue()
    if let response {
        box.continuation.resume(returning: copyResponse(response.pointee))
    } else {
        let code = error?.pointee.code.map { String(cString: $0) } ?? ProviderError.Code.failed.rawValue
        let message = error?.pointee.message.map { String(cString: $0) } ?? "the HTTP service failed without a message"
        box.continuation.resume(throwing: ProviderError(ProviderError.Code(rawValue: code), message))
    }
}

/// Lays out headers as a C array of `ph_http_header` for the duration of `body`.
package enum CHTTPHeaders {
    package static func with<Result>(_ headers: [HTTPHeader], _ body: (UnsafePointer<ph_http_header>?, Int) -> Result) -> Result {
        guard !headers.isEmpty else { return body(nil, 0) }
        let copies = headers.map { (strdup($0.name), strdup($0.value)) }
        defer { for (name, value) in copies { free(name); free(value) } }
        let array = copies.map { ph_http_header(name: UnsafePointer($0.0), value: UnsafePointer($0.1)) }
        return array.withUnsafeBufferPointer { body($0.baseAddress, $0.count) }
    }
}
