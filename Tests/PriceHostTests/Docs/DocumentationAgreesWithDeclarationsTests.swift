import Foundation
@testable import PriceHost
@testable import PriceHostCore
@testable import PriceHostService
import Testing

extension ContractListTests {
    /// The user guide (README.md, PLUGINS.md, docs/*.md) and the declarations it
    /// describes are one list each, in both directions: every visible command, every
    /// option a command takes, every config key a parser reads and every exit status
    /// is on its page; and no page names an option or a `pricehost` command that the
    /// parser does not know. The lists come from the declarations (``Invocation/commands``,
    /// ``ConfigParser``, ``ProviderPolicy/keys``, ``ServeSettings/keys``,
    /// ``SharedSettings/keys``, ``ExitStatus``), never from a copy here.
    @Suite struct DocumentationAgreesWithDeclarations {
        /// One page of the guide, by its path from the package root.
        struct Page {
            let name: String
            let lines: [String]

            init(_ name: String) throws {
                self.name = name
                lines = try ContractListTests.text(ContractListTests.root + "/" + name).components(separatedBy: "\n")
            }

            /// The lines of the section under `heading` (`## Exit status`), up to the next heading of its level.
            func section(_ heading: String) throws -> [(number: Int, text: String)] {
                let level = heading.prefix { $0 == "#" } + " "
                let start = try #require(lines.firstIndex(of: heading), "\(name) has no heading '\(heading)'")
                let end = lines[(start + 1)...].firstIndex { $0.hasPrefix(level) } ?? lines.endIndex
                return (start + 1..<end).map { ($0 + 1, lines[$0]) }
            }

            /// The code on each line: a line of a fenced block whole, else each `inline span`.
            var code: [(number: Int, text: String)] {
                var fenced = false
                var found: [(number: Int, text: String)] = []
                for (index, line) in lines.enumerated() {
                    if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                        fenced.toggle()
                        continue
                    }
                    if fenced {
                        found.append((index + 1, line))
                    } else {
                        found += DocumentationAgreesWithDeclarations.inlineSpans(line).map { (index + 1, $0) }
                    }
                }
                return found
            }

            /// The words (runs of letters and digits) of its inline code spans:
            /// `assets.X.maxAgeSeconds` documents `assets` and `maxAgeSeconds`.
            var backtickedWords: Set<String> {
                var fenced = false
                var words = Set<String>()
                for line in lines {
                    if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { fenced.toggle() }
                    guard !fenced else { continue }
                    for span in DocumentationAgreesWithDeclarations.inlineSpans(line) {
                        words.formUnion(span.split { !$0.isLetter && !$0.isNumber }.map(String.init))
                    }
                }
                return words
            }
        }

        /// Every page of the user documentation.
        static let pageNames: [String] = {
            let docs = (try? FileManager.default.contentsOfDirectory(atPath: ContractListTests.root + "/docs")) ?? []
            return ["README.md", "PLUGINS.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        }()

        /// Words that look like options in the guide but belong to other programs in its example commands.
        static let notPricehostOptions: Set<String> = [
            "--name",                    // configuration.md: `--name value`, the form every option takes
            "--verbose",                 // BAD-INPUT.md: the example of an unknown option and its error
            "--filter", "--sanitize", "--scratch-path", "--skip-build", "--build-tests",  // swift build / swift test
            "--port", "--bind", "--save", "--appendonly",  // redis-server, in fleet.md
            "--prefix", "--uninstall", "--build-dir",       // scripts/install.sh, in install.md
            "--readnever",               // gdb, in testing.md (the CI watchdog's stacks)
            "--parent",                  // the hidden __probe's, in ARCHITECTURE.md (check's pid, for PR_SET_PDEATHSIG)
        ]

        static let visibleCommands = Invocation.commands.filter { !$0.configuration.isHidden }

        /// The options of the visible commands, by name (the hidden `__probe`'s own are not for users).
        static let documentableOptions = Set(visibleCommands.flatMap { $0.optionSpecs.map(\.name) })

        /// The names the parser itself takes as an option: a command's, or `--help` and `--version`.
        static func parserKnows(option: String) -> Bool {
            if documentableOptions.contains(option) { return true }
            switch try? Invocation.parse([option]) {
            case .some(.help), .some(.version): return true
            default: return false
            }
        }

        static func inlineSpans(_ line: String) -> [String] {
            line.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }

        static func matches(_ pattern: String, in text: String) -> [[String]] {
            let expression = try! NSRegularExpression(pattern: pattern)
            let ns = text as NSString
            return expression.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { match in
                (0..<match.numberOfRanges).map { match.range(at: $0).location == NSNotFound ? "" : ns.substring(with: match.range(at: $0)) }
            }
        }

        /// `--asset` and the like in `text`.
        static func optionTokens(_ text: String) -> [String] {
            matches(#"(?<![A-Za-z0-9_-])--[a-z][a-z0-9-]*"#, in: text).map { $0[0] }
        }

        /// The `pricehost COMMAND …` command lines in a piece of code: the command and
        /// the rest of that command (up to a pipe, `&`, `;` or a `#` comment).
        static func invocations(_ code: String) -> [(command: String, arguments: String)] {
            matches(#"(?:^\s*|\$ |/|&& |\bdo )pricehost ([A-Za-z_][A-Za-z0-9_-]*)([^&;#]*)"#, in: code).map { match in
                (match[1], match[2].components(separatedBy: " | ")[0])
            }
        }

        /// `key` is documented on `page` for each of `keys` (in back-quotes); else one message each.
        static func missing(_ keys: [String], what: String, on page: Page) -> [String] {
            let words = page.backtickedWords
            return keys.filter { !words.contains($0) }.map { "\(page.name) does not document the \(what) `\($0)` (in back-quotes)" }
        }

        // MARK: Declarations → docs

        @Test func everyVisibleCommandAndItsOptionsAreInTheCommandLineReference() throws {
            let page = try Page("docs/configuration.md")
            let reference = try page.section("## Command line")
            var problems: [String] = []
            // `pricehost NAME …` lines, and `# A and B also take --x` notes naming which commands take an option.
            let commandLines = reference.map(\.text).filter { $0.hasPrefix("pricehost ") }
            let notes = reference.map(\.text).filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("#") && $0.contains("also take") }
            for command in Self.visibleCommands {
                let name = command.configuration.name
                let lines = commandLines.filter { $0.split(separator: " ").dropFirst().first.map(String.init) == name }
                if lines.isEmpty { problems.append("\(page.name) ## Command line has no `pricehost \(name) …` line") }
                let listed = Set(lines.flatMap { Self.optionTokens($0.components(separatedBy: "#")[0]) })
                let noted = Set(notes.filter { note in
                    Self.matches(#"[a-z_-]+"#, in: note.components(separatedBy: "also take")[0]).contains { $0[0] == name }
                }.flatMap { Self.optionTokens($0) })
                for option in command.optionSpecs.map(\.name) where !listed.contains(option) && !noted.contains(option) {
                    problems.append("\(page.name) ## Command line does not give \(name)'s option \(option) (on its `pricehost \(name)` line, or a note that it also takes it)")
                }
            }
            // A note must name exactly the commands that take each of its options.
            for note in notes {
                let named = Set(Self.matches(#"[a-z_-]+"#, in: note.components(separatedBy: "also take")[0]).map { $0[0] })
                    .intersection(Self.visibleCommands.map { $0.configuration.name })
                for option in Self.optionTokens(note) {
                    let taking = Set(Self.visibleCommands.filter { $0.optionSpecs.contains { $0.name == option } }.map { $0.configuration.name })
                    if named != taking {
                        problems.append("\(page.name): the note '\(note.trimmingCharacters(in: .whitespaces))' says \(named.sorted()) take \(option); the commands that do are \(taking.sorted())")
                    }
                }
            }
            #expect(problems == [])
        }

        @Test func everyExitStatusIsInTheTable() throws {
            let page = try Page("docs/configuration.md")
            let rows = try page.section("## Exit status").compactMap { line -> Int32? in
                let cells = line.text.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                return cells.first.flatMap { Int32($0) }
            }
            let declared = (Int32(0)...255).compactMap { ExitStatus(rawValue: $0) }
            #expect(declared.count >= 6, "found only \(declared) in ExitStatus")
            let problems = declared.filter { !rows.contains($0.rawValue) }.map {
                "\(page.name) ## Exit status has no row for \($0.rawValue) (ExitStatus.\($0))"
            } + rows.filter { ExitStatus(rawValue: $0) == nil }.map {
                "\(page.name) ## Exit status has a row for \($0), which is no ExitStatus"
            }
            #expect(problems == [])
        }

        @Test func everyConfigKeyOfTheCoreIsInConfigurationMd() throws {
            let page = try Page("docs/configuration.md")
            let topLevel = ConfigParser.coreKeys + CompositionRoot.configSections.map { $0.key }
            let problems = Self.missing(topLevel, what: "top-level key", on: page)
                + Self.missing(ConfigParser.pluginEntryKeys, what: "key of a `plugins` entry", on: page)
                + Self.missing(ConfigParser.defaultsKeys, what: "key of `defaults`", on: page)
                + Self.missing(ConfigParser.assetKeys, what: "key of `assets.CODE`", on: page)
                + Self.missing(ConfigParser.boundsKeys, what: "key of `assets.CODE.bounds`", on: page)
            #expect(problems == [])
        }

        @Test func everyHostKeyOfAProviderIsInHostSettingsMd() throws {
            let problems = Self.missing(ProviderPolicy.keys, what: "host key of `providers.NAME`", on: try Page("docs/host-settings.md"))
            #expect(problems == [])
        }

        @Test func everyServeKeyIsInServeMd() throws {
            let problems = Self.missing(ServeSettings.keys, what: "key of `serve`", on: try Page("docs/serve.md"))
            #expect(problems == [])
        }

        @Test func everySharedKeyIsInFleetMd() throws {
            let problems = Self.missing(SharedSettings.keys, what: "key of `shared`", on: try Page("docs/fleet.md"))
            #expect(problems == [])
        }

        // MARK: Docs → declarations

        @Test func noPageNamesAnOptionThatDoesNotExist() throws {
            #expect(Self.pageNames.count > 10, "found only \(Self.pageNames)")
            var problems: [String] = []
            for name in Self.pageNames {
                let page = try Page(name)
                for (index, line) in page.lines.enumerated() {
                    for option in Self.optionTokens(line) where !Self.parserKnows(option: option) && !Self.notPricehostOptions.contains(option) {
                        problems.append("\(name):\(index + 1): \(option) is no option of pricehost")
                    }
                }
            }
            #expect(problems == [])
        }

        @Test func noPageRunsACommandThatDoesNotExistOrGivesItAnOptionItDoesNotTake() throws {
            var problems: [String] = []
            var seen = 0
            for name in Self.pageNames {
                for (number, code) in try Page(name).code {
                    for (word, arguments) in Self.invocations(code) {
                        seen += 1
                        guard let command = Invocation.commands.first(where: { $0.configuration.name == word }) else {
                            if case .some(.help) = try? Invocation.parse([word]) { continue }
                            problems.append("\(name):\(number): `pricehost \(word)`: pricehost has no command \(word)")
                            continue
                        }
                        let takes = Set(command.optionSpecs.map(\.name))
                        for option in Self.optionTokens(arguments) where !takes.contains(option) {
                            problems.append("\(name):\(number): `pricehost \(word) … \(option)`: \(word) does not take \(option)")
                        }
                    }
                }
            }
            #expect(seen > 20, "found only \(seen) `pricehost COMMAND` lines: is the pattern right?")
            #expect(problems == [])
        }
    }
}
