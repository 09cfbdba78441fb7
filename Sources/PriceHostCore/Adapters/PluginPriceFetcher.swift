import CProviderABI
import Dispatch
import ProviderABI

/// A plugin's C fetcher seen as a ``PriceFetcher``: the host-side adapter
/// registered into the container under `provider` or `provider/ASSET`.
final class PluginPriceFetcher: PriceFetcher {
    package let provider: String
    package let pluginPath: String
    /// How long the host waits for the plugin's completion, while the plugin is
    /// not waiting on the host's own HTTP, before failing the fetch.
    let completionTimeout: Duration
    /// True while the plugin has an `http_get` in flight with the host.
    private let isWaitingOnHost: @Sendable () -> Bool
    private let function: CFetchFunction
    /// Where this plugin's late or repeated completions are reported.
    private let diagnostics: Diagnostics
    /// What the completion timeout is measured on.
    private let clock: any PriceClock

    init(provider: String, pluginPath: String, completionTimeout: Duration,
         isWaitingOnHost: @escaping @Sendable () -> Bool = { false }, function: CFetchFunction,
         diagnostics: Diagnostics = .process, clock: any PriceClock = SystemClock()) {
        self.provider = provider
        self.pluginPath = pluginPath
        self.completionTimeout = completionTimeout
        self.isWaitingOnHost = isWaitingOnHost
        self.function = function
        self.diagnostics = diagnostics
        self.clock = clock
    }

    /// Fails fetch `id` with `failure()` after `delay`, unless it completed; while the
    /// plugin waits on the host's HTTP (which has deadlines of its own) the wait starts again.
    private static func armDeadline(id: UInt, after delay: Duration, clock: any PriceClock, isWaitingOnHost: @escaping @Sendable () -> Bool,
                                    failure: @escaping @Sendable () -> QuoteFailure) {
        let deadline = FetchDeadline(after: delay, clock: clock) { deadline in
            guard PendingFetches.shared.isPending(id) else { return }
            if isWaitingOnHost() {
                deadline.restart()
                return
            }
            guard let waiter = PendingFetches.shared.take(id).waiter else { return }
            waiter.continuation.resume(throwing: failure())
        }
        PendingFetches.shared.attach(deadline, to: id)
    }

    package func fetchQuote(for request: QuoteRequest) async throws -> Quote {
        try await withCheckedThrowingContinuation { continuation in
            let id = PendingFetches.shared.add(PendingFetches.Waiter(
                continuation: continuation, provider: provider, pluginPath: pluginPath,
                request: request, diagnostics: diagnostics))
            let seconds = completionTimeout.components.seconds
            Self.armDeadline(id: id, after: completionTimeout, clock: clock, isWaitingOnHost: isWaitingOnHost) { [provider, pluginPath] in
                QuoteFailure(provider: provider, request: request, code: .noCompletion,
                             message: "plugin \(pluginPath) never called the fetch completion for \(request.pair) (waited \(seconds) s: timeoutSeconds × maxAttempts + \(ProviderPolicy.fetchDeadlineMargin.components.seconds) s); a plugin must call it exactly once per fetch, and never block the thread it is called on")
            }
            // On a Dispatch thread, not the task's: a plugin that blocks in fetch,
            // against the header's rule, then holds one thread, not the cooperative pool.
            let function = function
            DispatchQueue.global().async {
                request.asset.withCString { asset in
                    request.currency.withCString { currency in
                        var cRequest = ph_fetch_request(struct_size: UInt32(MemoryLayout<ph_fetch_request>.size),
                                                        asset: asset, currency: currency)
                        function.fetch(function.context, &cRequest, hostFetchCompletion, UnsafeMutableRawPointer(bitPattern: id))
                    }
                }
            }
        }
    }
}
