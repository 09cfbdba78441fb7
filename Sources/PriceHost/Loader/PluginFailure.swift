/// A plugin that did not load, and why. The other plugins keep working.
public struct PluginFailure: Error, CustomStringConvertible, Sendable, Equatable {
    /// The plugin file as found (or as written in the config when it was not found).
    public var path: String
    /// The provider the plugin said it is, when the failure came after its name was read.
    public var provider: String?
    /// Why, in one line.
    public var reason: String

    /// Creates a failure.
    public init(path: String, provider: String? = nil, reason: String) {
        self.path = path
        self.provider = provider
        self.reason = reason
    }

    /// `plugin /opt/plugins/libBad.so: not an ELF shared library (…)`.
    public var description: String { "plugin \(path): \(reason)" }
}
