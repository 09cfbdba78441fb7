import PriceHostCore
import PriceHostHTTP
import PriceHostService

/// `pricehost serve`: prices over HTTP for deployments (README, "Serve").
///
/// Loads every plugin, listens (`--listen`, else `serve.listen`, else 127.0.0.1:8480),
/// answers until SIGTERM or SIGINT, then stops accepting, lets requests in flight
/// finish (at most 5 s), ends SSE streams and exits 0. SIGHUP re-reads the config and
/// the plugin directories; a config that cannot be used is refused in one line and
/// the previous one keeps serving. The application itself is ``ServeApplication``.
struct ServeCommand: LoadsPlugins {
    var plugins = PluginOptions()
    /// `--listen HOST:PORT`: overrides `serve.listen`.
    var listen: ListenAddress?

    func run(in context: CommandContext) async -> ExitStatus {
        guard let config = context.loadConfig(for: self) else { return .configOrPlugin }
        // The access log is at info: on unless PRICEHOST_LOG asks for less.
        let serving = context.environment["PRICEHOST_LOG"] == nil && context.diagnostics === Diagnostics.process
            ? context.with(diagnostics: Diagnostics(threshold: .info)) : context
        var options = ServeApplication.Options(listen: listen, environment: serving.environment, diagnostics: serving.diagnostics)
        options.signals = context.signals
        options.stopsChildren = true
        options.webhookPoster = CurlWebhookPoster(libcurl: context.environment["PRICEHOST_LIBCURL"] ?? LibCurl.defaultName)
        let application = ServeApplication(config: config, assembly: ServeWiring(plugins: plugins, context: serving), options: options)
        switch await application.run() {
        case .stopped: return .success
        case .refused: return .configOrPlugin
        case .listenFailed: return .listenFailed
        }
    }
}
