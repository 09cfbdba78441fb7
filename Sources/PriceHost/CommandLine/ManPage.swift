/// The man page, `pricehost.1`, in roff: made from the same declarations as `--help`
/// (``HelpText``), so the two list the same commands, options, exit statuses and variables.
/// `pricehost __manpage` prints it; `docs/pricehost.1` is that output, and a test keeps it so.
enum ManPage {
    /// The page.
    static let text: String = {
        let commands = HelpText.visibleCommands
        var lines = [
            #".\" Made by `pricehost __manpage` from the command declarations, as --help is; do not edit."#,
            #".TH PRICEHOST 1 "" "pricehost \#(escape(HelpText.version))" "User Commands""#,
            // Neither hyphenated nor justified: options and paths are read as typed.
            ".nh",
            ".ad l",
            ".SH NAME",
            "pricehost \\- " + escape(summary),
            ".SH SYNOPSIS",
        ]
        let synopses = commands.flatMap { command in command.configuration.usage.map { synopsis(of: command, $0) } }
            + ["\\fBpricehost\\fR " + HelpText.helpOptions.map { "\\fB\(escape($0.name))\\fR" }.joined(separator: " | ")]
        lines += synopses.flatMap { [$0, ".br"] }.dropLast()
        lines += [".SH DESCRIPTION"] + paragraphs(description)
        lines.append(".SH COMMANDS")
        for command in commands {
            lines += [".SS " + escape(command.configuration.name), escape(sentence(command.configuration.summary))]
            for line in command.configuration.usage {
                lines += [".IP", synopsis(of: command, line)]
                if let note = line.note { lines += [".br", escape(note)] }
            }
            if !command.optionSpecs.isEmpty {
                lines += [".IP", "Options: " + command.optionSpecs.map { "\\fB\(escape($0.name))\\fR" }.joined(separator: ", ") + "."]
            }
        }
        lines.append(".SH OPTIONS")
        lines += paragraphs("Every option works before or after the command, as --name value or --name=value.")
        for spec in HelpText.options {
            lines += [".TP", label(spec), escape(sentence(spec.description.split(separator: "\n").joined(separator: " "), capitalized: false))]
            let takers = commands.filter { $0.optionSpecs.contains { $0.name == spec.name } }.map { $0.configuration.name }
            // One name may be repeatable for some commands only (fetch's --asset takes a list; history's one asset).
            let repeaters = commands.filter { $0.optionSpecs.contains { $0.name == spec.name && $0.isRepeatable } }.map { $0.configuration.name }
            let repeating = repeaters.isEmpty ? "." : repeaters == takers ? "; it may be given more than once."
                : "; \(HelpText.list(repeaters)) take it more than once."
            lines.append(escape("Taken by " + HelpText.list(takers) + repeating))
        }
        for option in HelpText.helpOptions {
            lines += [".TP", ([option.name] + option.aliases).map { "\\fB\(escape($0))\\fR" }.joined(separator: ", "), escape(option.meaning)]
        }
        lines.append(".SH EXIT STATUS")
        for status in ExitStatus.allCases { lines += [".TP", "\\fB\(status.rawValue)\\fR", escape(status.meaning)] }
        lines += [".TP", "\\fB\(escape(ExitStatus.signalled.status))\\fR", escape(ExitStatus.signalled.meaning)]
        lines.append(".SH ENVIRONMENT")
        for variable in HelpText.environment {
            lines += [".TP", "\\fB\(escape(variable.name))\\fR", escape(variable.manual ?? variable.help)]
        }
        lines.append(".SH FILES")
        for (path, meaning) in files { lines += [".TP", "\\fI\(escape(path))\\fR", escape(meaning)] }
        lines.append(".SH SEE ALSO")
        lines += paragraphs(seeAlso)
        return lines.joined(separator: "\n")
    }()

    /// The NAME line's, after `pricehost -`.
    static let summary = "a plugin-based price engine"

    static let description = """
        pricehost reads a config, plugins.json, loads the provider plugins it names (shared libraries, written in \
        Swift or C, each checked before it is loaded) and asks them for prices: once (fetch), on an interval or \
        as the venues push them (watch), or over HTTP (serve). What serve and watch --record get is kept in a \
        quote store, which history reads back as candles, the price at a time or a time-weighted average. \
        Data goes to standard output; diagnostics, one line each, to standard error (pricehost: error: ...).
        """

    /// The files it reads, in the order it looks.
    static let files = [
        ("./plugins.json", "the config, when neither --config nor PRICEHOST_CONFIG says which; then the next two"),
        ("~/.config/pricehost/plugins.json", "the user's config"),
        ("/etc/pricehost/plugins.json", "the system config"),
        ("PREFIX/lib/pricehost/plugins/", "the installed plugins, found as ../lib/pricehost/plugins beside the binary"),
        ("PREFIX/share/pricehost/sdk/", "the plugin kit new-plugin builds against: the C header, the ProviderABI package, the templates"),
        ("$XDG_STATE_HOME/pricehost/quotes.db", "the quote store (SQLite) that serve and watch --record write and history reads, "
            + "unless the config's store.url names another; ~/.local/state/pricehost/quotes.db when XDG_STATE_HOME is unset"),
    ]

    static let seeAlso = """
        The user guide, docs/README.md in pricehost's source: docs/configuration.md has every key of plugins.json, \
        docs/install.md how to install this page and the completion scripts (pricehost completions bash|zsh|fish); \
        PLUGINS.md is the guide to writing a plugin.
        """

    /// A usage line, the command in bold and each option's value in italics.
    static func synopsis(of command: any ParsableCommand.Type, _ line: UsageLine) -> String {
        let words = line.words.map { word -> String in
            let optional = word.hasPrefix("[") && word.hasSuffix("]")
            let name = optional ? String(word.dropFirst().dropLast()) : word
            guard let spec = command.optionSpecs.first(where: { $0.name == name }) else { return styled(word) }
            // One option and its value are not broken across lines: `\ ` is a space roff does not break at.
            let value = (spec.synopsisValue ?? spec.valueName).map { "\\ " + styled($0).replacing(" ", with: "\\ ") } ?? ""
            let text = "\\fB\(escape(spec.name))\\fR" + value
            return optional ? "[" + text + "]" : text
        }
        return (["\\fBpricehost \(escape(command.configuration.name))\\fR"] + words).joined(separator: " ")
    }

    /// `--config PATH` under OPTIONS.
    static func label(_ spec: OptionSpec) -> String {
        "\\fB\(escape(spec.name))\\fR" + (spec.valueName.map { " " + styled($0) } ?? "")
    }

    /// A value as a usage line writes it: a placeholder (`PATH`, `CODE[,CODE...]`) in italics, a word to type
    /// (`median`, `c|swift`) in bold, and what follows it (` (default 127.0.0.1:8480)`) in roman.
    static func styled(_ value: String) -> String {
        let word = value.prefix { $0 != " " }
        let placeholder = !word.contains { $0.isLowercase }
        return (placeholder ? "\\fI" : "\\fB") + escape(String(word)) + "\\fR" + escape(String(value.dropFirst(word.count)))
    }

    /// `text` with a capital (unless not `capitalized`: an option's help may start with a value, `text (default)`) and a full stop.
    static func sentence(_ text: String, capitalized: Bool = true) -> String {
        let start = capitalized ? (text.first.map { $0.uppercased() + text.dropFirst() } ?? "") : text
        return start + (text.hasSuffix(".") ? "" : ".")
    }

    /// `text` as a paragraph, a sentence a line, as roff wants it to space sentences.
    static func paragraphs(_ text: String) -> [String] {
        [".PP"] + escape(text).split(separator: ". ").map(String.init).joined(separator: ".\n").split(separator: "\n").map(String.init)
    }

    /// `text` as roff input: every backslash printed as one (`\e`), every hyphen a minus (`\-`, as
    /// options are typed), straight quotes as such (`\(aq`, `\(ga`), other characters outside ASCII
    /// as `\[uXXXX]`, and a line that would start with a control character (`.`, `'`) started with `\&`.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case "'": escaped += "\\(aq"
            case "`": escaped += "\\(ga"
            case "\n": escaped += "\n"
            case _ where scalar.value < 0x20: escaped += " "
            case _ where scalar.value > 0x7E:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") ? "\\&" + $0 : String($0) }.joined(separator: "\n")
    }
}
