import CProviderABI
import Foundation

/// The host's HTTP service (ABI 1.1) seen as an ``HTTPClient``.
struct HostHTTPClient: HTTPClient {
    let host: HostServices

    func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let httpGet = host.httpGet else {
            throw ProviderError(.unavailable, "this pricehost has no HTTP service (plugin ABI 1.0); upgrade pricehost")
        }
        return try await withCheckedThrowingContinuation { continuation in
            let box = Unmanaged.passRetained(ResponseBox(continuation))
            let timeoutMilliseconds = request.timeout.map { duration -> UInt32 in
                let (seconds, attoseconds) = duration.components
                let milliseconds = max(0, seconds) * 1000 + attoseconds / 1_000_000_000_000_000
                return UInt32(clamping: milliseconds)
            } ?? 0
            CHTTPHeaders.with(request.headers) { headers, count in
                request.url.withCString { url in
                    var cRequest = ph_http_request(struct_size: UInt32(MemoryLayout<ph_http_request>.size), url: url,
                                                   headers: headers, header_count: count, timeout_ms: timeoutMilliseconds)
                    httpGet(host.table.host_context, &cRequest, httpCompletion, box.toOpaque())
                }
            }
        }
    }
}

/// The continuation of one `http_get`, kept alive across the boundary until the host completes it.
private final class ResponseBox: Sendable {
    let continuation: CheckedContinuation<HTTPResponse, any Error>
    init(_ continuation: CheckedContinuation<HTTPResponse, any Error>) { self.continuation = continuation }
}

/// The host calls this exactly once per `http_get` (pricehost_plugin.h).
private let httpCompletion: ph_http_completion = { context, response, error in
    guard let context else { return }
    let box = Unmanaged<ResponseBox>.fromOpaque(context).takeRetainedValue()
    if let response {
        let value = response.pointee
        var headers: [HTTPHeader] = []
        if let list = value.headers {
            for index in 0..<value.header_count {
                let header = list[index]
                guard let name = header.name, let headerValue = header.value else { continue }
                headers.append(HTTPHeader(String(cString: name), String(cString: headerValue)))
            }
        }
        let body = value.body.map { Array(UnsafeBufferPointer(start: $0, count: value.body_length)) } ?? []
        box.continuation.resume(returning: HTTPResponse(status: Int(value.status), headers: headers, body: body))
    } else {
        let code = error?.pointee.code.map { String(cString: $0) } ?? ProviderError.Code.failed.rawValue
        let message = error?.pointee.message.map { String(cString: $0) } ?? "the host's HTTP service failed without a message"
        box.continuation.resume(throwing: ProviderError(ProviderError.Code(rawValue: code), message))
    }
}

/// Lays out headers as a C array of `ph_http_header` for the duration of
/// `body`; shared with the host, which answers with the same layout.
package enum CHTTPHeaders {
    package static func with<Result>(_ headers: [HTTPHeader], _ body: (UnsafePointer<ph_http_header>?, Int) -> Result) -> Result {
        guard !headers.isEmpty else { return body(nil, 0) }
        let copies = headers.map { (strdup($0.name), strdup($0.value)) }
        defer { for (name, value) in copies { free(name); free(value) } }
        let array = copies.map { ph_http_header(name: UnsafePointer($0.0), value: UnsafePointer($0.1)) }
        return array.withUnsafeBufferPointer { body($0.baseAddress, $0.count) }
    }
}
