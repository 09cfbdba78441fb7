import CProviderABI
import PriceHostCore

/// What `--help` and `--version` print. The usage lines and OPTIONS are made
/// from the commands' declarations (``ParsableCommand``); hidden commands are left out.
enum HelpText {
    /// The version of pricehost.
    static var version: String { PriceHostVersion.text }

    /// `pricehost 0.1.0 (plugin ABI 1.0)`.
    static var versionLine: String {
        "pricehost \(version) (plugin ABI \(PRICEHOST_ABI_MAJOR).\(PRICEHOST_ABI_MINOR))"
    }

    /// The usage text.
    static let usage: String = {
        let commands = visibleCommands
        let usage = commands.flatMap { $0.usageLines }.map { "  pricehost \($0)" } + ["  pricehost " + helpOptions.map(\.name).joined(separator: " | ")]
        // Said from the declarations, so it cannot claim a command takes --config when it does not.
        let withoutConfig = commands.filter { command in !command.optionSpecs.contains { $0.name == "--config" } }
        let heading = withoutConfig.isEmpty ? "OPTIONS (every command takes --config)"
            : "OPTIONS (every command but \(list(withoutConfig.map { $0.configuration.name })) takes --config)"
        return (["pricehost: a plugin-based price engine", "", "USAGE"] + usage
            + ["", heading] + options.filter { $0.help != nil }.flatMap(optionLines) + trailer).joined(separator: "\n")
    }()

    /// The commands a user is told of: all but the hidden ones, in the order of ``Invocation/commands``.
    static var visibleCommands: [any ParsableCommand.Type] { Invocation.commands.filter { !$0.configuration.isHidden } }

    /// Every option of the visible commands, once, in the order they first appear.
    static var options: [OptionSpec] {
        var listed: [OptionSpec] = []
        for spec in visibleCommands.flatMap({ $0.optionSpecs }) where !listed.contains(where: { $0.name == spec.name }) {
            listed.append(spec)
        }
        return listed
    }

    /// `a`, `a and b`, `a, b and c`; with `or`, `a, b or c`.
    static func list(_ words: [String], or: Bool = false) -> String {
        guard let last = words.last, words.count > 1 else { return words.joined() }
        return words.dropLast().joined(separator: ", ") + (or ? " or " : " and ") + last
    }

    /// Where an option's help starts, from the start of the line.
    static let helpColumn = 20

    /// `  --config PATH     the config file…`: the label, then its help from ``helpColumn``
    /// (after two spaces when the label reaches it; on a line of its own when it is longer still).
    static func optionLines(_ spec: OptionSpec) -> [String] {
        let label = "  " + spec.label
        let help = (spec.help ?? "").split(separator: "\n", omittingEmptySubsequences: false)
        let indent = String(repeating: " ", count: helpColumn)
        let continuation = help.dropFirst().map { indent + $0 }
        guard let first = help.first else { return [label] }
        guard label.count <= helpColumn else { return [label, indent + first] + continuation }
        return [label + String(repeating: " ", count: max(2, helpColumn - label.count)) + first] + continuation
    }

    /// `--help` and `--version`, which take no command (``Invocation/parse(_:)``), with the other words for them.
    static let helpOptions = [
        (name: "--help", aliases: ["-h", "help"], meaning: "print the usage: the commands, their options, the exit statuses"),
        (name: "--version", aliases: ["-V"], meaning: "print the version of pricehost and of its plugin ABI"),
    ]

    /// One variable pricehost reads.
    struct EnvironmentVariable: Sendable {
        let name: String
        /// What `--help` says of it.
        let help: String
        /// What the man page says of it, when it says more.
        var manual: String?
    }

    /// The variables `--help` and the man page list.
    static let environment = [
        EnvironmentVariable(name: "PRICEHOST_CONFIG", help: "config file when --config is not given"),
        EnvironmentVariable(name: "PRICEHOST_PLUGIN_PATH", help: "extra directories (colon-separated) to find plugins named in \"plugins\""),
        EnvironmentVariable(name: "PRICEHOST_LOG", help: "debug, info, warning (default) or error",
                            manual: "debug, info, warning (default; info for serve, whose access log is at info) or error: the lowest level of log line printed"),
    ]

    /// How wide `--help` fills the list of exit statuses.
    static let width = 80

    /// What follows OPTIONS: the exit statuses (``ExitStatus``) and ``environment``.
    static let trailer: [String] = {
        var statuses: [String] = []
        for status in ExitStatus.allCases.map({ "\($0.rawValue) \($0.summary)" }) {
            if let last = statuses.last, last.count + 3 + status.count <= width {
                statuses[statuses.count - 1] = last + "   " + status
            } else {
                statuses.append("  " + status)
            }
        }
        let signalled = "  \(ExitStatus.signalled.status) \(ExitStatus.signalled.summary)"
        let nameWidth = (environment.map(\.name.count).max() ?? 0) + 3
        let variables = environment.map { "  " + $0.name + String(repeating: " ", count: nameWidth - $0.name.count) + $0.help }
        return ["", "EXIT STATUS"] + statuses + [signalled, "", "ENVIRONMENT"] + variables
    }()
}
