import CProviderABI
import ProviderABI

/// Reads a plugin's descriptor defensively: magic first, then the major
/// version, then the sizes, and only then the rest, copying no more bytes
/// than the plugin says its structs have (newer fields read as zero).
package enum DescriptorReader {
    package struct Problem: Error {
        package var reason: String
        /// The provider name, when it had been read before the problem was found.
        package var provider: String?

        package init(provider: String? = nil, reason: String) {
            self.reason = reason
            self.provider = provider
        }
    }

    /// The smallest sizes a 1.x plugin may declare: the 1.0 layouts. The descriptor
    /// of 1.0 to 1.2 ends where 1.3 appended `stream`; `ph_fetcher` has not grown.
    static let minimumDescriptorSize = MemoryLayout<ph_plugin_descriptor>.offset(of: \ph_plugin_descriptor.stream) ?? 0
    static let minimumFetcherSize = MemoryLayout<ph_fetcher>.size
    static let maximumFetchers = 10_000
    /// Larger sizes are garbage, not a future minor version: stepping by them would read far past the plugin's data.
    static let maximumStructSize = 4096
    /// Where 1.3's `stream` field ends: a smaller descriptor has none.
    static let streamFieldEnd = (MemoryLayout<ph_plugin_descriptor>.offset(of: \ph_plugin_descriptor.stream) ?? 0) + MemoryLayout<UnsafeRawPointer>.size

    package static func read(_ raw: UnsafePointer<ph_plugin_descriptor>, registered: [UnsafePointer<ph_fetcher>], path: String,
                     fetchTimeout: @Sendable (_ provider: String) -> Duration = { _ in ProviderPolicy().fetchDeadline },
                     isWaitingOnHost: @escaping @Sendable () -> Bool = { false },
                     diagnostics: Diagnostics = .process) -> Result<LoadedPlugin, Problem> {
        let bytes = UnsafeRawPointer(raw)
        let magic = bytes.loadUnaligned(as: UInt32.self)
        guard magic == PRICEHOST_PLUGIN_MAGIC else {
            return .failure(Problem(reason: "wrong magic number 0x\(hex(magic)) (expected 0x\(hex(PRICEHOST_PLUGIN_MAGIC))): the entry did not return a pricehost descriptor"))
        }
        let major = bytes.loadUnaligned(fromByteOffset: 4, as: UInt16.self)
        let minor = bytes.loadUnaligned(fromByteOffset: 6, as: UInt16.self)
        guard major == PRICEHOST_ABI_MAJOR else {
            return .failure(Problem(reason: "built for plugin ABI \(major).\(minor); this pricehost speaks ABI \(PRICEHOST_ABI_MAJOR).\(PRICEHOST_ABI_MINOR); rebuild the plugin against this pricehost's header"))
        }
        let descriptorSize = Int(bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        guard descriptorSize >= minimumDescriptorSize else {
            return .failure(Problem(reason: "descriptor_size is \(descriptorSize) bytes, smaller than the \(minimumDescriptorSize) of ABI 1.0: the plugin was built against a broken header"))
        }
        guard descriptorSize <= maximumStructSize else {
            return .failure(Problem(reason: "descriptor_size is \(descriptorSize) bytes, more than the \(maximumStructSize) any 1.x descriptor can have"))
        }
        let descriptor = CStruct.copyPrefix(of: bytes, size: descriptorSize, as: ph_plugin_descriptor.self)
        let fetcherSize = Int(descriptor.fetcher_size)
        guard fetcherSize >= minimumFetcherSize else {
            return .failure(Problem(reason: "fetcher_size is \(fetcherSize) bytes, smaller than the \(minimumFetcherSize) of ABI 1.0"))
        }
        guard fetcherSize <= maximumStructSize else {
            return .failure(Problem(reason: "fetcher_size is \(fetcherSize) bytes, more than the \(maximumStructSize) any 1.x fetcher can have"))
        }
        guard let namePointer = descriptor.name else { return .failure(Problem(reason: "the descriptor has no name")) }
        let name = String(cString: namePointer)
        guard ProviderName.isValid(name) else {
            return .failure(Problem(reason: "provider name \(JSONValue.quoted(name)) is invalid: \(ProviderName.rule)"))
        }
        let version = descriptor.version.map { String(cString: $0) } ?? ""
        guard !version.isEmpty, version.utf8.count <= 64, version.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
            return .failure(Problem(provider: name, reason: "version must be 1 to 64 printable characters"))
        }
        // size_t arrives as Int: a "negative" count is a huge one.
        guard (0...maximumFetchers).contains(descriptor.fetcher_count) else {
            return .failure(Problem(provider: name, reason: "declares \(UInt(bitPattern: descriptor.fetcher_count)) fetchers; the limit is \(maximumFetchers)"))
        }
        guard descriptor.fetcher_count == 0 || descriptor.fetchers != nil else {
            return .failure(Problem(provider: name, reason: "fetcher_count is \(descriptor.fetcher_count) but fetchers is NULL"))
        }

        var fetcherStructs: [(ph_fetcher, String)] = []
        if let array = descriptor.fetchers.map(UnsafeRawPointer.init) {
            for index in 0..<descriptor.fetcher_count {
                let element = array.advanced(by: index * fetcherSize)
                fetcherStructs.append((CStruct.copyPrefix(of: element, size: fetcherSize, as: ph_fetcher.self), "fetchers[\(index)]"))
            }
        }
        for (index, pointer) in registered.enumerated() {
            let element = UnsafeRawPointer(pointer)
            let size = Int(element.loadUnaligned(as: UInt32.self))
            guard (minimumFetcherSize...maximumStructSize).contains(size) else {
                return .failure(Problem(provider: name, reason: "registered fetcher #\(index + 1) has struct_size \(size); a 1.x fetcher has \(minimumFetcherSize) to \(maximumStructSize)"))
            }
            fetcherStructs.append((CStruct.copyPrefix(of: element, size: size, as: ph_fetcher.self), "registered fetcher #\(index + 1)"))
        }
        guard !fetcherStructs.isEmpty else { return .failure(Problem(provider: name, reason: "the plugin offers no fetchers")) }

        var fetchers: [PluginFetcher] = []
        var seenAssets = Set<String?>()
        for (fetcher, label) in fetcherStructs {
            guard let fetch = fetcher.fetch else { return .failure(Problem(provider: name, reason: "\(label) has no fetch function")) }
            var asset: String?
            if let assetPointer = fetcher.asset {
                let text = String(cString: assetPointer)
                guard let code = AssetCode.normalized(text) else {
                    return .failure(Problem(provider: name, reason: "\(label) has asset \(JSONValue.quoted(text)), which is not 2 to 10 letters or digits"))
                }
                asset = code
            }
            guard seenAssets.insert(asset).inserted else {
                let what = asset.map { "asset \($0)" } ?? "any asset (asset NULL)"
                return .failure(Problem(provider: name, reason: "two fetchers for \(what); a provider has one per asset and one general fetcher"))
            }
            let adapter = PluginPriceFetcher(provider: name, pluginPath: path, completionTimeout: fetchTimeout(name),
                                             isWaitingOnHost: isWaitingOnHost,
                                             function: CFetchFunction(fetch: fetch, context: fetcher.context),
                                             diagnostics: diagnostics)
            fetchers.append(PluginFetcher(provider: name, asset: asset, fetcher: adapter))
        }
        fetchers.sort { ($0.asset ?? "") < ($1.asset ?? "") }
        var stream: PluginStream?
        // 1.3's `stream` is read only when the plugin's descriptor is large enough to have it.
        if descriptorSize >= streamFieldEnd, let pointer = descriptor.stream {
            switch PluginStream.read(pointer, provider: name) {
            case .success(let read): stream = read
            case .failure(let problem): return .failure(problem)
            }
        }
        return .success(LoadedPlugin(path: path, name: name, version: version, abiVersion: "\(major).\(minor)", fetchers: fetchers,
                                     stream: stream))
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
