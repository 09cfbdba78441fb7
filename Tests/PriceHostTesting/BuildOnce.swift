import ConcurrencyHelpers
import Foundation

/// Builds each distinct thing (a C or Swift test plugin) once per test process
/// and shares the result. Each build has its own lock, so a build is done once
/// even when tests running in parallel ask for it at the same moment. (Built
/// twice, the second rename replaced a file a running `watch` had loaded, which
/// then warned about it.)
final class BuildOnce: Sendable {
    private final class Build: Sendable {
        let path = Lock<String?>(nil)
    }

    private let builds = Lock<[String: Build]>([:])

    /// The path `make` built for `key`, building it on the first call.
    func path(for key: String, _ make: () throws -> String) throws -> String {
        let build = builds.withLock { builds in
            if let existing = builds[key] { return existing }
            let created = Build()
            builds[key] = created
            return created
        }
        return try build.path.withLock { path throws -> String in
            if let path { return path }
            let made = try make()
            path = made
            return made
        }
    }

    /// `name` found on PATH, else `fallback`.
    static func executable(_ name: String, fallback: String) -> String {
        CommandRunner.installed(name) ?? fallback
    }
}
