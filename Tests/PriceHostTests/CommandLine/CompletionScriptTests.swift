@testable import PriceHost
@testable import PriceHostCore
import Testing

/// The completion scripts (``CompletionScript``) against the declarations they are made from;
/// EndToEndTests' CompletionTests run them in the shells.
struct CompletionScriptTests {
    @Test(arguments: CompletionScript.Shell.allCases)
    func everyVisibleCommandAndOptionIsInTheScript(shell: CompletionScript.Shell) {
        let script = CompletionScript.text(for: shell)
        for command in HelpText.visibleCommands {
            #expect(script.contains(command.configuration.name), "\(shell): \(command.configuration.name)")
            for spec in command.optionSpecs {
                let name = shell == .fish ? "-l " + spec.name.dropFirst(2) : spec.name
                #expect(script.contains(name), "\(shell): \(command.configuration.name) \(spec.name)")
            }
        }
        for command in Invocation.commands where command.configuration.isHidden {
            #expect(!script.contains(command.configuration.name + ")"), "\(shell) offers the hidden \(command.configuration.name)")
        }
        #expect(!script.contains("--load-only"))
    }

    /// The scripts write command names, option names and choices unquoted into shell code: each is a plain word.
    @Test func whatTheScriptsWriteUnquotedIsAPlainWord() {
        func plain(_ word: String) -> Bool { !word.isEmpty && word.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == "_") } }
        for command in Invocation.commands {
            #expect(plain(command.configuration.name), "\(command.configuration.name)")
            if case .choices(let words) = command.argumentCompletion { #expect(words.allSatisfy(plain), "\(words)") }
            for spec in command.optionSpecs {
                #expect(spec.name.hasPrefix("--") && plain(String(spec.name.dropFirst(2))), "\(spec.name)")
                if case .choices(let words) = spec.completion { #expect(words.allSatisfy(plain), "\(spec.name): \(words)") }
            }
        }
    }

    /// `--format` completes to what each command supports, in its order; the other values as declared.
    @Test func eachValueCompletesAsItsOptionSays() {
        let formats: [(any ParsableCommand.Type, [Invocation.Format])] = [
            (FetchCommand.self, FetchCommand.formats), (WatchCommand.self, WatchCommand.formats),
            (HistoryCommand.self, HistoryCommand.formats),
            (ProvidersCommand.self, ProvidersCommand.formats), (CheckCommand.self, CheckCommand.formats),
        ]
        for (command, supported) in formats {
            let format = command.optionSpecs.first { $0.name == "--format" }
            #expect(format?.completion == .choices(supported.map(\.rawValue)), "\(command)")
        }
        #expect(HelpText.visibleCommands.filter { $0.optionSpecs.contains { $0.name == "--format" } }.count == formats.count)
        let kinds = Dictionary(HelpText.options.map { ($0.name, $0.completion) }) { first, _ in first }
        #expect(kinds["--config"] == .file && kinds["--plugin"] == .file && kinds["--dir"] == .directory)
        #expect(kinds["--provider"] == .providers)
        #expect(kinds["--language"] == .choices(["c", "swift"]) && kinds["--aggregate"] == .choices(["median"]))
        #expect(CompletionsCommand.argumentCompletion == .choices(["bash", "zsh", "fish"]))
        #expect(CompletionScript.bash.contains(#""fetch --format") echo "choices:text json csv" ;;"#))
        #expect(CompletionScript.bash.contains(#""providers --format") echo "choices:text json" ;;"#))
        #expect(CompletionScript.bash.contains(#""history --interval") echo "choices:1m 5m 15m 1h 4h 1d" ;;"#))
        #expect(CompletionScript.bash.contains(#""history --fill") echo "choices:previous" ;;"#))
    }

    @Test(arguments: [
        (["completions"], "completions needs a shell: bash, zsh or fish"),
        (["completions", "tcsh"], "completions: 'tcsh' is no shell it knows; choose bash, zsh or fish"),
        (["completions", "bash", "zsh"], "unexpected argument 'zsh'; options take the form --name value"),
        (["completions", "bash", "--config", "p.json"], "option --config does not apply to 'completions'"),
        (["__complete"], "__complete needs what to complete: providers"),
        (["__complete", "assets"], "__complete completes providers, not 'assets'"),
        (["__complete", "providers", "--format", "json"], "option --format does not apply to '__complete'"),
    ])
    func badCommandLinesAreRefused(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try Invocation.parse(arguments) }
    }

    @Test func theProvidersAreEveryNameTheConfigGives() throws {
        let config = try ConfigParser.parse(Array("""
            {"plugins": [], "providers": {"file": {"path": "p.json"}, "coinbase": {"timeoutSeconds": 5}},
             "defaults": {"provider": "peg"},
             "assets": {"ETH": {"providers": ["kraken", "file"]}, "USDC": {"provider": "peg"}}}
            """.utf8), path: "/c/plugins.json", environment: [:])
        #expect(CompleteCommand.providerNames(in: config) == ["coinbase", "file", "kraken", "peg"])
        #expect(CompleteCommand.providerNames(in: Config(path: "/c/plugins.json", directory: "/c")) == [])
    }
}
