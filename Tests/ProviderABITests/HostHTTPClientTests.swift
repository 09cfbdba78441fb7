import CProviderABI
@testable import ProviderABI
import Synchronization
import Testing

/// A Swift plugin's `retryingWhen:` crosses to the host as the request's
/// `retry_answer` (ABI 1.2): a stand-in host's `http_get` asks it about a
/// "busy" answer and a good one, as the real host does before each retry.
struct HostHTTPClientTests {
    /// What the stand-in host's `retry_answer` calls returned, in order.
    static let verdicts = Mutex<[Int32]>([])

    static let busy: [UInt8] = Array(#"{"error":"busy"}"#.utf8)
    static let good: [UInt8] = Array(#"{"price":"1"}"#.utf8)

    /// Asks `retry_answer` (when set) about a busy answer, then a good one, and completes with the last asked.
    static let httpGet: ph_http_get_function = { _, request, completion, context in
        guard let request, let completion else { return }
        func respond(_ body: [UInt8], _ call: (UnsafePointer<ph_http_response>) -> Void) {
            body.withUnsafeBufferPointer { bytes in
                var response = ph_http_response(struct_size: UInt32(MemoryLayout<ph_http_response>.size), status: 200,
                                                headers: nil, header_count: 0, body: bytes.baseAddress, body_length: bytes.count)
                call(&response)
            }
        }
        if let retryAnswer = request.pointee.retry_answer {
            for body in [busy, good] { respond(body) { response in verdicts.withLock { $0.append(retryAnswer(context, response)) } } }
        }
        respond(good) { completion(context, $0, nil) }
    }

    static func client() throws -> HostHTTPClient {
        var table = ph_host_services()
        table.struct_size = UInt32(MemoryLayout<ph_host_services>.size)
        table.abi_major = UInt16(PRICEHOST_ABI_MAJOR)
        table.abi_minor = UInt16(PRICEHOST_ABI_MINOR)
        table.http_get = httpGet
        let services = try #require(withUnsafeBytes(of: &table) { HostServices($0.baseAddress!) })
        return HostHTTPClient(host: services)
    }

    @Test func retryingWhenIsAskedAboutEachAnswerThroughTheCBoundary() async throws {
        Self.verdicts.withLock { $0 = [] }
        let response = try await Self.client().get(HTTPRequest(url: "http://127.0.0.1:1/"), retryingWhen: { $0.body == Self.busy })
        #expect(response.body == Self.good)
        #expect(Self.verdicts.withLock { $0 } == [1, 0])

        // Without a predicate the request carries no retry_answer.
        Self.verdicts.withLock { $0 = [] }
        _ = try await Self.client().get(HTTPRequest(url: "http://127.0.0.1:1/"))
        #expect(Self.verdicts.withLock { $0 }.isEmpty)
    }
}
