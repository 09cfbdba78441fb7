import Foundation
@testable import PriceHost
import PriceHostCore
import Testing

/// The man page (``ManPage``) against `--help` (``HelpText``), made from the same declarations,
/// and `docs/pricehost.1` against what `pricehost __manpage` prints.
struct ManPageTests {
    static let committedPath = ContractListTests.root + "/docs/pricehost.1"

    @Test func theCommittedPageIsTheGeneratedOne() throws {
        let committed = try ContractListTests.text(Self.committedPath)
        #expect(committed == ManPage.text + "\n", "docs/pricehost.1 is not what the declarations make: run `swift run pricehost __manpage > docs/pricehost.1`")
    }

    /// Every command and option that `--help` prints, read from its text, is in the page.
    @Test func everyCommandAndOptionOfTheHelpIsInThePage() {
        let help = HelpText.usage
        let commands = Set(help.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard words.first == "pricehost", let command = words.dropFirst().first, !command.hasPrefix("-") else { return nil }
            return String(command)
        })
        #expect(commands.count >= 6, "found only \(commands) in the help")
        let sections = ManPage.text.split(separator: "\n").filter { $0.hasPrefix(".SS ") }.map { String($0.dropFirst(4)) }
        for command in commands { #expect(sections.contains(ManPage.escape(command)), "no .SS \(command) under COMMANDS") }
        #expect(sections.count == commands.count, "\(sections) against \(commands)")

        let options = Set(ContractListTests.DocumentationAgreesWithDeclarations.optionTokens(help))
        #expect(options.count >= 14, "found only \(options) in the help")
        let page = ManPage.text
        for option in options.sorted() {
            #expect(page.contains("\\fB" + ManPage.escape(option) + "\\fR"), "\(option) is not in the page")
            let tagged = page.split(separator: "\n", omittingEmptySubsequences: false).contains { $0.hasPrefix("\\fB" + ManPage.escape(option) + "\\fR") }
            #expect(tagged, "\(option) has no entry of its own under OPTIONS")
        }
    }

    /// Out of what the page shows (its first comment says how it is made: `pricehost __manpage`).
    @Test func theHiddenCommandsAreNotInThePage() {
        let shown = ManPage.text.split(separator: "\n").filter { !$0.hasPrefix(".\\\"") }.joined(separator: "\n")
        for command in Invocation.commands where command.configuration.isHidden {
            #expect(!shown.contains(ManPage.escape(command.configuration.name)), "\(command.configuration.name)")
        }
        #expect(!shown.contains(ManPage.escape("--load-only")))
    }

    @Test func everyExitStatusAndVariableHasAnEntry() throws {
        let lines = ManPage.text.split(separator: "\n").map(String.init)
        func entries(under heading: String) throws -> [String] {
            let start = try #require(lines.firstIndex(of: ".SH \(heading)"))
            let end = lines[(start + 1)...].firstIndex { $0.hasPrefix(".SH ") } ?? lines.endIndex
            let section = Array(lines[start..<end])
            return section.indices.filter { section[$0] == ".TP" && $0 + 1 < section.count }.map { section[$0 + 1] }
        }
        #expect(try entries(under: "EXIT STATUS") == ExitStatus.allCases.map { "\\fB\($0.rawValue)\\fR" } + ["\\fB128+N\\fR"])
        #expect(try entries(under: "ENVIRONMENT") == HelpText.environment.map { "\\fB\(ManPage.escape($0.name))\\fR" })
        // --help's own list, so the two cannot drift apart.
        for variable in HelpText.environment { #expect(HelpText.usage.contains("\n  \(variable.name) ")) }
        for status in ExitStatus.allCases { #expect(HelpText.usage.contains("\(status.rawValue) \(status.summary)")) }
    }

    /// Every line is text or one of the requests the page means: nothing the declarations say is taken for a request.
    @Test func everyLineIsTextOrAKnownRequest() {
        let requests: Set<String> = [".\\\"", ".TH", ".SH", ".SS", ".TP", ".IP", ".PP", ".br", ".nh", ".ad"]
        for line in ManPage.text.split(separator: "\n") where line.hasPrefix(".") || line.hasPrefix("'") {
            #expect(requests.contains(String(line.prefix { $0 != " " })), "\(line)")
        }
        #expect(!ManPage.text.unicodeScalars.contains { $0.value > 0x7E }, "a character outside ASCII is not escaped")
    }

    @Test(arguments: [
        (".hidden", "\\&.hidden"),
        ("a\\b", "a\\eb"),
        ("--config", "\\-\\-config"),
        ("it's", "it\\(aqs"),
        ("`x`", "\\(gax\\(ga"),
        ("in use, …", "in use, \\[u2026]"),
        ("one\n.two", "one\n\\&.two"),
        ("tab\there", "tab here"),
    ])
    func escapesWhatRoffWouldRead(text: String, escaped: String) {
        #expect(ManPage.escape(text) == escaped)
    }

    /// Where the page says the config is looked for is where ``ConfigLocator`` looks.
    @Test func theFilesAreWhereTheConfigIsLookedFor() {
        let locator = ConfigLocator(explicitPath: nil, environment: ["HOME": "/home/u"], currentDirectory: "/w")
        let looked = locator.candidates.map { $0.path.replacing("/home/u/", with: "~/").replacing("/w/", with: "./") }
        #expect(Array(ManPage.files.map(\.0).prefix(looked.count)) == looked)
    }
}
