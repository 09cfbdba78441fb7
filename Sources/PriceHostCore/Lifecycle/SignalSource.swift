import Glibc
import ConcurrencyHelpers

/// Where a ``ServiceGroup`` learns of signals: the process's (``ProcessSignals``), or a
/// test's (``ManualSignals``), so a test can stop or reload a command without a real signal.
package protocol SignalSource: Sendable {
    /// Calls `handler` with each of `signals` as it arrives, one at a time, on a thread of the source's.
    /// - Returns: false when they cannot be handled (out of descriptors or threads).
    func handle(_ signals: [Int32], with handler: @escaping @Sendable (Int32) -> Void) -> Bool
}

/// The process's signals, through ``SignalPipe``.
package struct ProcessSignals: SignalSource {
    package init() {}

    package func handle(_ signals: [Int32], with handler: @escaping @Sendable (Int32) -> Void) -> Bool {
        SignalPipe.install(signals, handler: handler)
    }
}

/// Signals a test sends with ``send(_:)``: delivered to the handler at once, on the caller's thread.
package final class ManualSignals: SignalSource {
    private let handlers = Lock<[(signals: [Int32], handler: @Sendable (Int32) -> Void)]>([])

    package init() {}

    package func handle(_ signals: [Int32], with handler: @escaping @Sendable (Int32) -> Void) -> Bool {
        handlers.withLock { $0.append((signals, handler)) }
        return true
    }

    /// Delivers `number` to every handler that asked for it.
    /// - Returns: false when nothing handles it (yet).
    @discardableResult
    package func send(_ number: Int32) -> Bool {
        let matching = handlers.withLock { $0.filter { $0.signals.contains(number) }.map(\.handler) }
        for handler in matching { handler(number) }
        return !matching.isEmpty
    }

    /// Whether a handler for `number` is installed: a test waits for it before sending.
    package func isHandling(_ number: Int32) -> Bool {
        handlers.withLock { $0.contains { $0.signals.contains(number) } }
    }
}
