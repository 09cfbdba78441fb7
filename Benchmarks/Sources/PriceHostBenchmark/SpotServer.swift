import PriceHostTesting

/// A Coinbase-shaped spot-price server on 127.0.0.1, inside the benchmark process:
/// `GET /v2/prices/BASE-QUOTE/spot` answers
/// `{"data":{"base":"BASE","currency":"QUOTE","amount":"91234.56"}}` after the
/// server's delay; anything else is a 404 in Coinbase's error shape. It is the
/// tests' ``LoopbackHTTPServer`` with a Coinbase handler.
final class SpotServer: Sendable {
    /// The amount every answer carries; the benchmark checks pricehost printed it.
    static let amount = "91234.56"

    private let server: LoopbackHTTPServer

    var baseURL: String { server.baseURL }
    /// Requests received so far, on every path.
    var requestCount: Int { server.requestCounts.values.reduce(0, +) }
    /// The most requests it was answering at one moment.
    var peakConcurrentRequests: Int { server.peakConcurrentRequests }

    /// Listens on an ephemeral port of 127.0.0.1 and starts accepting.
    /// - Parameter delayMilliseconds: how long to wait before answering each request.
    init(delayMilliseconds: Int) throws {
        let delay = Double(max(0, delayMilliseconds)) / 1000
        do {
            server = try LoopbackHTTPServer { request, _ in
                let (status, body) = Self.answer(to: request.path)
                return LoopbackHTTPServer.Reply(status: status, headers: [("Content-Type", "application/json")], body: body, delay: delay)
            }
        } catch {
            throw BenchmarkError("loopback server: \(error)")
        }
    }

    func stop() {
        server.stop()
    }

    /// The status and the body for `target` (the path of the request line).
    static func answer(to target: String) -> (status: Int, body: String) {
        let parts = target.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 5, parts[0].isEmpty, parts[1] == "v2", parts[2] == "prices", parts[4] == "spot" {
            let pair = parts[3].split(separator: "-")
            if pair.count == 2, pair.allSatisfy(isCode) {
                return (200, #"{"data":{"base":"\#(pair[0])","currency":"\#(pair[1])","amount":"\#(amount)"}}"#)
            }
        }
        return (404, #"{"errors":[{"id":"not_found","message":"Not found"}]}"#)
    }

    private static func isCode(_ text: Substring) -> Bool {
        (2...10).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
