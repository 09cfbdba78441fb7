import ConcurrencyHelpers
import Glibc

/// Runs a command's services and its own work: the one owner of its signals, its start-up
/// order and its shutdown. `serve`, `watch`, `watch --stream` and `check` each run in one.
///
/// ``run(_:)``: handles the signals, starts each service in order (one that cannot start
/// stops those started before it, in reverse), runs the command's `body`, and waits for
/// the first of: `body` returning, ``stop()``, or a stop signal (SIGINT, SIGTERM). Then it
/// calls `onStop` and shuts the services down in the reverse order of their start.
/// Other signals (serve's SIGHUP) go to their handlers, one at a time, on the signal thread.
package final class ServiceGroup: Sendable {
    /// Why the group stopped.
    package enum Ending: Sendable, Equatable {
        /// The command's own work returned (watch's `--ticks`, a check's report).
        case finished
        /// ``stop()`` was called.
        case requested
        /// A stop signal arrived: its number.
        case signal(Int32)
    }

    private let services: [any Service]
    private let signals: any SignalSource
    private let stopSignals: [Int32]
    private let handlers: [Int32: @Sendable (Int32) -> Void]
    private let onStop: @Sendable (Ending) -> Void
    private let endings: AsyncStream<Ending>
    private let ending: AsyncStream<Ending>.Continuation
    private let stopped = Lock<Ending?>(nil)

    /// - Parameters:
    ///   - services: started in this order, stopped in the reverse one.
    ///   - signals: where signals come from (the process's, or a test's).
    ///   - stopSignals: the signals that stop the group.
    ///   - handlers: what other signals do (`serve`: SIGHUP reloads).
    ///   - onStop: called once, as the group stops and before any service is shut down, on the
    ///     thread that stopped it (the signal thread for a signal): a command's own first step.
    package init(services: [any Service], signals: any SignalSource = ProcessSignals(), stopSignals: [Int32] = [SIGINT, SIGTERM],
                 handlers: [Int32: @Sendable (Int32) -> Void] = [:], onStop: @escaping @Sendable (Ending) -> Void = { _ in }) {
        self.services = services
        self.signals = signals
        self.stopSignals = stopSignals
        self.handlers = handlers
        self.onStop = onStop
        (endings, ending) = AsyncStream<Ending>.makeStream(bufferingPolicy: .bufferingOldest(1))
    }

    /// True once the group began to stop: a command's loop checks it between steps.
    package var isStopping: Bool { stopped.withLock { $0 != nil } }

    /// Stops the group, as a stop signal would (watch's `--ticks` reached, say).
    package func stop() { end(.requested) }

    /// The first ending wins; later ones are ignored.
    private func end(_ reason: Ending) {
        let first = stopped.withLock { stopped in
            guard stopped == nil else { return false }
            stopped = reason
            return true
        }
        guard first else { return }
        onStop(reason)
        ending.yield(reason)
    }

    /// Starts the services, runs `body`, and stops everything when the group stops.
    /// - Parameters:
    ///   - body: the command's own work, run as a task; the group stops when it returns.
    ///     `serve` has none: it serves until a stop signal.
    ///   - whenStarted: called once every service has started (serve's "serving on" line).
    /// - Returns: why the group stopped, once every service has shut down.
    /// - Throws: ``ServiceError`` when the signals cannot be handled or a service cannot start
    ///   (the services started before it are shut down first).
    package func run(_ body: (@Sendable (ServiceGroup) async -> Void)? = nil, whenStarted: () -> Void = {}) async throws(ServiceError) -> Ending {
        let handled = signals.handle(stopSignals + handlers.keys.sorted()) { [self] number in
            if let handler = handlers[number] { handler(number) } else { end(.signal(number)) }
        }
        guard handled else { throw ServiceError("cannot handle signals: \(String(cString: strerror(errno)))") }
        var started: [any Service] = []
        for service in services {
            if isStopping { break }
            do {
                try await service.run()
            } catch {
                await shutDown(started)
                throw ServiceError("cannot start \(service.name): \(error.description)")
            }
            started.append(service)
        }
        if !isStopping { whenStarted() }
        if let body {
            Task { [self] in
                await body(self)
                end(.finished)
            }
        }
        var reason = Ending.requested
        for await first in endings {
            reason = first
            break
        }
        await shutDown(started)
        return reason
    }

    private func shutDown(_ started: [any Service]) async {
        for service in started.reversed() { await service.shutdown() }
    }
}
