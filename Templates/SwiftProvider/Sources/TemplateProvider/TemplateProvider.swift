import Foundation
import ProviderABI

/// Asks an HTTP service, through the host's HTTP (its timeouts, retries and
/// size cap), for `GET {baseURL}/{ASSET}-{CURRENCY}`; the body is the price as
/// a decimal string. 200 is a quote, 404 a clean not_found error.
struct TemplateFetcher: PriceFetcher {
    let baseURL: String
    let http: any HTTPClient

    func fetchQuote(for request: QuoteRequest) async throws -> Quote {
        let response = try await http.get(HTTPRequest(url: "\(baseURL)/\(request.pair)", headers: [HTTPHeader("Accept", "text/plain")]))
        switch response.status {
        case 200:
            let text = String(decoding: response.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let amount = DecimalAmount.parse(text) else {
                throw ProviderError(.invalidResponse, "200 with a body that is not a decimal price (\(request.pair))")
            }
            return Quote(asset: request.asset, currency: request.currency, amount: amount, provider: TemplateProvider.name, timestamp: Date())
        case 404:
            throw ProviderError(.notFound, "no price for \(request.pair)")
        default:
            throw ProviderError(.unavailable, "HTTP \(response.status) for \(request.pair)")
        }
    }
}

/// The provider: its name, version and settings (`{"baseURL": "…"}`, nothing else).
enum TemplateProvider: ProviderPlugin {
    static let name = "swift-template"
    static let version = "1.0.0"

    static func makeFetchers(context: PluginContext) throws -> [FetcherRegistration] {
        do {
            try context.settings.rejectUnknownKeys(allowed: ["baseURL"])
            let baseURL = try context.settings.member("baseURL").string()
            return [FetcherRegistration(asset: nil, fetcher: TemplateFetcher(baseURL: baseURL, http: context.http))]
        } catch let error as JSONShapeError {
            throw ProviderError(.invalidSettings, "invalid settings: \(error)")
        }
    }
}

/// The one symbol pricehost looks up.
@_cdecl("pricehost_plugin_entry_v1")
public func pricehostPluginEntry(_ host: UnsafeRawPointer?) -> UnsafeRawPointer? {
    PluginExport.entry(TemplateProvider.self, host: host)
}
