import PriceHostCore
import ProviderABI

/// `pricehost providers`: the loaded plugins, their versions, paths and
/// fetchers, and the plugins that failed with why.
struct ProvidersCommand {
    let invocation: Invocation
    let report: PluginLoadReport
    let output: @Sendable (String) -> Void

    func run() -> ExitStatus {
        for line in ProvidersFormatter.lines(for: report, format: invocation.format) { output(line) }
        return .success
    }
}
