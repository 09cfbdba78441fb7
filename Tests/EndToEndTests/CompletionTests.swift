import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// `pricehost completions bash|zsh|fish` as a shell runs it: the built binary on PATH, a config
/// in the working directory, and bash's completion function called as bash calls it on a TAB.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct CompletionTests {
    static let config = """
        {"plugins": ["libFileProvider.so", "libCoinbaseProvider.so"],
         "providers": {"file": {"path": "prices.json"}, "coinbase": {"baseURL": "http://127.0.0.1:9"}},
         "defaults": {"provider": "file", "currency": "USD"}}
        """

    /// PATH with the built `pricehost` first, as an installed one would be.
    static var environment: [String: String] {
        ["PATH": BuiltProducts.directory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
    }

    /// Runs `script` in `shell` in the sandbox.
    static func run(_ shell: String, _ arguments: [String], in sandbox: Sandbox) throws -> CommandResult {
        try CommandRunner.run(shell, arguments, environment: environment, currentDirectory: sandbox.directory.path, timeout: 30)
    }

    /// `shell` on PATH; nil, after printing that its test is skipped, when it is not installed.
    static func installed(_ shell: String) -> String? {
        let path = CommandRunner.installed(shell)
        if path == nil { print("CompletionTests: skipped \(shell): it is not installed (apt-get install \(shell))") }
        return path
    }

    /// What bash's completion function offers for `words`, the last being the word at the cursor:
    /// `COMP_WORDS`, `COMP_CWORD`, `COMP_LINE` and `COMP_POINT` set as bash sets them, then `_pricehost`.
    static func complete(_ words: [String], in sandbox: Sandbox) throws -> CommandResult {
        let quoted = words.map { "'" + $0.replacing("'", with: #"'\''"#) + "'" }.joined(separator: " ")
        let script = """
            source <(pricehost completions bash) || exit 9
            COMP_WORDS=(\(quoted)); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            _pricehost
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        return try run("/bin/bash", ["-c", script], in: sandbox)
    }

    @Test func bashRegistersItsFunction() throws {
        let sandbox = try Sandbox(config: Self.config)
        defer { sandbox.remove() }
        let result = try Self.run("/bin/bash", ["-c", "source <(pricehost completions bash); complete -p pricehost"], in: sandbox)
        #expect(result == CommandResult(status: 0, standardOutput: "complete -F _pricehost pricehost\n", standardError: ""))
    }

    @Test(arguments: [
        (["pricehost", "fe"], ["fetch"]),
        (["pricehost", ""], ["fetch", "watch", "serve", "history", "providers", "check", "new-plugin", "completions"]),
        (["pricehost", "history", "--interval", ""], ["1m", "5m", "15m", "1h", "4h", "1d"]),
        (["pricehost", "history", "--fill", ""], ["previous"]),
        (["pricehost", "history", "--provider", "f"], ["file"]),
        (["pricehost", "watch", "--asset", "BTC", "--r"], ["--record"]),
        (["pricehost", "-"], ["--help", "--version"]),
        (["pricehost", "fetch", "--provider", ""], ["coinbase", "file"]),
        (["pricehost", "fetch", "--provider", "f"], ["file"]),
        (["pricehost", "fetch", "--provider", "file,"], ["file,coinbase"]),
        (["pricehost", "watch", "--provider", "=", "co"], ["coinbase"]),
        (["pricehost", "fetch", "--format", ""], ["text", "json", "csv"]),
        (["pricehost", "watch", "--format", ""], ["json", "csv", "text"]),
        (["pricehost", "providers", "--format", ""], ["text", "json"]),
        (["pricehost", "fetch", "--format", "=", "j"], ["json"]),
        (["pricehost", "fetch", "--asset", "BTC", "--a"], ["--asset", "--aggregate", "--allow-insecure-plugins"]),
        (["pricehost", "serve", "--"], ["--config", "--listen", "--allow-insecure-plugins"]),
        (["pricehost", "serve", "--listen", "1"], []),
        (["pricehost", "completions", ""], ["bash", "zsh", "fish"]),
        (["pricehost", "new-plugin", "market", "--language", ""], ["c", "swift"]),
        (["pricehost", "fetch", "--config", "plu"], ["plugins.json"]),
        (["pricehost", "check", "--plugin", "plu"], ["plugins.json"]),
    ])
    func bashCompletes(words: [String], offered: [String]) throws {
        let sandbox = try Sandbox(config: Self.config)
        defer { sandbox.remove() }
        let result = try Self.complete(words, in: sandbox)
        #expect(result.status == 0 && result.standardError == "", "\(result)")
        #expect(result.outputLines.filter { !$0.isEmpty } == offered, "\(words)")
    }

    /// `--provider` asks the config the line names with --config, before or after the command.
    @Test func bashCompletesTheProvidersOfTheConfigOnTheLine() throws {
        let sandbox = try Sandbox(config: Self.config, files: ["markets.json": """
            {"plugins": [], "assets": {"BTC": {"providers": ["kraken", "bitstamp"]}}}
            """])
        defer { sandbox.remove() }
        for words in [["pricehost", "--config", "markets.json", "fetch", "--provider", ""],
                      ["pricehost", "fetch", "--config=markets.json", "--provider", ""],
                      ["pricehost", "fetch", "--config", "=", "markets.json", "--provider", ""]] {
            let result = try Self.complete(words, in: sandbox)
            #expect(result.outputLines == ["bitstamp", "kraken"], "\(words): \(result)")
        }
    }

    /// A config that cannot be read completes nothing and prints nothing at the prompt.
    @Test func aBrokenConfigCompletesNothingAndSaysNothing() throws {
        let sandbox = try Sandbox(config: "{ not json")
        defer { sandbox.remove() }
        let result = try Self.complete(["pricehost", "fetch", "--provider", ""], in: sandbox)
        #expect(result == CommandResult(status: 0, standardOutput: "\n", standardError: ""))
        // Asked directly, it says why on stderr, in one line, with the config status.
        let asked = try Self.run(BuiltProducts.pricehost, ["__complete", "providers"], in: sandbox)
        #expect(asked.status == 3 && asked.standardOutput == "" && asked.errorLines.count == 1, "\(asked)")
        #expect(asked.standardError.hasPrefix("pricehost: error: "), "\(asked)")
    }

    @Test func theHiddenCommandPrintsTheConfigsProviders() throws {
        let sandbox = try Sandbox(config: Self.config)
        defer { sandbox.remove() }
        let result = try Self.run(BuiltProducts.pricehost, ["__complete", "providers"], in: sandbox)
        #expect(result == CommandResult(status: 0, standardOutput: "coinbase\nfile\n", standardError: ""))
        let empty = try Self.run(BuiltProducts.pricehost, ["__complete", "providers", "--config", sandbox.directory.file("none.json")], in: sandbox)
        #expect(empty.status == 3 && empty.standardOutput == "", "\(empty)")
    }

    @Test func anUnknownShellIsAUsageErrorNamingTheChoices() throws {
        let result = try CommandRunner.run(BuiltProducts.pricehost, ["completions", "tcsh"])
        #expect(result == CommandResult(status: 2, standardOutput: "", standardError: """
            pricehost: error: completions: 'tcsh' is no shell it knows; choose bash, zsh or fish

            """))
    }

    @Test func zshLoadsItsScript() throws {
        guard let zsh = Self.installed("zsh") else { return }
        let sandbox = try Sandbox(config: Self.config)
        defer { sandbox.remove() }
        let result = try Self.run(zsh, ["-c", "autoload -U compinit; compinit -u; source <(pricehost completions zsh) && print -r -- $_comps[pricehost]"],
                                  in: sandbox)
        #expect(result == CommandResult(status: 0, standardOutput: "_pricehost\n", standardError: ""))
    }

    /// fish loads the script, and its `complete -C` (what a TAB shows) offers the commands, formats and providers.
    @Test func fishLoadsItsScriptAndCompletes() throws {
        guard let fish = Self.installed("fish") else { return }
        let sandbox = try Sandbox(config: Self.config)
        defer { sandbox.remove() }
        let script = """
            pricehost completions fish | source; or exit 9
            complete -C 'pricehost fe'; echo ==; complete -C 'pricehost fetch --format '; echo ==
            complete -C 'pricehost fetch --provider '; echo ==; complete -C 'pricehost fetch --provider=file,'
            """
        let result = try Self.run(fish, ["-c", script], in: sandbox)
        #expect(result.status == 0 && result.standardError == "", "\(result)")
        let offered = result.standardOutput.split(separator: "==\n", omittingEmptySubsequences: false).map { part in
            part.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
        }
        #expect(offered == [["fetch"], ["csv", "json", "text"], ["coinbase", "file"], ["--provider=file,coinbase"]], "\(result)")
    }
}
