import PriceHostCore
import PriceHostStore

/// `pricehost history`: what the quote store kept of one asset (`docs/history.md`): its candles, the price at a
/// time (`--at`), or a time-weighted average (`--twap`), read from the store the config names, else the default one.
///
/// The store is only read: a store that is not there is said in one line, and nothing is made. The question is the
/// one `/v1/candles`, `/v1/price` and `/v1/twap` answer, and so are the failures: bad input (a 400 there) is a usage
/// error naming the option (2); no price (404) or a store that cannot be read (503) is one line and 1.
/// It loads no plugin, and runs before Swift concurrency starts.
struct HistoryCommand: SynchronousCommand {
    /// Only its `--config`: history loads no plugin.
    var plugins = PluginOptions()
    /// `--format`.
    var format = Invocation.Format.text
    // The options as typed; validate() checks them together and makes `query`.
    var asset: String?
    var currency: String?
    var provider: String?
    var aggregate: String?
    var interval: String?
    var from: String?
    var to: String?
    var fill: String?
    var at: String?
    var twap: String?
    /// What the options ask, once validated.
    var query: HistoryQuery?

    func run(in context: CommandContext) -> ExitStatus {
        guard let query else { return .usage }
        guard let config = context.loadConfig(path: plugins.configPath) else { return .configOrPlugin }
        let store: QuoteStore
        switch Self.openStore(config: config, context) {
        case .success(let opened): store = opened
        case .failure(let unavailable):
            context.diagnostics.error(unavailable.description)
            return unavailable.status
        }
        switch store.answer(query, config: config, now: HistoryQuery.milliseconds(context.clock.wallNow)) {
        case .success(let result):
            for line in HistoryFormatter.lines(for: result, format: format) { context.output(line) }
            return .success
        case .failure(let failure):
            guard failure.status == 400 else {
                // 404: no price, no quotes; 503: the file cannot be read. Either way nothing could be had, as a failed fetch.
                context.diagnostics.error(failure.message)
                return .fetchFailed
            }
            // 400: a parameter the store refuses, which the message names: the option instead, as validate() does.
            context.diagnostics.error(failure.parameter.map { Self.usageError(failure.message, parameter: $0).description } ?? failure.message)
            return .usage
        }
    }

    /// The config's store (or the default one), opened only to read: nothing is made where there is none.
    static func openStore(config: Config, _ context: CommandContext) -> Result<QuoteStore, StoreUnavailable> {
        let settings: StoreSettings
        switch context.storeSettings(config: config, for: configuration.name) {
        case .success(let found): settings = found
        case .failure(let unavailable): return .failure(unavailable)
        }
        do throws(QuoteStore.ReadOnlyOpenError) {
            return .success(try QuoteStore.openForReading(settings))
        } catch {
            switch error {
            case .libraryMissing, .directory:
                // A broken install, as a missing libcurl is for fetch; a path no store can be at, as serve refuses it.
                return .failure(StoreUnavailable(status: .configOrPlugin, description: "history: \(error)"))
            case .noFile:
                return .failure(StoreUnavailable(status: .fetchFailed, description: "\(error) (serve or watch --record make it)"))
            }
        }
    }
}
