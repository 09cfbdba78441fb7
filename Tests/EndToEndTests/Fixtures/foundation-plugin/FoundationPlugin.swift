// A Swift plugin as most authors first write one: it imports Foundation (not
// FoundationEssentials) and uses it. Built out of tree by the end-to-end tests
// (SwiftPluginBuilder), against the ProviderABI product.
import Foundation
import ProviderABI

/// Prices USDC at 1 from a string parsed by Foundation's own formatter; any other
/// asset is a clean not_found.
struct PegFetcher: PriceFetcher {
    func fetchQuote(for request: QuoteRequest) async throws -> Quote {
        guard request.asset == "USDC" else { throw ProviderError(.notFound, "no price for \(request.pair)") }
        // Foundation proper, not just Essentials: NumberFormatter lives in Foundation.
        let formatter = NumberFormatter()
        formatter.minimumFractionDigits = 2
        let text = formatter.string(from: NSNumber(value: 1)) ?? "1.00"
        guard let amount = DecimalAmount.parse(text) else {
            throw ProviderError(.invalidResponse, "Foundation formatted 1 as \(text)")
        }
        return Quote(asset: request.asset, currency: request.currency, amount: amount, provider: FoundationProvider.name, timestamp: Date())
    }
}

enum FoundationProvider: ProviderPlugin {
    static let name = "foundation"
    static let version = "1.0.0"

    static func makeFetchers(context: PluginContext) throws -> [FetcherRegistration] {
        do {
            try context.settings.rejectUnknownKeys(allowed: [])
        } catch {
            throw ProviderError(.invalidSettings, "invalid settings: \(error)")
        }
        return [FetcherRegistration(asset: nil, fetcher: PegFetcher())]
    }
}

@_cdecl("pricehost_plugin_entry_v1")
public func pricehostPluginEntry(_ host: UnsafeRawPointer?) -> UnsafeRawPointer? {
    PluginExport.entry(FoundationProvider.self, host: host)
}
