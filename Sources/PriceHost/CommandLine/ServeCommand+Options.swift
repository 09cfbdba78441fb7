import PriceHostService

/// What `serve` takes.
extension ServeCommand {
    static let configuration = CommandConfiguration(
        name: "serve",
        summary: "answer prices over HTTP until stopped; SIGHUP reloads the config",
        usage: [
            // The routes from serve's route table: the man page and the usage note follow it.
            UsageLine("[--listen]", note: "HTTP: " + ServeRouter.summary),
        ])

    static let options: [Option<ServeCommand>] = [
        .config(\.plugins),
        Option("--listen", value: "HOST:PORT", synopsis: "HOST:PORT (default 127.0.0.1:8480)", help: nil,
               manual: "(serve) the address to listen on, IPV4:PORT or localhost:PORT; default 127.0.0.1:8480") { serve, value throws(UsageError) in
            guard let address = ListenAddress(value) else { throw UsageError("--listen \(ListenAddress.rule(value))") }
            serve.listen = address
        },
        .allowInsecurePlugins(\.plugins),
    ]
}
