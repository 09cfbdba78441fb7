/// What `check` takes.
extension CheckCommand {
    static let configuration = CommandConfiguration(
        name: "check",
        summary: "check the config, then load and exercise every plugin in a child process; exit 3 on any problem",
        usage: [
            UsageLine("[--format]"),
            UsageLine("--plugin", "[--config]", note: "conformance check of one plugin (PLUGINS.md)", gap: 5),
        ])

    static let formats: [Invocation.Format] = [.text, .json]

    static let options: [Option<CheckCommand>] = [
        .config(\.plugins), .format(\.format, supported: formats), .plugin(\.pluginPath), .allowInsecurePlugins(\.plugins),
    ]

    func validate() throws(UsageError) {
        try format.require(Self.formats, by: Self.configuration.name)
    }
}

extension Option {
    /// `--plugin PATH`: `check`'s conformance check of one plugin file, and the probe's target.
    static func plugin(_ property: WritableKeyPath<Root, String?> & Sendable) -> Option {
        Option("--plugin", value: "PATH", help: nil, manual: """
            (check) one plugin file to check on its own, in child processes: its conformance to the ABI;
            without --config it gets {} as its settings (PLUGINS.md)
            """, completes: .file) { root, value throws(UsageError) in
            guard !value.isEmpty else { throw UsageError("--plugin needs a path") }
            root[keyPath: property] = value
        }
    }
}
