import Dispatch
import Foundation
import Synchronization

/// The stream venue for a fleet of servers (``StreamFleet``): a ``StreamVenue`` that accepts
/// every connection on a thread of its own and keeps them, counts them (in total, and the
/// most open at once), and writes each ticker to every open one, so that the case sees
/// whether the instances ever hold more than one feed, and a second feed would still be fed.
final class FleetVenue: TickerSink, Sendable {
    let venue: StreamVenue
    private struct State {
        var connections: [VenueConnection] = []
        var mostOpen = 0
        var problems: [String] = []
    }
    private let state = Mutex(State())
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    var url: String { venue.url }

    /// Listens on an ephemeral port of 127.0.0.1 and starts accepting.
    init() throws {
        venue = try StreamVenue()
        Thread.detachNewThread { [self] in
            acceptAll()
            finished.signal()
        }
    }

    /// Connections accepted (and upgraded) so far.
    var accepted: Int { state.withLock { $0.connections.count } }

    /// Connections open now.
    var open: Int { state.withLock { $0.connections.filter(\.isOpen).count } }

    /// The most connections that were open at once, counted at each accept. A connection
    /// counts as closed once its reader saw the end, within microseconds of the client's close.
    var mostOpenAtOnce: Int { state.withLock { $0.mostOpen } }

    /// Connections that could not be upgraded, or an `accept` that failed.
    var problems: [String] { state.withLock { $0.problems } }

    /// Writes `bytes` to every open connection; true when at least one took them all.
    func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let open = state.withLock { $0.connections.filter(\.isOpen) }
        var taken = false
        for connection in open {
            if connection.send(bytes) { taken = true }
        }
        return taken
    }

    /// Waits at most `seconds` until a connection is open.
    func waitForConnection(within seconds: Double) throws {
        let deadline = Monotonic.nanoseconds() + UInt64(seconds * 1e9)
        while open == 0 {
            guard Monotonic.nanoseconds() < deadline else {
                let problems = problems.map { "\n  " + $0 }.joined()
                throw BenchmarkError("stream-fleet venue: no instance connected to \(url) within \(Int(seconds)) s\(problems)")
            }
            usleep(1_000)
        }
    }

    /// Stops accepting (within 15 s: the poll's 0.1 s, or an upgrade's 10 s receive timeout) and
    /// closes every connection; after the instances stopped.
    func stop() {
        stopping.store(true, ordering: .releasing)
        _ = finished.wait(timeout: .now() + 15)
        for connection in state.withLock({ $0.connections }) { connection.close() }
    }

    private func acceptAll() {
        while !stopping.load(ordering: .acquiring) {
            do {
                guard let connection = try venue.acceptIfConnecting(within: 0.1) else { continue }
                state.withLock { state in
                    state.connections.append(connection)
                    state.mostOpen = max(state.mostOpen, state.connections.filter(\.isOpen).count)
                }
            } catch {
                state.withLock { $0.problems.append("\(error)") }
                // A failing accept (out of descriptors, say) fails again at once: not a busy loop.
                usleep(10_000)
            }
        }
    }
}
