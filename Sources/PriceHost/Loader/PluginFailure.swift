/// A plugin that did not load, and why. The other plugins keep working.
public struct PluginFailure: Error, CustomStringConvertible, Sendable, Equatable {
    /// The plugin file as found (or as written in the config when it was not found).
    public var path: String
    /// Why, in one line.
    public var reason: String

    /// Creates a failure.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `plugin /opt/plugins/libBad.so: not an ELF shared library (…)`.
    public var description: String { "plugin \(path): \(reason)" }
}
