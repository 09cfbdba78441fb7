import FoundationEssentials
import ProviderABI

/// Asks an HTTP service, through the host's HTTP (its timeouts, retries and
/// size cap), for `GET {baseURL}/{ASSET}-{CURRENCY}` and reads the price from
/// a JSON answer, `{"price": "64000.50"}`. 200 is a quote, 404 a clean
/// not_found error, anything else `unavailable`.
struct TemplateFetcher: PriceFetcher {
    let baseURL: String
    let http: any HTTPClient

    func fetchQuote(for request: QuoteRequest) async throws -> Quote {
        let response = try await http.get(HTTPRequest(url: "\(baseURL)/\(request.pair)", headers: [HTTPHeader("Accept", "application/json")]))
        switch response.status {
        case 200:
            do {
                let text = try JSONCursor(JSONParser.parse(response.body)).member("price").string()
                guard let amount = DecimalAmount.parse(text) else {
                    throw ProviderError(.invalidResponse, "200 with a price that is not a decimal amount: \(JSONValue.quoted(text)) (\(request.pair))")
                }
                return Quote(asset: request.asset, currency: request.currency, amount: amount, provider: TemplateProvider.name, timestamp: Date())
            } catch let error as JSONParseError {
                throw ProviderError(.invalidResponse, "200 with a body that is not JSON: \(error) (\(request.pair))")
            } catch let error as JSONShapeError {
                throw ProviderError(.invalidResponse, "200 without a price string: \(error) (\(request.pair))")
            }
        case 404:
            throw ProviderError(.notFound, "no price for \(request.pair)")
        default:
            throw ProviderError(.unavailable, "HTTP \(response.status) for \(request.pair)")
        }
    }
}

/// The provider: its name, version and settings (`{"baseURL": "…"}`, nothing else;
/// without it, a service on this machine, `http://127.0.0.1:8080`).
enum TemplateProvider: ProviderPlugin {
    static let name = "swift-template"
    static let version = "1.0.0"

    static func makeFetchers(context: PluginContext) throws -> [FetcherRegistration] {
        do {
            try context.settings.rejectUnknownKeys(allowed: ["baseURL"])
            let baseURL = try context.settings.optionalMember("baseURL")?.string() ?? "http://127.0.0.1:8080"
            return [FetcherRegistration(asset: nil, fetcher: TemplateFetcher(baseURL: baseURL, http: context.http))]
        } catch {
            // Typed: only JSONShapeError reaches here.
            throw ProviderError(.invalidSettings, "invalid settings: \(error)")
        }
    }
}

/// The one symbol pricehost looks up.
@_cdecl("pricehost_plugin_entry_v1")
public func pricehostPluginEntry(_ host: UnsafeRawPointer?) -> UnsafeRawPointer? {
    PluginExport.entry(TemplateProvider.self, host: host)
}
