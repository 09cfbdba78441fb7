import Injection
import Testing

/// The tests that use ``Container/root`` or ``Container/main``, which are one per process:
/// serialized, so that one test's mock root is never another's.
@Suite(.serialized)
enum RootContainerSuite {}

/// Counts runs of the registration hook below.
let registrationHookRuns = Counter()

/// What the hook registers into `Container.main`.
final class AppClock: Sendable {
    let now = 1_700_000_000
}

// Resolver's `extension Resolver: ResolverRegistering` (one per process, so here, once).
extension Container: ContainerRegistering {
    public static func registerAllServices() {
        registrationHookRuns.increment()
        main.register { AppClock() }.scope(.application)
        main.register { HTTPNetworking() }.implements(Networking.self).scope(.application)
        main.register { r in BitcoinPriceFetcher(networking: try r.resolve()) }
            .implements(PriceFetcher.self, name: "coinbase/BTC")
    }
}

/// Runs `body` with `Container.root` replaced by `root`, and puts `.main` back.
func withRoot<Result>(_ root: Container, _ body: () throws -> Result) rethrows -> Result {
    Container.root = root
    defer { Container.root = .main }
    return try body()
}

/// True when the text the exit test captured contains `text`.
func standardError(_ result: ExitTest.Result?, contains text: String) -> Bool {
    guard let bytes = result?.standardErrorContent else {
        return false
    }
    return String(decoding: bytes, as: UTF8.self).contains(text)
}
