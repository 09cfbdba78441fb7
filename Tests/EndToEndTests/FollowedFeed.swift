import Foundation
import PriceHostTesting

/// `serve` recording coinbase's feed from a loopback venue: the venue plays its steps once subscribed
/// to, the sandbox's config streams from it, and a client follows BTC on `/v1/stream` (a feed runs,
/// and is recorded, while a client follows it).
struct FollowedFeed {
    let venue: StreamVenue
    let sandbox: StoreSandbox
    let server: ServeProcess
    let follower: LoopbackHTTPConnection

    /// Runs `body` with a venue playing `steps` after the subscriptions message; stops and removes it all after.
    static func with<Result>(_ steps: [StreamVenue.Step], _ body: (FollowedFeed) throws -> Result) async throws -> Result {
        let venue = try await StreamVenue.start([[.waitMessage, .send(CoinbaseFeed.subscriptions)] + steps + [.hold]])
        defer { venue.stop() }
        let sandbox = try StoreSandbox(streamURL: venue.url())
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox.sandbox)
        defer { server.stop() }
        let follower = try server.connect()
        try follower.send("GET /v1/stream?asset=BTC&provider=coinbase HTTP/1.1\r\nHost: x\r\n\r\n")
        return try body(FollowedFeed(venue: venue, sandbox: sandbox, server: server, follower: follower))
    }
}
