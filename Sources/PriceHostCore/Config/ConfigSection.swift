import ProviderABI

/// A top-level key of `plugins.json` that a subsystem above the core owns
/// (`serve`, `shared`). The config root knows none of them: the composition root
/// hands the parser the sections it wires, the parser lets each read its own
/// object when the file is read, and the subsystem asks ``Config/section(_:)``
/// for the result.
package protocol ConfigSection: Sendable {
    /// The top-level key.
    static var key: String { get }

    /// Reads the section's object; `environment` holds what `${VAR}` may name.
    /// - Throws: ``JSONShapeError`` naming the key: the whole config is refused.
    static func read(_ section: JSONCursor, environment: [String: String]) throws(JSONShapeError) -> Self
}
