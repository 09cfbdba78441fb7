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
    Task {
        let status = await app.run(command)
        exit(status.rawValue)
    }
    // The main thread parks here; the task ends the process.
    dispatchMain()
}
