import ProviderABI

/// The file provider: prices from a JSON or CSV file named in its settings.
///
/// Settings: `{"path": "prices.json"}`; a relative path is relative to the
/// config file. One general fetcher serves every pair in the file.
public enum FileProviderPlugin: ProviderPlugin {
    /// The provider name, `file`.
    public static let name = "file"
    /// The plugin version.
    public static let version = "1.0.0"

    /// Reads the settings and checks the file once, so a broken file shows at load.
    public static func makeFetchers(context: PluginContext) throws -> [FetcherRegistration] {
        let settings = context.settings
        do {
            try settings.rejectUnknownKeys(allowed: ["path"])
            let path = try settings.member("path").string()
            guard !path.isEmpty else { throw settings.error("path: must not be empty") }
            let fetcher = PriceFileFetcher(path: context.absolutePath(path), provider: name)
            do {
                try fetcher.validate()
            } catch {
                // A broken file is not fatal at load: it may be fixed before the
                // next fetch, which re-reads it. Say so now, though.
                context.log(.warning, "\(error)")
            }
            return [FetcherRegistration(asset: nil, fetcher: fetcher)]
        } catch let error as JSONShapeError {
            throw ProviderError(.invalidSettings, "invalid settings: \(error)")
        }
    }
}
