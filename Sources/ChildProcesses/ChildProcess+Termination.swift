import Dispatch
import Glibc

extension ChildProcess {
    /// The signals that end a command that runs children: a caller's `timeout`,
    /// Ctrl-C, and a closed terminal.
    public static let terminationSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP]

    /// Makes `signals` end this process only after every child it started, and each
    /// child's process group, has been killed, so that nothing is left orphaned.
    ///
    /// The process then exits with 128 + the signal's number, as a shell reports a
    /// process a signal ended. The returned sources must be kept for as long as the
    /// handling should last.
    public static func killChildrenOnTermination(_ signals: [Int32] = terminationSignals) -> [any DispatchSourceSignal] {
        signals.map { number in
            // Ignored, so the default action does not end the process before the source sees the signal.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                killAll()
                _exit(128 + number)
            }
            source.resume()
            return source
        }
    }
}
