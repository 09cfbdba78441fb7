/// One run of `pricehost serve` streaming Coinbase's feed from the case's own venue:
/// the venue, the server (``StreamServer``), its SSE clients, and the venue's connection
/// once the first client made the feed subscribe.
final class StreamSession: StreamRun {
    let venue: StreamVenue
    let server: StreamServer
    let clients: StreamClients
    let connection: VenueConnection
    let writer: TickerWriter
    let label = "stream"
    var servers: [StreamServer] { [server] }
    var clientGroups: [StreamClients] { [clients] }

    /// Starts the venue and the server, connects `clientCount` SSE clients read by `threads` threads,
    /// and waits for the feed to subscribe and every client to have its head.
    /// - Parameters:
    ///   - timed: how many tickers will be timed: send times are kept for the warm-up and them.
    ///   - store: the server's `store` section, JSON (``StreamServer/storeOff`` unless given).
    init(_ context: BenchmarkContext, name: String, clientCount: Int, threads: Int, timed: Int, store: String = StreamServer.storeOff) throws {
        venue = try StreamVenue()
        server = try StreamServer(context, name: name, venue: venue.url, maxConnections: clientCount + 64, store: store)
        let sendTimes = SendTimes(capacity: TickerWriter.maximumWarmUp + timed)
        var reading: StreamClients?
        do {
            let made = try StreamClients(port: server.port, count: clientCount, threads: threads, sendTimes: sendTimes)
            made.start()
            reading = made
            clients = made
            connection = try venue.accept(within: 30)
            writer = TickerWriter(connection, sendTimes: sendTimes)
            try waitForHeads(within: 60)
        } catch {
            _ = reading?.stop()
            server.kill()
            throw error
        }
    }

    /// Stops the clients, then the server, then the venue; the latency samples (ns, sorted).
    func stop() -> [UInt64] {
        let samples = clients.stop()
        server.stop()
        connection.close()
        return samples
    }
}
