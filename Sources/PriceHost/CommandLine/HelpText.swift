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
        let commands = Invocation.commands.filter { !$0.configuration.isHidden }
        let usage = commands.flatMap { $0.usageLines }.map { "  pricehost \($0)" } + ["  pricehost --help | --version"]
        var listed: [OptionSpec] = []
        for spec in commands.flatMap({ $0.optionSpecs }) where spec.help != nil && !listed.contains(where: { $0.name == spec.name }) {
            listed.append(spec)
        }
        // Said from the declarations, so it cannot claim a command takes --config when it does not.
        let withoutConfig = commands.filter { command in !command.optionSpecs.contains { $0.name == "--config" } }
        let heading = withoutConfig.isEmpty ? "OPTIONS (every command takes --config)"
            : "OPTIONS (every command but \(withoutConfig.map { $0.configuration.name }.joined(separator: ", ")) takes --config)"
        return (["pricehost: a plugin-based price engine", "", "USAGE"] + usage
            + ["", heading] + listed.flatMap(optionLines) + [trailer]).joined(separator: "\n")
    }()

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

    /// What follows OPTIONS.
    static let trailer = """

        EXIT STATUS
          0 success   1 fetch failed   2 usage error   3 config or plugin error
          4 some of several assets failed   5 serve cannot listen (address in use, …)
          128+N check ended by signal N, after killing its probes

        ENVIRONMENT
          PRICEHOST_CONFIG        config file when --config is not given
          PRICEHOST_PLUGIN_PATH   extra directories (colon-separated) to find plugins named in "plugins"
          PRICEHOST_LOG           debug, info, warning (default) or error
        """
}
