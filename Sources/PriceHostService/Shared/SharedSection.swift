import PriceHostCore
import ProviderABI

/// The `shared` key of `plugins.json`, as the fleet reads it: its settings, or why
/// they cannot be had in this environment (an unset `${VAR}` in `redis`).
/// `serve` refuses to start on the latter; other commands never use Redis, so a
/// secret only the service's environment holds must not stop them.
package struct SharedSection: ConfigSection {
    package static let key = "shared"

    package var settings: Result<SharedSettings, JSONShapeError>

    package static func read(_ section: JSONCursor, environment: [String: String]) throws(JSONShapeError) -> SharedSection {
        SharedSection(settings: try SharedSettings.read(section, environment: environment))
    }
}

extension Config {
    /// `shared`: the Redis a fleet of `serve` instances shares; `nil` when absent or unreadable.
    package var shared: SharedSettings? { try? section(SharedSection.self)?.settings.get() }

    /// Why `shared.redis` could not be read (an unset `${VAR}`): `serve` refuses to start.
    package var sharedProblem: JSONShapeError? {
        guard case .failure(let problem) = section(SharedSection.self)?.settings else { return nil }
        return problem
    }
}
