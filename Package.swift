// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "pricehost",
    products: [
        .executable(name: "pricehost", targets: ["PriceHostCLI"]),
        // The container, for packages that want it without the rest.
        .library(name: "Injection", targets: ["Injection"]),
        // What an out-of-tree Swift plugin depends on.
        .library(name: "ProviderABI", targets: ["ProviderABI"]),
        // Built-in plugins: each is a shared library the host dlopen()s.
        .library(name: "FileProvider", type: .dynamic, targets: ["FileProvider"]),
        .library(name: "PegProvider", type: .dynamic, targets: ["PegProvider"]),
        .library(name: "CoinbaseProvider", type: .dynamic, targets: ["CoinbaseProvider"]),
        // Running child processes, for the host's probes, the tests and the benchmarks.
        .library(name: "ChildProcesses", targets: ["ChildProcesses"]),
        // Test support, shared by the test targets and the benchmarks package: not for users.
        .library(name: "PriceHostTesting", targets: ["PriceHostTesting"]),
        .library(name: "KrakenProvider", type: .dynamic, targets: ["KrakenProvider"]),
        // The markets a median asks by default (issue 13); kraken is in C.
        .library(name: "BitstampProvider", type: .dynamic, targets: ["BitstampProvider"]),
        .library(name: "GeminiProvider", type: .dynamic, targets: ["GeminiProvider"]),
        .library(name: "BinanceProvider", type: .dynamic, targets: ["BinanceProvider"]),
        .library(name: "CoinGeckoProvider", type: .dynamic, targets: ["CoinGeckoProvider"]),
    ],
    targets: [
        // The plugin ABI: one C header, and its Swift face for plugin authors.
        .target(name: "CProviderABI"),
        .target(name: "ProviderABI", dependencies: ["CProviderABI"]),

        // Locks shared by the container, the host and the transport.
        .target(name: "ConcurrencyHelpers"),
        // The container knows nothing of prices or plugins.
        .target(name: "Injection", dependencies: ["ConcurrencyHelpers"]),

        // posix_spawn with pipes, a deadline and process groups; Glibc only.
        .target(name: "CChildProcess"),
        .target(name: "ChildProcesses", dependencies: ["CChildProcess", "ConcurrencyHelpers"]),

        // The slice of libcurl's C API the host uses: declarations only; libcurl is dlopen()ed, never linked.
        .target(name: "CCurl"),
        // The host, in layers that depend one way (docs/ARCHITECTURE.md):
        // the core: config, security, loader, adapters, quotes, diagnostics, durations;
        .target(name: "PriceHostCore", dependencies: ["ConcurrencyHelpers", "Injection", "ProviderABI", "CProviderABI"]),
        // the HTTP transport (libcurl, dlopen()ed) and each provider's policy around it;
        .target(name: "PriceHostHTTP", dependencies: ["PriceHostCore", "ConcurrencyHelpers", "ProviderABI", "CCurl"]),
        // the quote store: SQLite (dlopen()ed, never linked), its writer, candles, the price at a time and TWAP;
        .target(name: "PriceHostStore", dependencies: ["PriceHostCore", "ConcurrencyHelpers", "ProviderABI"]),
        // <sys/epoll.h> and <sys/eventfd.h>, which Swift's Glibc module leaves out: serve's event loops (libc; nothing linked).
        .target(name: "CEventPoll"),
        // the service: serve, and the Redis fleet;
        // The board's script and style are .js and .css files, embedded at build time as bytes (no bundle, no Foundation).
        .target(name: "PriceHostService", dependencies: ["PriceHostCore", "PriceHostStore", "ConcurrencyHelpers", "Injection", "ProviderABI", "CEventPoll"],
                resources: [.embedInCode("Serve/Board/chart.js"), .embedInCode("Serve/Board/board.js"), .embedInCode("Serve/Board/board.css")]),
        // the commands, their output and the wiring; and the thin main.
        .target(name: "PriceHost", dependencies: ["PriceHostCore", "PriceHostStore", "PriceHostHTTP", "PriceHostService", "ChildProcesses",
                                                 "ConcurrencyHelpers", "Injection", "ProviderABI", "CProviderABI"]),
        .executableTarget(name: "PriceHostCLI", dependencies: ["PriceHost"]),

        // The file provider: a library the tests can link, and the exported plugin.
        .target(name: "FileProviderLibrary", dependencies: ["ConcurrencyHelpers", "ProviderABI"], path: "Plugins/FileProvider/Library"),
        .target(name: "FileProvider", dependencies: ["FileProviderLibrary", "ProviderABI"], path: "Plugins/FileProvider/Export"),
        // The Coinbase provider, split the same way.
        .target(name: "CoinbaseProviderLibrary", dependencies: ["ProviderABI"], path: "Plugins/CoinbaseProvider/Library"),
        .target(name: "CoinbaseProvider", dependencies: ["CoinbaseProviderLibrary", "ProviderABI"], path: "Plugins/CoinbaseProvider/Export"),
        // The markets, split the same way.
        .target(name: "BitstampProviderLibrary", dependencies: ["ProviderABI"], path: "Plugins/BitstampProvider/Library"),
        .target(name: "BitstampProvider", dependencies: ["BitstampProviderLibrary", "ProviderABI"], path: "Plugins/BitstampProvider/Export"),
        .target(name: "GeminiProviderLibrary", dependencies: ["ProviderABI"], path: "Plugins/GeminiProvider/Library"),
        .target(name: "GeminiProvider", dependencies: ["GeminiProviderLibrary", "ProviderABI"], path: "Plugins/GeminiProvider/Export"),
        .target(name: "BinanceProviderLibrary", dependencies: ["ProviderABI"], path: "Plugins/BinanceProvider/Library"),
        .target(name: "BinanceProvider", dependencies: ["BinanceProviderLibrary", "ProviderABI"], path: "Plugins/BinanceProvider/Export"),
        .target(name: "CoinGeckoProviderLibrary", dependencies: ["ProviderABI"], path: "Plugins/CoinGeckoProvider/Library"),
        .target(name: "CoinGeckoProvider", dependencies: ["CoinGeckoProviderLibrary", "ProviderABI"], path: "Plugins/CoinGeckoProvider/Export"),
        // A plugin in plain C, proving the boundary is language-neutral.
        .target(name: "PegProvider", dependencies: ["CProviderABI"], path: "Plugins/PegProvider"),
        // Kraken's ticker in C on the host's JSON services (ABI 1.2), and its WebSocket feed (ABI 1.3).
        .target(name: "KrakenProvider", dependencies: ["CProviderABI"], path: "Plugins/KrakenProvider"),

        // Shared by the test targets: temporary directories, running the built binary, compiling C plugins.
        .target(name: "PriceHostTesting", dependencies: ["ChildProcesses", "CChildProcess", "ConcurrencyHelpers", "ProviderABI"], path: "Tests/PriceHostTesting"),
        // Swift Testing traits for the test targets (running a suite off the cooperative pool), apart for the same reason.
        .target(name: "PriceHostTestTraits", dependencies: ["PriceHostTesting"], path: "Tests/PriceHostTestTraits"),
        // Seeded, bounded fuzzing on Swift Testing, apart so that PriceHostTesting links without it.
        .target(name: "PriceHostFuzzing", dependencies: ["ProviderABI"], path: "Tests/PriceHostFuzzing"),
        .testTarget(name: "InjectionTests", dependencies: ["Injection", "ConcurrencyHelpers"]),
        .testTarget(name: "ProviderABITests", dependencies: ["ProviderABI", "PriceHostTesting", "PriceHostTestTraits", "PriceHostFuzzing"]),
        .testTarget(name: "FileProviderTests", dependencies: ["FileProviderLibrary", "ProviderABI", "PriceHostTesting", "PriceHostTestTraits", "PriceHostFuzzing"]),
        .testTarget(name: "CoinbaseProviderTests", dependencies: ["CoinbaseProviderLibrary", "ProviderABI", "Injection", "PriceHostTesting", "PriceHostTestTraits", "PriceHostFuzzing"]),
        .testTarget(name: "BitstampProviderTests", dependencies: ["BitstampProviderLibrary", "ProviderABI", "PriceHostTesting", "PriceHostTestTraits", "PriceHostFuzzing"]),
        .testTarget(name: "GeminiProviderTests", dependencies: ["GeminiProviderLibrary", "ProviderABI", "PriceHostTesting", "PriceHostTestTraits", "PriceHostFuzzing"]),
        .testTarget(name: "BinanceProviderTests", dependencies: ["BinanceProviderLibrary", "ProviderABI", "PriceHostTesting", "PriceHostTestTraits", "PriceHostFuzzing"]),
        .testTarget(name: "CoinGeckoProviderTests", dependencies: ["CoinGeckoProviderLibrary", "ProviderABI", "PriceHostTesting", "PriceHostTestTraits", "PriceHostFuzzing"]),
        // The host's tests, one target per layer, each beside what it tests.
        .testTarget(name: "PriceHostCoreTests", dependencies: ["PriceHostCore", "ConcurrencyHelpers", "ProviderABI", "CProviderABI", "Injection", "PriceHostTesting", "PriceHostTestTraits", "PriceHostFuzzing"]),
        .testTarget(name: "PriceHostHTTPTests", dependencies: ["PriceHostHTTP", "PriceHostCore", "ConcurrencyHelpers", "ProviderABI", "Injection", "PriceHostTesting", "PriceHostTestTraits", "PriceHostFuzzing", "ChildProcesses"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "PriceHostStoreTests", dependencies: ["PriceHostStore", "PriceHostCore", "ProviderABI", "PriceHostTesting", "PriceHostTestTraits"]),
        .testTarget(name: "PriceHostServiceTests", dependencies: ["PriceHostService", "PriceHostStore", "PriceHostCore", "ConcurrencyHelpers", "ProviderABI", "Injection", "PriceHostTesting", "PriceHostTestTraits", "PriceHostFuzzing"]),
        // The executable layer: commands, wiring, and tests that go through the composition root.
        .testTarget(name: "PriceHostTests", dependencies: ["PriceHost", "PriceHostStore", "PriceHostCore", "PriceHostHTTP", "PriceHostService", "ChildProcesses", "ConcurrencyHelpers", "ProviderABI", "CProviderABI", "Injection", "PriceHostTesting", "PriceHostTestTraits", "PriceHostFuzzing"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["PriceHostTesting", "PriceHostTestTraits"],
            exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
