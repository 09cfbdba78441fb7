import CoinGeckoProviderLibrary
import PriceHostTesting
import ProviderABI
import Testing

struct CoinGeckoSettingsTests {
    func settings(_ text: String) throws -> CoinGeckoSettings {
        try CoinGeckoSettings(JSONCursor(try JSONParser.parse(text), path: "providers.coingecko"))
    }

    @Test func builtInTableCoversTheLargestAssetsWithValidIds() throws {
        #expect(CoinGeckoIDs.builtIn.count >= 30)
        #expect(CoinGeckoIDs.builtIn.values.allSatisfy(CoinGeckoIDs.isValid))
        #expect(CoinGeckoIDs.builtIn.keys.allSatisfy { AssetCode.normalized($0) == $0 })
        let settings = CoinGeckoSettings()
        for (asset, id) in [("BTC", "bitcoin"), ("ETH", "ethereum"), ("USDT", "tether"), ("XRP", "ripple"), ("BNB", "binancecoin"),
                            ("SOL", "solana"), ("USDC", "usd-coin"), ("DOGE", "dogecoin"), ("AVAX", "avalanche-2"), ("TON", "the-open-network")] {
            #expect(try settings.id(for: QuoteRequest(asset: asset, currency: "USD")) == id)
        }
    }

    @Test func idsInSettingsAddToTheTableAndOverrideIt() throws {
        let settings = try settings(#"{"ids": {"xyz": "xyz-token", "BTC": "wrapped-bitcoin"}}"#)
        #expect(try settings.id(for: QuoteRequest(asset: "XYZ", currency: "USD")) == "xyz-token")
        #expect(try settings.id(for: QuoteRequest(asset: "BTC", currency: "USD")) == "wrapped-bitcoin")
        #expect(try settings.id(for: QuoteRequest(asset: "ETH", currency: "USD")) == "ethereum")
    }

    @Test func assetWithoutAnIdIsNotFoundAndSaysHowToAddOne() {
        #expect(throws: ProviderError(.notFound, #"no CoinGecko id for ZZZ9; add one to providers.coingecko.ids, e.g. {"ZZZ9": "its-id"} (the id is in the coin's coingecko.com URL) (ZZZ9-USD)"#)) {
            try CoinGeckoSettings().id(for: QuoteRequest(asset: "ZZZ9", currency: "USD"))
        }
    }

    @Test func apiKeyIsKeptAndNeverQuotedInAnError() throws {
        #expect(try settings(#"{"apiKey": "CG-abc123"}"#).apiKey == "CG-abc123")
        #expect(CoinGeckoSettings().apiKey == nil)
        #expect(throws: ProviderError(.invalidSettings, #"invalid settings: providers.coingecko.apiKey: expected the key as one line of text, e.g. "${COINGECKO_API_KEY}"; remove apiKey to go without"#)) {
            try settings(#"{"apiKey": "CG-secret\r\nX-Evil: 1"}"#)
        }
    }

    @Test(arguments: [
        (#"{"apikey": "x"}"#, "invalid settings: providers.coingecko.apikey: unknown key (did you mean apiKey?); expected one of: baseURL, apiKey, ids"),
        (#"{"ids": {"BTC": "Bitcoin Cash"}}"#, #"invalid settings: providers.coingecko.ids.BTC: expected a CoinGecko id such as "bitcoin" (lower-case letters, digits, '-', '_' or '.')"#),
        (#"{"ids": {"BTC": 1}}"#, "invalid settings: providers.coingecko.ids.BTC: expected a string, found a number"),
        (#"{"ids": {"B": "b"}}"#, "invalid settings: providers.coingecko.ids.B: not an asset code (2 to 10 letters or digits)"),
        (#"{"baseURL": "api.coingecko.com"}"#, "invalid settings: providers.coingecko.baseURL: expected an http(s) URL without query or fragment, such as https://api.coingecko.com"),
    ])
    func badSettingsNameTheKey(text: String, message: String) {
        #expect(throws: ProviderError(.invalidSettings, message)) { try settings(text) }
    }
}
