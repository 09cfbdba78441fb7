import ConcurrencyHelpers
import PriceHostCore

/// One open connection of a ``FeedGroup``: the WebSocket, the pairs it subscribed to,
/// and why the host closed it, when it did (so its end is not reported twice).
final class FeedLink: Sendable {
    let id: Int
    let connection: WebSocketConnection
    let pairs: StreamPairs
    /// Reads its messages, on the connection's thread.
    let reader: FeedReader
    let openedAt: ContinuousClock.Instant
    private let closing = Lock<String?>(nil)

    init(id: Int, connection: WebSocketConnection, pairs: StreamPairs, reader: FeedReader, openedAt: ContinuousClock.Instant) {
        self.id = id
        self.connection = connection
        self.pairs = pairs
        self.reader = reader
        self.openedAt = openedAt
    }

    /// Why the host closed it, if it did.
    var closedBecause: String? { closing.withLock { $0 } }

    /// Notes why the host is closing it (the first reason given stays).
    func noteClosing(because reason: String) {
        closing.withLock { $0 = $0 ?? reason }
    }

    /// Closes the connection, noting why; the reader then reports its end.
    func close(because reason: String, code: WebSocketCloseCode = .normalClosure) async {
        noteClosing(because: reason)
        await connection.close(code: code, reason: "")
    }
}

/// What a ``FeedGroup``'s loop reacts to, from its readers, timers and watchdog.
enum FeedSignal: Sendable {
    /// A connection opened and subscribed; `handover` when it is to replace the active one.
    case opened(FeedLink, handover: Bool)
    /// Opening failed.
    case openFailed(String, handover: Bool)
    /// Time to try again.
    case retry(handover: Bool)
    /// A connection's first price or heartbeat arrived.
    case live(FeedLink)
    /// A connection ended.
    case ended(FeedLink, String)
    /// The venue reported an error on a connection.
    case venueError(FeedLink, String)
    /// The venue asked to reconnect, or the connection reached its lifetime: hand over.
    case handover(FeedLink, String)
    /// The group's pairs changed.
    case pairsChanged
    /// No price or heartbeat for `staleAfterSeconds`: close the connections, saying why.
    case stale(String)
    /// The group is stopping.
    case stop
}
