import Glibc

/// What `__probe` takes; `check` writes these command lines, nobody else.
extension ProbeCommand {
    static let configuration = CommandConfiguration(
        name: "__probe",
        summary: "a child process of check: loads and exercises one plugin",
        usage: [], isHidden: true)

    static let options: [Option<ProbeCommand>] = [
        .config(\.plugins), .plugin(\.pluginPath), .allowInsecurePlugins(\.plugins),
        .flag("--conformance", help: nil, \.conformance),
        .flag("--bad-settings", help: nil, \.badSettings),
        .flag("--load-only", help: nil, \.loadOnly),
        Option("--parent", value: "PID", help: nil) { probe, value throws(UsageError) in
            guard let pid = pid_t(value), pid > 0 else { throw UsageError("--parent needs a process id, not '\(value)'") }
            probe.parent = pid
        },
    ]

    func validate() throws(UsageError) {
        if pluginPath == nil { throw UsageError("__probe needs --plugin PATH") }
    }
}
