import Dispatch
import Glibc

/// Ctrl-C (or SIGTERM) during a run kills the children still running and removes
/// the scratch directory, instead of leaving a 30-minute watch and 100 plugins behind.
enum Interrupts {
    /// Installs the handlers; keep the returned sources alive for as long as they should work.
    static func install(removing scratch: ScratchDirectory) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                Watchdog.shared.killAll()
                scratch.remove()
                Report.progress("interrupted: stopped its children and removed \(scratch.path)")
                _exit(128 + number)
            }
            source.resume()
            return source
        }
    }
}
