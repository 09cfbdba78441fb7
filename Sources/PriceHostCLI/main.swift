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
let status = await PriceHostApp(environment: environment).run(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
