import ConcurrencyHelpers
import Glibc
import PriceHostCore
import Testing

/// The group that runs serve, watch and check: start order, reverse stop, a start that
/// fails, and each way a run ends. Signals come from ``ManualSignals``: no real signal is sent.
@Suite(.timeLimit(.minutes(1)))
struct ServiceGroupTests {
    /// What the services did, in order.
    final class Journal: Sendable {
        let entries = Lock<[String]>([])
        func note(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }

        func service(_ name: String, failing: Bool = false) -> ServiceStep {
            ServiceStep(name, run: { () throws(ServiceError) in
                self.note("start \(name)")
                if failing { throw ServiceError("port in use") }
            }, shutdown: { self.note("stop \(name)") })
        }
    }

    @Test func servicesStartInOrderAndStopInReverseWhenTheWorkReturns() async throws {
        let journal = Journal()
        let group = ServiceGroup(services: ["a", "b", "c"].map { journal.service($0) }, signals: ManualSignals(),
                                 onStop: { journal.note("onStop \($0)") })
        let ending = try await group.run({ _ in journal.note("work") }, whenStarted: { journal.note("started") })
        #expect(ending == .finished)
        #expect(journal.all == ["start a", "start b", "start c", "started", "work", "onStop finished", "stop c", "stop b", "stop a"])
    }

    @Test func aServiceThatCannotStartStopsThoseBeforeItAndNamesItself() async {
        let journal = Journal()
        let group = ServiceGroup(services: [journal.service("a"), journal.service("b", failing: true), journal.service("c")], signals: ManualSignals())
        await #expect(throws: ServiceError("cannot start b: port in use")) {
            try await group.run { _ in journal.note("work") }
        }
        #expect(journal.all == ["start a", "start b", "stop a"])
    }

    @Test func aStopSignalEndsTheRunWithItsNumberAndOtherSignalsGoToTheirHandlers() async throws {
        let journal = Journal()
        let signals = ManualSignals()
        let group = ServiceGroup(services: [journal.service("a")], signals: signals, handlers: [SIGHUP: { journal.note("reload \($0)") }])
        let ending = try await group.run(whenStarted: {
            // Sent from another thread, as a signal arrives, once everything started.
            Thread.detach {
                #expect(signals.send(SIGHUP))
                #expect(signals.send(SIGTERM))
                // A second stop signal changes nothing.
                signals.send(SIGINT)
            }
        })
        #expect(ending == .signal(SIGTERM))
        #expect(journal.all == ["start a", "reload \(SIGHUP)", "stop a"])
        #expect(group.isStopping)
    }

    @Test func stopEndsAWorkThatWouldRunForeverAndTheWorkSeesIt() async throws {
        let journal = Journal()
        let group = ServiceGroup(services: [journal.service("a")], signals: ManualSignals())
        let ending = try await group.run { group in
            group.stop()
            // Bounded: the flag is set before stop() returns.
            journal.note(group.isStopping ? "saw the stop" : "missed it")
        }
        #expect(ending == .requested)
        #expect(journal.all.first == "start a")
        #expect(journal.all.last == "stop a")
    }

    @Test func aStopSignalDuringStartStartsNothingMore() async throws {
        let journal = Journal()
        let signals = ManualSignals()
        let stopper = ServiceStep("stopper", run: { signals.send(SIGTERM) }, shutdown: { journal.note("stop stopper") })
        let group = ServiceGroup(services: [stopper, journal.service("late")], signals: signals)
        let ending = try await group.run(whenStarted: { journal.note("started") })
        #expect(ending == .signal(SIGTERM))
        #expect(journal.all == ["stop stopper"])
    }
}

/// A plain detached thread for a test's sender.
private enum Thread {
    static func detach(_ body: @escaping @Sendable () -> Void) {
        #expect(DetachedThread.start(body))
    }
}
