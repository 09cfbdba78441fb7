/// A plugin that did not load, and why. The other plugins keep working.
package struct PluginFailure: Error, CustomStringConvertible, Sendable, Equatable {
    /// The plugin file as found (or as written in the config when it was not found).
    package var path: String
    /// The provider the plugin said it is, when the failure came after its name was read.
    package var provider: String?
    /// Why, in one line.
    package var reason: String
    /// The file that already provides this plugin's provider name, when that is why it was refused.
    var duplicateOf: String?
    /// The plugin's entry ran and declined to load (returned NULL), giving its own reason.
    var declined = false

    /// Creates a failure.
    init(path: String, provider: String? = nil, reason: String, duplicateOf: String? = nil) {
        self.path = path
        self.provider = provider
        self.reason = reason
        self.duplicateOf = duplicateOf
    }

    /// `plugin /opt/plugins/libBad.so: not an ELF shared library (…)`.
    package var description: String { "plugin \(path): \(reason)" }
}
