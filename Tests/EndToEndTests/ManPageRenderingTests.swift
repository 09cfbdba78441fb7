import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// `docs/pricehost.1` as a user reads it: printed by the built binary, rendered by man-db's
/// `man` with its warnings on, listing what `--help` lists.
@Suite(.timeLimit(.minutes(1)), .serialized, .blockingLane)
struct ManPageRenderingTests {
    static let page = BuiltProducts.packageRoot + "/docs/pricehost.1"

    @Test func theBinaryPrintsTheCommittedPage() throws {
        let printed = try CommandRunner.run(BuiltProducts.pricehost, ["__manpage"])
        #expect(printed.status == 0 && printed.standardError == "", "\(printed)")
        #expect(printed.standardOutput == (try String(contentsOfFile: Self.page, encoding: .utf8)),
                "docs/pricehost.1 is not what `pricehost __manpage` prints: run `swift run pricehost __manpage > docs/pricehost.1`")
    }

    /// `MANWIDTH=80 man --warnings -l docs/pricehost.1`: no warning, and every command and option of `--help` on the page.
    @Test func manRendersItWithNoWarningAndEverythingTheHelpLists() throws {
        guard let man = CommandRunner.installed("man") else {
            print("ManPageRenderingTests: skipped the rendering: man is not installed (apt-get install man-db)")
            return
        }
        let rendered = try CommandRunner.run(man, ["--warnings", "-l", Self.page], environment: ["MANWIDTH": "80", "LANG": "C.UTF-8"])
        #expect(rendered.status == 0, "\(rendered)")
        #expect(rendered.standardError == "", "man warned: \(rendered.standardError)")
        #expect(rendered.outputLines.allSatisfy { $0.count <= 80 }, "a line is wider than MANWIDTH: \(rendered.standardOutput)")

        let help = try CommandRunner.run(BuiltProducts.pricehost, ["--help"])
        let options = Set(help.standardOutput.split { !$0.isLetter && $0 != "-" }.filter { $0.hasPrefix("--") && $0.count > 2 }.map(String.init))
        #expect(options.count >= 14, "found only \(options) in \(help)")
        let commands = help.outputLines.compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard words.first == "pricehost", let command = words.dropFirst().first, !command.hasPrefix("-") else { return nil }
            return String(command)
        }
        #expect(Set(commands).count >= 6, "found only \(commands) in \(help)")
        let text = rendered.standardOutput
        for option in options.sorted() { #expect(text.contains(option), "the rendered page has no \(option)") }
        for command in Set(commands).sorted() { #expect(text.contains("\n   \(command)\n"), "the rendered page has no section for \(command)") }
    }
}
