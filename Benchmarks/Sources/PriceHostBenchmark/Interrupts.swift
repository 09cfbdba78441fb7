import Dispatch
import Glibc
import Synchronization

/// Ctrl-C (or SIGTERM) during a run kills the children still running and removes
/// the scratch directory, instead of leaving a 30-minute watch and 100 plugins
/// behind, then exits with 128 + the signal's number.
enum Interrupts {
    private static let received = Atomic<Int32>(0)

    /// True once SIGINT or SIGTERM has arrived: whatever fails after that (a child
    /// killed under a case's feet) is the interrupt's doing, not the benchmark's.
    static var wereReceived: Bool { received.load(ordering: .acquiring) != 0 }

    /// Installs the handlers; keep the returned sources alive for as long as they should work.
    static func install(removing scratch: ScratchDirectory) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                // Before any child dies, so that the main thread sees why it did.
                received.store(number, ordering: .releasing)
                Command.killAll()
                scratch.remove()
                Report.progress("interrupted: stopped its children and removed \(scratch.path)")
                _exit(128 + number)
            }
            source.resume()
            return source
        }
    }

    /// For the main thread, once ``wereReceived``: the handler is cleaning up and will
    /// end the process; wait for it (at most 10 s) rather than report its effects as a failure.
    static func waitForHandler() {
        for _ in 0..<100 { usleep(100_000) }
    }
}
