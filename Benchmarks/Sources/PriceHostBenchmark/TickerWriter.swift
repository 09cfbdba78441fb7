/// Where the venue's frames go: one connection (``VenueConnection``), or every open one (``FleetVenue``).
protocol TickerSink: Sendable {
    /// Writes `bytes` (whole frames), blocking until taken; false when no client took them.
    func send(_ bytes: UnsafeRawBufferPointer) -> Bool
}

/// The venue's side of a stream run: numbers tickers (``TickerFrames``), writes them to a
/// ``TickerSink`` and notes when each was written (``SendTimes``), which the SSE clients
/// subtract from their receipt of its event.
final class TickerWriter {
    /// Tickers sent before every client is known to be subscribed, at most: ``SendTimes`` keeps
    /// room for them and the timed ones.
    static let maximumWarmUp = 5_000

    let sink: any TickerSink
    let sendTimes: SendTimes
    private var frames = TickerFrames()
    private var batch: [UInt8] = []
    /// The next ticker number to send.
    private(set) var next = 0

    init(_ sink: any TickerSink, sendTimes: SendTimes) {
        self.sink = sink
        self.sendTimes = sendTimes
    }

    /// Writes ticker ``next``, noting when.
    func sendOne() {
        frames.stamp(next)
        sendTimes[next] = Monotonic.nanoseconds()
        _ = frames.frame.withUnsafeBytes { sink.send($0) }
        next += 1
    }

    /// Writes tickers ``next`` to `last` in one write (no send times noted).
    func sendBatch(through last: Int) {
        batch.removeAll(keepingCapacity: true)
        while next <= last {
            frames.append(next, to: &batch)
            next += 1
        }
        _ = batch.withUnsafeBytes { sink.send($0) }
    }
}
