import ConcurrencyHelpers
import PriceHostCore
import PriceHostStore

/// `watch --record`: each quote and median `watch` prints, kept in the quote store the config names (or the default
/// one) as it is printed: a provider's quote in its provider's series, a median in the median's; `stream` for what a
/// feed pushed, `rest` for what was polled.
///
/// A line is printed only once its quote is queued (``record(_:)``), and ``close()`` writes everything queued before it
/// returns: so whatever `watch` printed is kept, however it ends (`--ticks`, SIGINT, SIGTERM).
final class WatchRecorder: Sendable {
    private let store: QuoteStore
    /// Whether the recorder is closing; how many quotes it queued, and the last of each series (a repeat of it, which
    /// the store keeps once, is not queued again); and what ``finish(_:_:)`` found, once it has.
    private let state = Lock(State())

    private struct State {
        var closed = false
        var recorded = 0
        var last: [SeriesKey: (timestamp: Int64, amount: String)] = [:]
        var finished: ExitStatus?
    }

    private init(store: QuoteStore) {
        self.store = store
    }

    /// Opens the store `config` names for writing (making its file and directory).
    /// - Returns: `.failure` saying why there is none: the store is off (2), a path that cannot be made, a file that
    ///   cannot be written (read-only, corrupt, not SQLite, a newer layout) or no libsqlite3 (3, as a missing libcurl
    ///   is for fetch: the run asked to record and cannot).
    static func open(config: Config, _ context: CommandContext) -> Result<WatchRecorder, StoreUnavailable> {
        let command = "watch --record"
        let settings: StoreSettings
        switch context.storeSettings(config: config, for: command) {
        case .success(let found): settings = found
        case .failure(let unavailable): return .failure(unavailable)
        }
        do throws(QuoteStore.OpenError) {
            return .success(WatchRecorder(store: try QuoteStore.open(settings, diagnostics: context.diagnostics, clock: context.clock,
                                                                      recorder: command)))
        } catch {
            return .failure(StoreUnavailable(status: .configOrPlugin, description: "\(command): \(error)"))
        }
    }

    /// Queues `quote` for the store; false once the recorder is closing, and then the caller prints nothing.
    func record(_ quote: @autoclosure () -> StoredQuote) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            let quote = quote()
            if let last = state.last[quote.series], last.timestamp == quote.timestamp, last.amount == quote.amount { return true }
            store.record(quote)
            state.recorded += 1
            state.last[quote.series] = (quote.timestamp, quote.amount)
            return true
        }
    }

    /// Writes what is queued and stops the store's writer: at the end of the run, or before a stop signal's exit.
    /// A second call waits for the first's writing as well.
    func close() {
        state.withLock { $0.closed = true }
        store.close()
    }

    /// Closes the store (``close()``); when it could not keep every quote printed (the disk filled, the file was made
    /// read-only, a server stayed down), says how many in one line, and the run ends with status 3 rather than `status`
    /// (a success): "history holds exactly what was printed" no longer holds. Quotes are counted once each: a line
    /// printed again for the same quote (a poll of a price that has not moved) is not queued again.
    /// Said once: a stop signal's exit and the run's own end may both call it; the second gets the first's status.
    func finish(_ status: ExitStatus, _ diagnostics: Diagnostics) -> ExitStatus {
        close()
        return state.withLock { state in
            if let finished = state.finished { return finished }
            // Written counts every quote of a batch committed, those the store held already too (kept once).
            let lost = state.recorded - min(store.writtenCount, state.recorded)
            var ending = status
            if lost > 0 {
                let reason = if case .degraded(let why) = store.currentStatus { ": \(why)" } else { "" }
                diagnostics.error("watch --record: \(lost) of the \(state.recorded) quotes printed could not be kept in the quote store \(store.settings.location)\(reason)")
                if status == .success { ending = .configOrPlugin }
            }
            state.finished = ending
            return ending
        }
    }
}
