/// The outcome of loading a config's plugins.
struct PluginLoadReport: Sendable {
    /// The plugins that loaded, in load order.
    var plugins: [LoadedPlugin] = []
    /// The plugins that did not, each with why.
    var failures: [PluginFailure] = []

    /// The loaded plugin that provides `provider`.
    func plugin(named provider: String) -> LoadedPlugin? {
        plugins.first { $0.name == provider }
    }

    /// The failed plugin that said it provides `provider`, when its name could be read.
    func failure(named provider: String) -> PluginFailure? {
        failures.first { $0.provider == provider }
    }
}
