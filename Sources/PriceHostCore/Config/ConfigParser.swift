import FoundationEssentials
import Glibc
import ProviderABI

/// Strict reading of `plugins.json`: unknown keys and wrong types are errors
/// naming the key path; `${VAR}` in provider settings is replaced from the
/// environment.
enum ConfigParser {
    /// The keys the core reads; subsystems add theirs as ``ConfigSection``s.
    static let coreKeys = ["plugins", "pluginDirectories", "providers", "defaults", "assets", "crossVia"]
    /// The keys of `defaults`.
    static let defaultsKeys = ["provider", "currency"]
    /// The keys of an entry of `assets`.
    static let assetKeys = ["provider", "providers", "maxAgeSeconds", "bounds", "maxDeviationBps"]
    /// The keys of an asset's `bounds`.
    static let boundsKeys = ["min", "max"]
    /// The keys of an entry of `plugins` given as an object.
    static let pluginEntryKeys = ["path", "sha256"]

    /// Parses the bytes of a config file.
    /// - Parameters:
    ///   - bytes: the file's bytes, UTF-8 JSON.
    ///   - path: the file, absolute; relative paths in it are relative to its directory.
    ///   - environment: the variables `${VAR}` may name.
    ///   - sections: the top-level keys that subsystems own, each read by its type.
    /// - Throws: ``ConfigError`` naming the line and column, or the key path.
    package static func parse(_ bytes: [UInt8], path: String, environment: [String: String],
                      sections: [any ConfigSection.Type] = []) throws(ConfigError) -> Config {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw ConfigError(path: path, reason: "\(error)")
        }
        do {
            return try read(JSONCursor(root), path: path, environment: environment, sections: sections)
        } catch let error as JSONShapeError {
            throw ConfigError(path: path, reason: error.description)
        } catch let error as ConfigError {
            throw error
        } catch {
            throw ConfigError(path: path, reason: "\(error)")
        }
    }

    private static func read(_ root: JSONCursor, path: String, environment: [String: String],
                             sections: [any ConfigSection.Type]) throws -> Config {
        try root.rejectUnknownKeys(allowed: coreKeys + sections.map { $0.key })
        var config = Config(path: path, directory: FilePath.directory(of: path))

        for element in try root.optionalMember("plugins")?.elements() ?? [] {
            config.plugins.append(try readPluginReference(element))
        }
        for element in try root.optionalMember("pluginDirectories")?.elements() ?? [] {
            let directory = try element.string()
            guard !directory.isEmpty else { throw element.error("must not be empty") }
            config.pluginDirectories.append(config.absolutePath(directory))
        }
        for (name, settings) in try root.optionalMember("providers")?.members() ?? [] {
            guard ProviderName.isValid(name) else { throw settings.error(ProviderName.rule) }
            _ = try settings.members()  // settings must be an object
            let substituted = JSONCursor(try EnvironmentSubstitution.apply(to: settings, environment: environment), path: settings.path)
            var policy = try ProviderPolicy(settings: substituted)
            if let caFile = policy.caFile, let member = try substituted.optionalMember("caFile") {
                let path = config.absolutePath(caFile)
                guard access(path, R_OK) == 0 else {
                    throw member.error("cannot read the CA file \(path): \(String(cString: strerror(errno)))")
                }
                policy.caFile = path
            }
            config.providerPolicies[name] = policy
            guard case .object(var object) = substituted.value else { throw settings.error("expected an object") }
            for key in ProviderPolicy.keys { object[key] = nil }
            config.providerSettings[name] = .object(object)
        }
        if let defaults = try root.optionalMember("defaults") {
            try defaults.rejectUnknownKeys(allowed: defaultsKeys)
            config.defaults.provider = try defaults.optionalMember("provider").map(readProviderName)
            config.defaults.currency = try defaults.optionalMember("currency").map(readCode)
        }
        for (code, settings) in try root.optionalMember("assets")?.members() ?? [] {
            guard let asset = AssetCode.normalized(code) else {
                throw settings.error("asset code must be 2 to 10 letters or digits")
            }
            try settings.rejectUnknownKeys(allowed: assetKeys)
            guard config.assets[asset] == nil else { throw settings.error("\(asset) is given twice") }
            var entry = Config.AssetSettings(provider: try settings.optionalMember("provider").map(readProviderName))
            if let list = try settings.optionalMember("providers") {
                guard entry.provider == nil else { throw list.error("give provider or providers, not both") }
                let names = try list.elements().map(readProviderName)
                guard !names.isEmpty else { throw list.error("must name at least one provider") }
                guard Set(names).count == names.count else { throw list.error("names a provider twice") }
                entry.providers = names
            }
            entry.maxAgeSeconds = try settings.optionalMember("maxAgeSeconds")?.integer(in: 1...31_536_000)
            entry.maxDeviationBps = try settings.optionalMember("maxDeviationBps")?.integer(in: 1...1_000_000)
            if let bounds = try settings.optionalMember("bounds") {
                try bounds.rejectUnknownKeys(allowed: boundsKeys)
                entry.minimum = try bounds.optionalMember("min").map(readAmount)
                entry.maximum = try bounds.optionalMember("max").map(readAmount)
                if let minimum = entry.minimum, let maximum = entry.maximum, minimum > maximum {
                    throw bounds.error("min \(DecimalAmount.format(minimum)) is above max \(DecimalAmount.format(maximum))")
                }
            }
            config.assets[asset] = entry
        }
        if let list = try root.optionalMember("crossVia") {
            let codes = try list.elements().map(readCode)
            guard Set(codes).count == codes.count else { throw list.error("names a currency twice") }
            config.crossVia = codes
        }
        for section in sections {
            if let object = try root.optionalMember(section.key) {
                config.sections[section.key] = try section.read(object, environment: environment)
            }
        }
        return config
    }

    private static func readPluginReference(_ element: JSONCursor) throws -> Config.PluginReference {
        let reference: String
        var sha256: String?
        switch element.value {
        case .string(let text):
            reference = text
        case .object:
            try element.rejectUnknownKeys(allowed: pluginEntryKeys)
            if let pin = try element.optionalMember("sha256") {
                let text = try pin.string().lowercased()
                guard text.count == 64, text.allSatisfy(\.isHexDigit) else {
                    throw pin.error("expected 64 hex digits (the output of sha256sum, or the sha256 that `pricehost providers --format json` prints)")
                }
                sha256 = text
            }
            reference = try element.member("path").string()
        default:
            throw element.error("expected a file name, a path, or {\"path\": …}, found \(element.value.kindDescription)")
        }
        guard !reference.isEmpty else { throw element.error("must not be empty") }
        return Config.PluginReference(reference: reference, keyPath: element.path, sha256: sha256)
    }

    private static func readProviderName(_ cursor: JSONCursor) throws -> String {
        let name = try cursor.string()
        guard ProviderName.isValid(name) else { throw cursor.error(ProviderName.rule) }
        return name
    }

    private static func readAmount(_ cursor: JSONCursor) throws -> Decimal {
        let text = try cursor.string()
        guard let amount = DecimalAmount.parse(text) else {
            throw cursor.error("expected a decimal string such as \"1000.50\", found \(JSONValue.quoted(text))")
        }
        return amount
    }

    private static func readCode(_ cursor: JSONCursor) throws -> String {
        let text = try cursor.string()
        guard let code = AssetCode.normalized(text) else { throw cursor.error("must be 2 to 10 letters or digits, found \(JSONValue.quoted(text))") }
        return code
    }
}
