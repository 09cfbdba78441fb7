import Foundation
import Glibc
import PriceHost

// A reader that closes the pipe early (`pricehost fetch … | head -1`) must not kill us with SIGPIPE.
signal(SIGPIPE, SIG_IGN)
let status = await PriceHostApp(environment: ProcessInfo.processInfo.environment).run(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
