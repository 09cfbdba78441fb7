import CProviderABI
import PriceHostCore

/// What `--help` and `--version` print.
enum HelpText {
    /// The version of pricehost.
    static var version: String { PriceHostVersion.text }

    /// `pricehost 0.1.0 (plugin ABI 1.0)`.
    static var versionLine: String {
        "pricehost \(version) (plugin ABI \(PRICEHOST_ABI_MAJOR).\(PRICEHOST_ABI_MINOR))"
    }

    /// The usage text.
    static let usage = """
        pricehost: a plugin-based price engine

        USAGE
          pricehost fetch --asset CODE[,CODE...] [--provider NAME[,NAME...]] [--currency CODE] [--format text|json|csv]
          pricehost watch --asset CODE[,CODE...] [--interval SECONDS (0.1 to 86400)] [--ticks N] [--provider NAME[,NAME...]] [--format json|csv|text]
          pricehost serve [--listen HOST:PORT (default 127.0.0.1:8480)]   HTTP: /v1/prices, /v1/stream, POST / (Chainlink), /metrics, /healthz, /readyz
          pricehost providers [--format text|json]
          pricehost check [--format text|json]
          pricehost check --plugin PATH [--config PATH]     conformance check of one plugin (PLUGINS.md)
          pricehost new-plugin NAME --language c|swift [--dir DIR]   write a plugin to start from (default DIR: ./NAME)
          pricehost --help | --version

        OPTIONS (every command takes --config)
          --config PATH     the config file; default: $PRICEHOST_CONFIG, ./plugins.json,
                            ~/.config/pricehost/plugins.json, /etc/pricehost/plugins.json
          --asset CODES     asset codes, comma-separated (2 to 10 letters or digits)
          --provider NAME   who answers; default: assets.CODE.provider, then defaults.provider
          --currency CODE   quote currency; default: defaults.currency, then USD
          --format FORMAT   text (default), json (one object per line) or csv
          --aggregate median  (fetch, watch) ask every provider of the asset at once (--provider a,b,c, else
                            assets.CODE.providers) and print the median, min, max and spread; a median of
                            one source comes with a warning saying why the others failed
          --allow-insecure-plugins
                            load plugin files others could replace (local development only)
          --language c|swift  (new-plugin) C with a Makefile (build: make), or a Swift package
                            (build: swift build -c release), on this installation's header or ProviderABI
          --dir DIR         (new-plugin) where to write it; must be new or empty

        EXIT STATUS
          0 success   1 fetch failed   2 usage error   3 config or plugin error
          4 some of several assets failed   5 serve cannot listen (address in use, …)

        ENVIRONMENT
          PRICEHOST_CONFIG        config file when --config is not given
          PRICEHOST_PLUGIN_PATH   extra directories (colon-separated) to find plugins named in "plugins"
          PRICEHOST_LOG           debug, info, warning (default) or error
        """
}
