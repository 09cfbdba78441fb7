import PriceHostCore
import ProviderABI

/// `pricehost fetch`: one quote per asset on stdout; each failure one line on stderr.
struct FetchCommand {
    let invocation: Invocation
    let service: QuoteService
    let output: @Sendable (String) -> Void
    let diagnostics: Diagnostics

    func run() async -> ExitStatus {
        // A plugin that failed to load is worth a warning, not a failed fetch:
        // the provider asked for may well be another one. `check` is strict.
        for failure in service.catalog.report.failures { diagnostics.warning(failure.description) }
        let config = service.config

        var routes: [QuoteService.Route] = []
        var routingStatus: ExitStatus?
        for asset in invocation.assets {
            do {
                routes.append(try service.route(asset: asset, explicitProviders: invocation.providers))
            } catch {
                // What the user typed is a usage error; what the config or a plugin says is not.
                diagnostics.error(error.description)
                switch error {
                case .unknownProvider, .noProvider: routingStatus = routingStatus ?? .usage
                case .config: routingStatus = .configOrPlugin
                }
            }
        }
        if let routingStatus { return routingStatus }

        let currency = invocation.currency ?? config.defaultCurrency
        if invocation.aggregateMedian { return await aggregate(routes, currency: currency) }
        let results = await service.fetch(routes, currency: currency)
        var quotes: [Quote] = []
        for result in results {
            switch result {
            case .success(let quote): quotes.append(quote)
            case .failure(let error): diagnostics.error("\(error)")
            }
        }
        if !quotes.isEmpty || invocation.format == .csv {
            for line in QuoteFormatter.lines(for: quotes, format: invocation.format) { output(line) }
        }
        if quotes.count == results.count { return .success }
        return quotes.isEmpty ? .fetchFailed : .partial
    }

    /// `--aggregate median`: every provider of each asset at once; the median, range and spread.
    private func aggregate(_ routes: [QuoteService.Route], currency: String) async -> ExitStatus {
        var aggregates: [AggregateQuote] = []
        for (result, leftOut) in await service.aggregate(routes, currency: currency) {
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
        if !aggregates.isEmpty || invocation.format == .csv {
            for line in AggregateFormatter.lines(for: aggregates, format: invocation.format) { output(line) }
        }
        if aggregates.count == routes.count { return .success }
        return aggregates.isEmpty ? .fetchFailed : .partial
    }
}
