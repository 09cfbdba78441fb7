import PriceHostCore
import ProviderABI

/// `pricehost fetch`: one quote per asset on stdout; each failure one line on stderr.
struct FetchCommand: LoadsPlugins {
    var plugins = PluginOptions()
    var quotes = QuoteOptions()
    /// `--format`.
    var format = Invocation.Format.text

    func run(in context: CommandContext) async -> ExitStatus {
        guard let config = context.loadConfig(for: self) else { return .configOrPlugin }
        let host = context.makeHost(config: config, plugins: plugins)
        // A fetch loads plugins only until the providers it routes to are loaded. Two plugins
        // with one provider name: it takes the first in config order.
        let currency = quotes.currency ?? config.defaultCurrency
        host.catalog.load(until: QuoteService.providersNeeded(for: quotes.assets, currency: currency, explicitProviders: quotes.providers, config: config))
        let service = QuoteService(container: host.container, catalog: host.catalog, warn: { [diagnostics = context.diagnostics] in diagnostics.warning($0) })
        return context.status(await fetch(service, context), fetchingWith: host.container)
    }

    private func fetch(_ service: QuoteService, _ context: CommandContext) async -> ExitStatus {
        let output = context.output, diagnostics = context.diagnostics
        // A plugin that failed to load is worth a warning, not a failed fetch:
        // the provider asked for may well be another one. `check` is strict.
        for failure in service.catalog.report.failures { diagnostics.warning(failure.description) }
        let config = service.config

        let routing = service.routes(for: quotes.assets, explicitProviders: quotes.providers)
        var routingStatus: ExitStatus?
        for (_, error) in routing.failures {
            // What the user typed is a usage error; what the config or a plugin says is not.
            diagnostics.error(error.message(providersNamedBy: QuoteOptions.providerSource))
            switch error {
            case .unknownProvider, .noProvider: routingStatus = routingStatus ?? .usage
            case .config: routingStatus = .configOrPlugin
            }
        }
        if let routingStatus { return routingStatus }
        let routes = routing.routes

        let currency = quotes.currency ?? config.defaultCurrency
        if quotes.aggregateMedian { return await aggregate(routes, currency: currency, service, context) }
        let results = await service.fetch(routes, currency: currency, maxAge: quotes.maxAge)
        var quotes: [Quote] = []
        for result in results {
            switch result {
            case .success(let quote): quotes.append(quote)
            case .failure(let error): diagnostics.error("\(error)")
            }
        }
        if !quotes.isEmpty || format == .csv {
            for line in QuoteFormatter.lines(for: quotes, format: format, at: context.clock.wallNow) { output(line) }
        }
        if quotes.count == results.count { return .success }
        return quotes.isEmpty ? .fetchFailed : .partial
    }

    /// `--aggregate median`: every provider of each asset at once; the median, range and spread.
    private func aggregate(_ routes: [QuoteService.Route], currency: String, _ service: QuoteService,
                           _ context: CommandContext) async -> ExitStatus {
        let output = context.output, diagnostics = context.diagnostics
        var aggregates: [AggregateQuote] = []
        for (result, leftOut) in await service.aggregate(routes, currency: currency, maxAge: quotes.maxAge) {
            for warning in AggregateQuote.sourceWarnings(for: result, leftOut: leftOut) { diagnostics.warning(warning) }
            switch result {
            case .success(let aggregate):
                aggregates.append(aggregate)
                if let limit = service.config.assets[aggregate.asset]?.maxDeviationBps {
                    for source in aggregate.sources where aggregate.outliers.contains(source.provider) {
                        let deviation = AggregateQuote.rounded(AggregateQuote.deviation(of: source.amount, from: aggregate.median))
                        diagnostics.warning("\(source.provider): \(aggregate.asset)-\(aggregate.currency) \(DecimalAmount.format(source.amount)) deviates from the median \(DecimalAmount.format(aggregate.median)) by \(DecimalAmount.format(deviation)) bps, more than assets.\(aggregate.asset).maxDeviationBps (\(limit))")
                    }
                }
            case .failure(let failure):
                diagnostics.error(failure.description)
            }
        }
        if !aggregates.isEmpty || format == .csv {
            for line in AggregateFormatter.lines(for: aggregates, format: format) { output(line) }
        }
        if aggregates.count == routes.count { return .success }
        return aggregates.isEmpty ? .fetchFailed : .partial
    }
}
