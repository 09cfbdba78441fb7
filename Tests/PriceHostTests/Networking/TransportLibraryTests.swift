import Glibc
import PriceHostTesting
@testable import PriceHost
import ProviderABI
import Testing
import URLSessionTransportLibrary

/// The host's transport through the same C entry it finds in
/// libURLSessionTransport.so, linked here instead of loaded, against a real
/// server on 127.0.0.1.
@Suite(.timeLimit(.minutes(1)))
struct TransportLibraryTests {
    let transport = TransportLibrary { request, maxResponseBytes, completion, context in
        transportGet(request, maxResponseBytes, completion, context)
    }

    @Test func answerCrossesTheBoundaryWithStatusHeadersAndBodyIntact() async throws {
        let seen = LockedBox<[String: String]>([:])
        let server = try LoopbackHTTPServer { request, _ in
            seen.set(request.headers)
            return .init(status: 203, headers: [("X-Answer", "42")], body: #"{"amount":"0.000000000000000001"}"#)
        }
        defer { server.stop() }
        let request = HTTPRequest(url: server.baseURL + "/spot", headers: [HTTPHeader("CB-VERSION", "2024-01-01")],
                                  timeout: .seconds(5))
        let response = try await transport.get(request, maxResponseBytes: 1024)
        #expect(response.status == 203)
        #expect(response.header("x-answer") == "42")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"amount":"0.000000000000000001"}"#)
        #expect(seen.get()["cb-version"] == "2024-01-01")
        #expect(seen.get()["user-agent"] == TransportLibrary.userAgent)
    }

    @Test func aPluginsOwnUserAgentIsKept() async throws {
        let seen = LockedBox<String?>(nil)
        let server = try LoopbackHTTPServer { request, _ in
            seen.set(request.headers["user-agent"])
            return .init(body: "{}")
        }
        defer { server.stop() }
        let request = HTTPRequest(url: server.baseURL + "/", headers: [HTTPHeader("User-Agent", "mine/1")], timeout: .seconds(5))
        _ = try await transport.get(request, maxResponseBytes: 1024)
        #expect(seen.get() == "mine/1")
    }

    @Test func bodyOverTheCapIsAnErrorWithItsCode() async throws {
        let server = try LoopbackHTTPServer { _, _ in .init(body: String(repeating: "x", count: 4096)) }
        defer { server.stop() }
        let error = await #expect(throws: ProviderError.self) {
            try await transport.get(HTTPRequest(url: server.baseURL + "/big", timeout: .seconds(5)), maxResponseBytes: 1024)
        }
        #expect(error?.code == .responseTooLarge)
        #expect(error?.message == "GET \(server.baseURL)/big: the answer is 4096 bytes; the limit (maxResponseBytes) is 1024")
    }

    @Test func aMissingLibraryFailsEachRequestWithTheReasonAndNoRetry() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let missing = TransportLibrary(directories: [directory.path], allowInsecure: false, diagnostics: Diagnostics(sink: { _ in }))
        for _ in 0..<2 {
            let error = await #expect(throws: ProviderError.self) {
                try await missing.get(HTTPRequest(url: "http://127.0.0.1:9/"), maxResponseBytes: 1024)
            }
            #expect(error?.code == .failed)
            #expect(error?.message == "the HTTP transport cannot be loaded: libURLSessionTransport.so not found in \(directory.path); reinstall pricehost")
        }
    }

    @Test func aLibraryOthersCouldReplaceIsRefused() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("not a library", to: TransportLibrary.fileName)
        #expect(chmod(path, 0o664) == 0)
        let library = TransportLibrary(directories: [directory.path], allowInsecure: false, diagnostics: Diagnostics(sink: { _ in }))
        let error = await #expect(throws: ProviderError.self) {
            try await library.get(HTTPRequest(url: "http://127.0.0.1:9/"), maxResponseBytes: 1024)
        }
        #expect(error?.message.contains("file \(path) is writable by its group (mode 0664)") == true, "\(String(describing: error))")
    }

    /// Checked as plugins are, through one open descriptor: a file that is no ELF library is refused before dlopen.
    @Test func aFileThatIsNoLibraryIsRefusedBeforeItIsLoaded() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("not a library", to: TransportLibrary.fileName)
        #expect(chmod(path, 0o644) == 0)
        let library = TransportLibrary(directories: [directory.path], allowInsecure: false, diagnostics: Diagnostics(sink: { _ in }))
        let error = await #expect(throws: ProviderError.self) {
            try await library.get(HTTPRequest(url: "http://127.0.0.1:9/"), maxResponseBytes: 1024)
        }
        #expect(error?.message == "the HTTP transport cannot be loaded: not an ELF shared library (the file does not start with the ELF magic number); reinstall pricehost")
    }
}
