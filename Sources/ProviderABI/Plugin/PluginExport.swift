import CProviderABI
import FoundationEssentials
import Glibc

/// Turns a ``ProviderPlugin`` into the C descriptor the host loads.
public enum PluginExport {
    /// The body of a Swift plugin's `pricehost_plugin_entry_v1`.
    ///
    /// Reads the provider's settings, calls `makeFetchers`, and builds a
    /// descriptor that lives for the rest of the process. Fetches run on a
    /// Swift task; the completion is called exactly once.
    /// - Parameters:
    ///   - plugin: the ``ProviderPlugin`` type to load, e.g. `MyProvider.self`.
    ///   - host: the `const ph_host_services *` the host passed in.
    /// - Returns: the `const ph_plugin_descriptor *`, or `nil` (after logging
    ///   why) when the host is unusable or `makeFetchers` throws.
    public static func entry<Plugin: ProviderPlugin>(_ plugin: Plugin.Type, host: UnsafeRawPointer?) -> UnsafeRawPointer? {
        // Without a usable table there is nothing to log through; the host reports the NULL.
        guard let host, let services = HostServices(host) else { return nil }
        let settings: JSONValue
        do {
            settings = try JSONParser.parse(services.settingsJSON(for: Plugin.name))
        } catch {
            services.log(.error, "\(Plugin.name): settings are not valid JSON: \(error)")
            return nil
        }
        let context = PluginContext(settings: JSONCursor(settings, path: "providers.\(Plugin.name)"),
                                    configDirectory: services.configDirectory, host: services)
        let registrations: [FetcherRegistration]
        let feed: StreamFeed?
        do {
            registrations = try Plugin.makeFetchers(context: context)
            feed = try Plugin.makeStream(context: context)
        } catch {
            services.log(.error, "\(error)")
            return nil
        }
        return UnsafeRawPointer(makeDescriptor(name: Plugin.name, version: Plugin.version, registrations: registrations,
                                               stream: feed.map(CStreamBridge.makeStream)))
    }

    private static func makeDescriptor(name: String, version: String, registrations: [FetcherRegistration],
                                       stream: UnsafePointer<ph_stream>?) -> UnsafePointer<ph_plugin_descriptor> {
        // Allocated once and never freed: the host never unloads a plugin.
        let fetchers = UnsafeMutablePointer<ph_fetcher>.allocate(capacity: max(registrations.count, 1))
        for (offset, registration) in registrations.enumerated() {
            let box = Unmanaged.passRetained(FetcherBox(fetcher: registration.fetcher, provider: name))
            fetchers.advanced(by: offset).initialize(to: ph_fetcher(
                struct_size: UInt32(MemoryLayout<ph_fetcher>.size),
                asset: registration.asset.map { UnsafePointer(strdup($0)) },
                context: box.toOpaque(),
                fetch: swiftFetch))
        }
        let descriptor = UnsafeMutablePointer<ph_plugin_descriptor>.allocate(capacity: 1)
        descriptor.initialize(to: ph_plugin_descriptor(
            magic: PRICEHOST_PLUGIN_MAGIC,
            abi_major: UInt16(PRICEHOST_ABI_MAJOR),
            abi_minor: UInt16(PRICEHOST_ABI_MINOR),
            descriptor_size: UInt32(MemoryLayout<ph_plugin_descriptor>.size),
            fetcher_size: UInt32(MemoryLayout<ph_fetcher>.size),
            name: UnsafePointer(strdup(name)),
            version: UnsafePointer(strdup(version)),
            fetchers: UnsafePointer(fetchers),
            fetcher_count: registrations.count,
            stream: stream))
        return UnsafePointer(descriptor)
    }
}

/// Keeps a Swift fetcher alive behind the C `context` pointer.
private final class FetcherBox: Sendable {
    let fetcher: any PriceFetcher
    let provider: String

    init(fetcher: any PriceFetcher, provider: String) {
        self.fetcher = fetcher
        self.provider = provider
    }
}

/// The host's completion and its context, carried to the task that answers.
///
/// `@unchecked Sendable` because the ABI makes it so: the completion may be
/// called from any thread, once; this value is used once.
private struct Completion: @unchecked Sendable {
    let function: ph_fetch_completion
    let context: UnsafeMutableRawPointer?

    func succeed(_ quote: Quote) {
        // 0 is "unknown" across the boundary: the host then uses the time of completion.
        let milliseconds = ISO8601Timestamp.isValid(quote.timestamp) ? Int64((quote.timestamp.timeIntervalSince1970 * 1000).rounded()) : 0
        quote.asset.withCString { asset in
            quote.currency.withCString { currency in
                DecimalAmount.format(quote.amount).withCString { amount in
                    withOptionalCString(quote.bid.map(DecimalAmount.format)) { bid in
                        withOptionalCString(quote.ask.map(DecimalAmount.format)) { ask in
                            var cQuote = ph_quote(struct_size: UInt32(MemoryLayout<ph_quote>.size), asset: asset,
                                                  currency: currency, amount: amount, timestamp_ms: milliseconds, bid: bid, ask: ask)
                            function(context, &cQuote, nil)
                        }
                    }
                }
            }
        }
    }

    func fail(_ error: any Error) {
        CError.with(error, defaultCode: .failed) { function(context, nil, $0) }
    }
}

private let swiftFetch: ph_fetch_function = { fetcherContext, request, completion, completionContext in
    guard let completion else { return }
    let done = Completion(function: completion, context: completionContext)
    guard let fetcherContext, let request, let asset = request.pointee.asset, let currency = request.pointee.currency else {
        done.fail(ProviderError(.invalidRequest, "malformed fetch request from the host"))
        return
    }
    let box = Unmanaged<FetcherBox>.fromOpaque(fetcherContext).takeUnretainedValue()
    let quoteRequest = QuoteRequest(asset: String(cString: asset), currency: String(cString: currency))
    Task {
        do {
            done.succeed(try await box.fetcher.fetchQuote(for: quoteRequest))
        } catch {
            done.fail(error)
        }
    }
}
