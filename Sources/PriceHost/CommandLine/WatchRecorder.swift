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
    private let closed = Lock(false)

    private init(store: QuoteStore) {
        self.store = store
    }

    /// Opens the store `config` names for writing (making its file and directory).
    /// - Returns: `.failure` saying why there is none: the store is off (2), a path that cannot be made or no
    ///   libsqlite3 (3, as a missing libcurl is for fetch: the run asked to record and cannot).
    static func open(config: Config, _ context: CommandContext) -> Result<WatchRecorder, StoreUnavailable> {
        let command = "watch --record"
        let settings: StoreSettings
        switch context.storeSettings(config: config, for: command) {
        case .success(let found): settings = found
        case .failure(let unavailable): return .failure(unavailable)
        }
        do throws(QuoteStore.OpenError) {
            return .success(WatchRecorder(store: try QuoteStore.open(settings, diagnostics: context.diagnostics, clock: context.clock)))
        } catch {
            return .failure(StoreUnavailable(status: .configOrPlugin, description: "\(command): \(error)"))
        }
    }

    /// Queues `quote` for the store; false once the recorder is closing, and then the caller prints nothing.
    func record(_ quote: @autoclosure () -> StoredQuote) -> Bool {
        closed.withLock { closed in
            guard !closed else { return false }
            store.record(quote())
            return true
        }
    }

    /// Writes what is queued and stops the store's writer: at the end of the run, or before a stop signal's exit.
    /// A second call waits for the first's writing as well.
    func close() {
        closed.withLock { $0 = true }
        store.close()
    }
}
