/// The outcome of loading a config's plugins.
package struct PluginLoadReport: Sendable {
    /// The plugins that loaded, in load order.
    package var plugins: [LoadedPlugin] = []
    /// The plugins that did not, each with why.
    package var failures: [PluginFailure] = []

    /// The loaded plugin that provides `provider`.
    package func plugin(named provider: String) -> LoadedPlugin? {
        plugins.first { $0.name == provider }
    }

    /// The failed plugin that said it provides `provider`, when its name could be read.
    package func failure(named provider: String) -> PluginFailure? {
        failures.first { $0.provider == provider }
    }
}
