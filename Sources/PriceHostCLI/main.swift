import Dispatch
import Glibc
import PriceHost

// A reader that closes the pipe early (`pricehost fetch … | head -1`) must not kill us with SIGPIPE.
signal(SIGPIPE, SIG_IGN)
// From environ, not ProcessInfo, whose first use costs a measurable part of a cold start.
var environment: [String: String] = [:]
var entry = environ
while let pair = entry.pointee {
    let text = String(cString: pair)
    if let equals = text.firstIndex(of: "="), environment[String(text[..<equals])] == nil {
        environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
    }
    entry += 1
}
let app = PriceHostApp(environment: environment)
// `--version`, `--help` and usage errors answer without starting Swift concurrency:
// main is synchronous, so a process that needs no task never pays for an async main.
switch app.start(Array(CommandLine.arguments.dropFirst())) {
case .finished(let status):
    exit(status.rawValue)
case .command(let command):
    // Detached, so that no part of a command runs on the main actor. Top-level code
    // is main-actor isolated, and a plain `Task` here would end by hopping back to
    // the main queue to call exit(). A plugin that imports Foundation loads
    // CoreFoundation, whose initializer gives the dispatch main queue to the main
    // thread's CFRunLoop (`_dispatch_get_main_queue_port_4CF`); from then on the
    // main queue is drained only by a run loop that nobody runs, as the main thread
    // is parked in dispatchMain(). The hop never ran and every command hung after
    // its output (issue 23). The host never uses the main queue or the main actor.
    Task.detached {
        let status = await app.run(command)
        exit(status.rawValue)
    }
    // The main thread parks here, with signals blocked so that Dispatch's signal
    // sources see them; the task ends the process.
    dispatchMain()
}
