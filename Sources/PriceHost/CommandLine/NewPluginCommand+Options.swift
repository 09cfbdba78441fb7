/// What `new-plugin` takes.
extension NewPluginCommand {
    static let configuration = CommandConfiguration(
        name: "new-plugin",
        summary: "write a plugin to start from, in C or Swift, built against this installation's header or ProviderABI",
        usage: [
            UsageLine("NAME", "--language", "[--dir]", note: "write a plugin to start from (default DIR: ./NAME)"),
        ])

    static let argument: Argument<NewPluginCommand>? = Argument(valueName: "NAME") { command, name in command.name = name }

    static let options: [Option<NewPluginCommand>] = [
        Option("--language", value: "c|swift", help: """
            (new-plugin) C with a Makefile (build: make), or a Swift package
            (build: swift build -c release), on this installation's header or ProviderABI
            """, completes: .choices(PluginScaffold.Language.allCases.map(\.rawValue))) { command, value throws(UsageError) in
            guard let language = PluginScaffold.Language(rawValue: value) else {
                throw UsageError("--language must be c or swift, not '\(value)'")
            }
            command.language = language
        },
        Option("--dir", value: "DIR", help: "(new-plugin) where to write it; must be new or empty",
               completes: .directory) { command, value throws(UsageError) in
            guard !value.isEmpty else { throw UsageError("--dir needs a path") }
            command.directory = value
        },
    ]

    func validate() throws(UsageError) {
        guard let name else { throw UsageError("new-plugin needs a NAME: pricehost new-plugin NAME --language c|swift") }
        if let problem = PluginScaffold.problem(withName: name) { throw UsageError("new-plugin: \(problem)") }
        guard language != nil else { throw UsageError("new-plugin needs --language c or --language swift") }
    }
}
