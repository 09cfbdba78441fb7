import ConcurrencyHelpers
import Foundation
@testable import PriceHostCore
@testable import PriceHostService
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// serve's route table drives dispatch, 404, 405 and its docs; the token check, the request
/// metrics and the access log are middleware around every handler. In process, with a
/// generation of no plugins (only routes that need none are answered for real).
@Suite(.offThePool, .timeLimit(.minutes(1)))
struct ServeRouteTableTests {
    /// A router over `json`'s generation, its metrics, and the lines its access log wrote.
    static func router(_ json: String, in directory: TemporaryDirectory) throws -> (ServeRouter, ServeMetrics, ServeReloadTests.Lines) {
        let (state, _, _, lines) = try ServeReloadTests.serving(json, in: directory)
        let metrics = ServeMetrics()
        let hub = StreamHub(source: ServeStreamSource(state: state, metrics: metrics))
        let router = ServeRouter(state: state, metrics: metrics, hub: hub, log: RequestLog(metrics: metrics, diagnostics: lines.diagnostics),
                                 openConnections: { 0 })
        return (router, metrics, lines)
    }

    static func request(_ method: String, _ path: String, headers: [(name: String, value: String)] = []) -> ServeRequest {
        ServeRequest(method: method, target: path, path: path, query: [], headers: headers, keepAlive: true)
    }

    /// The response of an answer made now.
    static func response(_ reply: ServeReply) -> ServeResponse? {
        guard case .now(.response(let response, _)) = reply else { return nil }
        return response
    }

    static func header(_ response: ServeResponse?, _ name: String) -> String? {
        response?.headers.first { $0.name == name }?.value
    }

    @Test func docsServeMdListsTheRoutesOfTheTableInItsOrder() throws {
        let page = try String(contentsOfFile: BuiltProducts.packageRoot + "/docs/serve.md", encoding: .utf8)
        // Each row of the table: | `METHOD PATH[?…]` | …
        let documented = page.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `GET ") || line.hasPrefix("| `POST ") else { return nil }
            let span = line.dropFirst(3).prefix { $0 != "`" }
            let parts = span.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            return parts[0] + " " + parts[1].prefix { $0 != "?" && $0 != "[" }
        }
        #expect(documented == ServeRouter.table.map { $0.methods[0] + " " + $0.path })
    }

    @Test func theSummaryNamesAMethodOnlyWhereOnePathAnswersTwo() {
        #expect(ServeRouter.summary == "GET / (a board), /v1/prices, /v1/stream, /v1/history, /v1/candles, /v1/price, /v1/twap, /v1/board, POST / (Chainlink), /metrics, /healthz, /readyz")
    }

    @Test func aPathNoRouteHasIsA404ListingTheTableAndCountedAsUnknown() async throws {
        try await TemporaryDirectory.with { directory in
            let (router, metrics, lines) = try Self.router(#"{"plugins": [], "serve": {"token": "secret"}}"#, in: directory)
            let response = Self.response(router.answer(Self.request("GET", "/v2/prices")))
            #expect(response?.status == 404)
            let body = String(decoding: response?.body ?? [], as: UTF8.self)
            #expect(body.contains("routes: \(ServeRouter.summary)"))
            #expect(metrics.exposition(plugins: [], rateLimitWaits: [:], openConnections: 0, redis: nil)
                .contains(#"pricehost_http_requests_total{route="unknown",status="404"} 1"#))
            #expect(lines.all.count == 1 && lines.all[0].hasPrefix("pricehost: info: GET /v2/prices 404 "), "\(lines.all)")
        }
    }

    @Test func aMethodNoRouteOfThePathAnswersIs405WithAllowAfterTheTokenCheck() async throws {
        try await TemporaryDirectory.with { directory in
            let (router, _, _) = try Self.router(#"{"plugins": [], "serve": {"token": "secret"}}"#, in: directory)
            // "/" answers GET and HEAD (the board, no token) and POST (Chainlink, with the token).
            #expect(Self.response(router.answer(Self.request("PUT", "/")))?.status == 401)
            let allowed = Self.response(router.answer(Self.request("PUT", "/", headers: [("authorization", "Bearer secret")])))
            #expect(allowed?.status == 405)
            #expect(Self.header(allowed, "Allow") == "GET, HEAD, POST")
            // /healthz needs no token: its 405 comes without one.
            let health = Self.response(router.answer(Self.request("POST", "/healthz")))
            #expect(health?.status == 405)
            #expect(Self.header(health, "Allow") == "GET, HEAD")
        }
    }

    @Test func theTokenIsCheckedOnlyWhereTheRouteNeedsItAnd401sAreCounted() async throws {
        try await TemporaryDirectory.with { directory in
            let (router, metrics, _) = try Self.router(#"{"plugins": [], "serve": {"token": "secret"}}"#, in: directory)
            #expect(Self.response(router.answer(Self.request("GET", "/healthz")))?.status == 200)
            #expect(Self.response(router.answer(Self.request("GET", "/")))?.status == 200)
            let refused = Self.response(router.answer(Self.request("GET", "/readyz", headers: [("authorization", "Bearer wrong")])))
            #expect(refused?.status == 401)
            #expect(Self.header(refused, "WWW-Authenticate") == "Bearer")
            #expect(Self.response(router.answer(Self.request("GET", "/readyz", headers: [("authorization", "Bearer secret")])))?.status == 200)
            let text = metrics.exposition(plugins: [], rateLimitWaits: [:], openConnections: 0, redis: nil)
            #expect(text.contains(#"pricehost_http_requests_total{route="readyz",status="401"} 1"#))
            #expect(text.contains(#"pricehost_http_requests_total{route="readyz",status="200"} 1"#))
        }
    }

    @Test func withoutATokenEveryRouteIsOpen() async throws {
        try await TemporaryDirectory.with { directory in
            let (router, _, _) = try Self.router(#"{"plugins": []}"#, in: directory)
            #expect(Self.response(router.answer(Self.request("GET", "/readyz")))?.status == 200)
            #expect(Self.response(router.answer(Self.request("HEAD", "/metrics")))?.status == 200)
        }
    }
}
