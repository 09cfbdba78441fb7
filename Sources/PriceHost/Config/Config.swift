import FoundationEssentials
import ProviderABI

/// `plugins.json`, parsed and checked.
struct Config: Sendable {
    /// One entry of `plugins`: a bare file name searched for, or a path.
    struct PluginReference: Sendable, Equatable {
        /// As written in the file.
        var reference: String
        /// Where it was written, e.g. `plugins[1]`.
        var keyPath: String
        /// The pinned SHA-256, 64 lower-case hex digits, from `{"path": …, "sha256": …}`.
        var sha256: String?

        /// True when `reference` names a path (has a '/') rather than a file to search for.
        var isPath: Bool { reference.contains("/") }
    }

    /// What `defaults` holds.
    struct Defaults: Sendable, Equatable {
        /// `defaults.provider`, the provider used when neither `--provider` nor `assets.X.provider` says.
        var provider: String?
        /// `defaults.currency`, used when `--currency` is not given; `USD` when absent.
        var currency: String?
    }

    /// What `assets.X` holds.
    struct AssetSettings: Sendable, Equatable {
        /// `assets.X.provider`: who answers for asset X.
        var provider: String?
        /// `assets.X.providers`: who answers, tried in order until one does (instead of `provider`).
        var providers: [String]?
        /// `assets.X.maxAgeSeconds`: an older quote for X is stale (overrides the provider's).
        var maxAgeSeconds: Int?
        /// `assets.X.bounds.min`: a lower price for X is rejected.
        var minimum: Decimal?
        /// `assets.X.bounds.max`: a higher price for X is rejected.
        var maximum: Decimal?
        /// `assets.X.maxDeviationBps`: with `--aggregate`, a source further than this from the median is flagged.
        var maxDeviationBps: Int?

        /// The providers to try, in order: `providers`, else `provider`; `nil` when neither is set.
        var providerOrder: [String]? {
            providers ?? provider.map { [$0] }
        }
    }

    /// The config file, absolute.
    var path: String
    /// The directory of the config file, absolute; relative paths in the file are relative to it.
    var directory: String
    /// `plugins`, in order.
    var plugins: [PluginReference] = []
    /// `pluginDirectories`, made absolute.
    var pluginDirectories: [String] = []
    /// `providers`: each provider's settings object, with `${VAR}` replaced and
    /// the host's own keys (``ProviderPolicy/keys``) removed, by provider name.
    var providerSettings: [String: JSONValue] = [:]
    /// The host's networking policy per provider, from the same objects.
    var providerPolicies: [String: ProviderPolicy] = [:]
    /// `defaults`.
    var defaults = Defaults()
    /// `assets`, by upper-case asset code.
    var assets: [String: AssetSettings] = [:]
    /// `serve`: what `pricehost serve` listens on and allows.
    var serve = ServeSettings()
    /// `shared`: the Redis a fleet of `serve` instances shares; `nil` when absent.
    var shared: SharedSettings?
    /// Why `shared.redis` could not be read (an unset `${VAR}`): `serve` refuses to start; other commands never use it.
    var sharedProblem: JSONShapeError?

    /// The networking policy for `provider`: its own, or the defaults.
    func policy(for provider: String) -> ProviderPolicy {
        providerPolicies[provider] ?? ProviderPolicy()
    }

    /// The currency to use when none is given on the command line.
    var defaultCurrency: String { defaults.currency ?? "USD" }

    /// `path` made absolute against ``directory``.
    func absolutePath(_ path: String) -> String {
        FilePath.absolute(path, relativeTo: directory)
    }
}
