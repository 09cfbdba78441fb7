import PriceHostCore
import ProviderABI

/// The `store` key of `plugins.json`: where `serve` (and `watch --record`) keep the quotes they
/// get, and how long.
///
/// ```json
/// "store": {"url": "sqlite:quotes.db", "retentionDays": 90, "rawRetentionDays": 7}
/// "store": {"url": "postgres://pricehost:${PGPASSWORD}@db.internal:5432/quotes?sslmode=require"}
/// "store": {"enabled": false}
/// ```
///
/// Without the key, `serve` keeps its store at `$XDG_STATE_HOME/pricehost/quotes.db`
/// (`~/.local/state/pricehost/quotes.db` when `XDG_STATE_HOME` is unset).
package struct StoreSection: ConfigSection, Equatable {
    package static let key = "store"
    /// The keys `store` takes.
    package static let keys = ["url", "enabled", "retentionDays", "rawRetentionDays"]

    /// `enabled` (default true): false turns the store off.
    package var enabled = true
    /// `url`, after `${VAR}` substitution: an SQLite path as written (relative to the config file's directory unless
    /// absolute), or a PostgreSQL URL.
    package var location: StoreLocation?
    /// `retentionDays` (1 to 3650, default 90): how long candles are kept.
    package var retentionDays = 90
    /// `rawRetentionDays` (1 to `retentionDays`, default 7, or `retentionDays` when that is shorter): how long individual quotes are kept.
    package var rawRetentionDays = 7

    package init() {}

    package static func read(_ section: JSONCursor, environment: [String: String]) throws(JSONShapeError) -> StoreSection {
        try section.rejectUnknownKeys(allowed: keys)
        var store = StoreSection()
        if let enabled = try section.optionalMember("enabled") { store.enabled = try enabled.bool() }
        if let url = try section.optionalMember("url") {
            let text = try EnvironmentSubstitution.substitute(try url.string(), at: url, environment: environment)
            store.location = try location(of: text, at: url)
        }
        if let days = try section.optionalMember("retentionDays") { store.retentionDays = try days.integer(in: 1...3_650) }
        if let days = try section.optionalMember("rawRetentionDays") {
            store.rawRetentionDays = try days.integer(in: 1...3_650)
            guard store.rawRetentionDays <= store.retentionDays else {
                throw days.error("rawRetentionDays (\(store.rawRetentionDays)) must not be more than retentionDays (\(store.retentionDays))")
            }
        } else {
            // The default, 7, within a shorter retentionDays: quotes are never kept longer than their candles.
            store.rawRetentionDays = min(store.rawRetentionDays, store.retentionDays)
        }
        return store
    }

    /// `sqlite:PATH` (`sqlite:///abs/path` is `/abs/path` too), or a `postgres://` or `postgresql://` URL.
    /// Messages never quote a PostgreSQL URL: it may hold a password.
    static func location(of url: String, at cursor: JSONCursor) throws(JSONShapeError) -> StoreLocation {
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            do throws(PostgresURL.Invalid) {
                return .postgres(try PostgresURL(url))
            } catch {
                throw cursor.error(error.description)
            }
        }
        guard url.hasPrefix("sqlite:") else {
            let scheme = url.split(separator: ":", maxSplits: 1).first.map(String.init) ?? url
            throw cursor.error("expected sqlite:PATH or postgres://USER:PASSWORD@HOST:PORT/DATABASE, not a \(JSONValue.quoted(scheme)) URL")
        }
        var path = Substring(url.dropFirst("sqlite:".count))
        if path.hasPrefix("//") { path = path.dropFirst(2) }
        guard !path.isEmpty, !path.hasSuffix("/") else { throw cursor.error("expected sqlite:PATH with the path of a file, e.g. sqlite:quotes.db") }
        guard !path.utf8.contains(0) else { throw cursor.error("the path holds a NUL byte") }
        return .sqlite(String(path))
    }
}

/// Where the quote store is: an SQLite file, or a PostgreSQL database that a fleet's instances share.
package enum StoreLocation: Sendable, Equatable, CustomStringConvertible {
    /// The database file's path.
    case sqlite(String)
    /// The database's URL.
    case postgres(PostgresURL)

    /// What messages, `/readyz` and the metrics name: the path, or the URL without its password.
    package var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let url): url.redacted
        }
    }
}

/// Where the store is and how long it keeps what, once the config and the environment are known.
package struct StoreSettings: Sendable, Equatable {
    /// The database: a file (absolute), or a PostgreSQL URL.
    package var location: StoreLocation
    package var retentionDays: Int
    package var rawRetentionDays: Int
    /// Whether the config named the store (`store.url`): a path that cannot be created is then a config error;
    /// the default path is only warned about.
    package var isConfigured: Bool

    package init(location: StoreLocation, retentionDays: Int = 90, rawRetentionDays: Int = 7, isConfigured: Bool = true) {
        self.location = location
        self.retentionDays = retentionDays
        self.rawRetentionDays = rawRetentionDays
        self.isConfigured = isConfigured
    }

    /// An SQLite file at `path`.
    package init(path: String, retentionDays: Int = 90, rawRetentionDays: Int = 7, isConfigured: Bool = true) {
        self.init(location: .sqlite(path), retentionDays: retentionDays, rawRetentionDays: rawRetentionDays, isConfigured: isConfigured)
    }

    /// The default file: `$XDG_STATE_HOME/pricehost/quotes.db`, or `$HOME/.local/state/pricehost/quotes.db`; `nil` with neither set.
    package static func defaultPath(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return FilePath.normalized(state + "/pricehost/quotes.db") }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return FilePath.normalized(home + "/.local/state/pricehost/quotes.db")
    }
}

extension Config {
    /// The store the config asks for: `nil` when `store.enabled` is false, or when it names none
    /// and neither `XDG_STATE_HOME` nor `HOME` gives the default file. Only an SQLite path is relative to the config file.
    package func storeSettings(environment: [String: String]) -> StoreSettings? {
        let section = section(StoreSection.self) ?? StoreSection()
        guard section.enabled else { return nil }
        let configured: StoreLocation? = section.location.map { location in
            guard case .sqlite(let path) = location else { return location }
            return .sqlite(FilePath.absolute(path, relativeTo: directory))
        }
        guard let location = configured ?? StoreSettings.defaultPath(environment: environment).map(StoreLocation.sqlite) else { return nil }
        return StoreSettings(location: location, retentionDays: section.retentionDays, rawRetentionDays: section.rawRetentionDays,
                             isConfigured: configured != nil)
    }

    /// Whether `store.enabled` is false.
    package var storeDisabled: Bool { section(StoreSection.self)?.enabled == false }
}
