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
    /// Whether the recorder is closing, and how many quotes it queued.
    private let state = Lock((closed: false, recorded: 0))

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
                                                                      refusingUnwritable: true)))
        } catch {
            return .failure(StoreUnavailable(status: .configOrPlugin, description: "\(command): \(error)"))
        }
    }

    /// Queues `quote` for the store; false once the recorder is closing, and then the caller prints nothing.
    func record(_ quote: @autoclosure () -> StoredQuote) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            store.record(quote())
            state.recorded += 1
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
    /// (a success): "history holds exactly what was printed" no longer holds.
    func finish(_ status: ExitStatus, _ diagnostics: Diagnostics) -> ExitStatus {
        close()
        let recorded = state.withLock { $0.recorded }
        // Those written include quotes the store held already (kept once): never more than were recorded.
        let lost = recorded - min(store.writtenCount, recorded)
        guard lost > 0 else { return status }
        let reason = if case .degraded(let why) = store.currentStatus { ": \(why)" } else { "" }
        diagnostics.error("watch --record: \(lost) of the \(recorded) quotes printed could not be kept in the quote store \(store.settings.location)\(reason)")
        return status == .success ? .configOrPlugin : status
    }
}
