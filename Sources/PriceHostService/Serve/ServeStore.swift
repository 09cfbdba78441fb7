import FoundationEssentials
import PriceHostCore
import PriceHostStore
import ProviderABI

/// The quote store as `serve` has it: off by the config, unavailable (with why), or open.
/// Made once at start; a reload keeps it (a changed `store` section takes effect on restart).
package enum ServeStore: Sendable {
    /// `"store": {"enabled": false}`, or no default path (neither `XDG_STATE_HOME` nor `HOME` set).
    case off
    /// Wanted, but there is none: libsqlite3 is missing, or the default path cannot be made.
    case unavailable(String)
    case open(QuoteStore)

    /// The open store, if any.
    package var store: QuoteStore? {
        if case .open(let store) = self { return store }
        return nil
    }

    /// Whether a fleet's instances share this store (PostgreSQL): each quote is then written by the one
    /// instance that got it from upstream (the feed's holder, the fetch's lock holder), not by every
    /// instance it reached. A file (SQLite) is an instance's own, and keeps all it serves.
    package var isShared: Bool {
        store.map { !$0.readsLocally } ?? false
    }

    /// Opens the store `config` asks for. A path the config names that cannot be created is refused
    /// (`.failure`, a config error); anything else that stops the store is said once and served without.
    package static func open(_ config: Config, environment: [String: String], diagnostics: Diagnostics,
                             clock: any PriceClock) -> Result<ServeStore, ConfigError> {
        guard let settings = config.storeSettings(environment: environment) else {
            if !config.storeDisabled {
                diagnostics.warning("serving without a quote store: neither XDG_STATE_HOME nor HOME is set to give its default path; set store.url")
            }
            return .success(.off)
        }
        do throws(QuoteStore.OpenError) {
            return .success(.open(try QuoteStore.open(settings, diagnostics: diagnostics, clock: clock)))
        } catch {
            if case .cannotCreate = error, settings.isConfigured {
                return .failure(ConfigError(path: config.path, reason: "store.url: \(error.description)"))
            }
            diagnostics.warning("serving without a quote store: \(error.description)")
            return .success(.unavailable(error.description))
        }
    }

    /// What `/readyz` says of it (`"store"`), and whether that makes the instance degraded.
    var readiness: (text: String, degraded: Bool) {
        switch self {
        case .off: ("off", false)
        case .unavailable(let why): ("unavailable: \(why)", true)
        case .open(let store):
            switch store.currentStatus {
            case .ok: ("ok", false)
            case .degraded(let why): ("degraded: \(why)", true)
            }
        }
    }

    /// Keeps `quote`, got from `source` at `receivedAt`.
    func record(_ quote: Quote, amount: String, source: QuoteSource, receivedAt: Date) {
        store?.record(StoredQuote(quote, amount: amount, receivedAt: receivedAt, source: source))
    }

    /// Keeps a streamed quote, with the texts its event was written with.
    func record(_ update: StreamUpdate) {
        store?.record(StoredQuote(update))
    }

    /// Keeps a median serve computed, in the `aggregate=median` series.
    func record(median: AggregateQuote, receivedAt: Date) {
        store?.record(StoredQuote(median: median, receivedAt: receivedAt, source: .rest))
    }
}
