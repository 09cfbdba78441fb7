import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// The peg plugin, in C on the host's services: it needs no settings and
/// names the ones it is given, read with `json_get`.
@Suite(.timeLimit(.minutes(5)), .serialized, .blockingLane)
struct PegTests {
    @Test func settingsItIgnoresAreNamedInOneWarningAndItStillAnswers() throws {
        let sandbox = try Sandbox(config: """
            {"plugins": ["libPegProvider.so"], "providers": {"peg": {"pegs": {"USDC": "1"}, "x": 1}}, "defaults": {"provider": "peg"}}
            """)
        defer { sandbox.remove() }
        let result = try sandbox.run(["fetch", "--asset", "USDC", "--format", "csv"])
        #expect(result.status == 0, "\(result)")
        #expect(result.outputLines.last?.hasPrefix("USDC,USD,1,peg,") == true, "\(result)")
        #expect(result.standardError == "pricehost: warning: libPegProvider.so: peg: takes no settings; ignoring providers.peg.pegs and the rest\n")
    }
}
