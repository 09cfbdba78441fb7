import FoundationEssentials
import ProviderABI

/// `plugins.json`, parsed and checked.
package struct Config: Sendable {
    /// One entry of `plugins`: a bare file name searched for, or a path.
    package struct PluginReference: Sendable, Equatable {
        /// As written in the file.
        var reference: String
        /// Where it was written, e.g. `plugins[1]`.
        var keyPath: String
        /// The pinned SHA-256, 64 lower-case hex digits, from `{"path": …, "sha256": …}`.
        package var sha256: String?

        /// True when `reference` names a path (has a '/') rather than a file to search for.
        var isPath: Bool { reference.contains("/") }
    }

    /// What `defaults` holds.
    package struct Defaults: Sendable, Equatable {
        /// `defaults.provider`, the provider used when neither `--provider` nor `assets.X.provider` says.
        package var provider: String?
        /// `defaults.currency`, used when `--currency` is not given; `USD` when absent.
        package var currency: String?
    }

    /// What `assets.X` holds.
    package struct AssetSettings: Sendable, Equatable {
        /// `assets.X.provider`: who answers for asset X.
        package var provider: String?
        /// `assets.X.providers`: who answers, tried in order until one does (instead of `provider`).
        package var providers: [String]?
        /// `assets.X.maxAgeSeconds`: an older quote for X is stale (overrides the provider's).
        package var maxAgeSeconds: Int?
        /// `assets.X.bounds.min`: a lower price for X is rejected.
        var minimum: Decimal?
        /// `assets.X.bounds.max`: a higher price for X is rejected.
        var maximum: Decimal?
        /// `assets.X.maxDeviationBps`: with `--aggregate`, a source further than this from the median is flagged.
        package var maxDeviationBps: Int?

        /// The providers to try, in order: `providers`, else `provider`; `nil` when neither is set.
        package var providerOrder: [String]? {
            providers ?? provider.map { [$0] }
        }
    }

    /// The config file, absolute.
    package var path: String
    /// The directory of the config file, absolute; relative paths in the file are relative to it.
    package var directory: String
    /// `plugins`, in order.
    package var plugins: [PluginReference] = []
    /// `pluginDirectories`, made absolute.
    var pluginDirectories: [String] = []
    /// `providers`: each provider's settings object, with `${VAR}` replaced and
    /// the host's own keys (``ProviderPolicy/keys``) removed, by provider name.
    package var providerSettings: [String: JSONValue] = [:]
    /// The host's networking policy per provider, from the same objects.
    package var providerPolicies: [String: ProviderPolicy] = [:]
    /// `defaults`.
    package var defaults = Defaults()
    /// `assets`, by upper-case asset code.
    package var assets: [String: AssetSettings] = [:]
    /// `crossVia`: the bridge currencies a pair no provider quotes is derived through, in the order tried.
    package var crossVia: [String] = ["USD"]
    /// The subsystems' own sections (``ConfigSection``), as each read itself, by key.
    package var sections: [String: any ConfigSection] = [:]

    /// The section `type` owns, as it read itself; `nil` when the file has none.
    package func section<Section: ConfigSection>(_ type: Section.Type) -> Section? {
        sections[Section.key] as? Section
    }

    /// The networking policy for `provider`: its own, or the defaults.
    package func policy(for provider: String) -> ProviderPolicy {
        providerPolicies[provider] ?? ProviderPolicy()
    }

    /// The currency to use when none is given on the command line.
    package var defaultCurrency: String { defaults.currency ?? "USD" }

    /// `path` made absolute against ``directory``.
    func absolutePath(_ path: String) -> String {
        FilePath.absolute(path, relativeTo: directory)
    }
}

extension Config {
    /// A config with nothing in it but where it lives, for `check --plugin` without a file.
    package init(path: String, directory: String) {
        self.path = path
        self.directory = directory
    }
}
