import BinanceProviderLibrary
import PriceHostTesting
import ProviderABI
import Testing

struct BinanceSettingsTests {
    func settings(_ text: String) throws -> BinanceSettings {
        try BinanceSettings(JSONCursor(try JSONParser.parse(text), path: "providers.binance"))
    }

    @Test func currencyAliasNamesTheSymbolSuffix() throws {
        let settings = try settings(#"{"baseURL": "http://127.0.0.1:9/", "currencyAliases": {"usd": "usdt"}}"#)
        #expect(settings.baseURL == "http://127.0.0.1:9")
        #expect(settings.currencyAliases == ["USD": "USDT"])
        #expect(try settings.symbol(for: QuoteRequest(asset: "BTC", currency: "USD")) == "BTCUSDT")
        #expect(try settings.symbol(for: QuoteRequest(asset: "BTC", currency: "EUR")) == "BTCEUR")
    }

    @Test func bidAskIsOffUnlessSetTrue() throws {
        #expect(try settings("{}").bidAsk == false)
        #expect(try settings(#"{"bidAsk": true}"#).bidAsk == true)
        #expect(try settings(#"{"bidAsk": false}"#).bidAsk == false)
    }

    @Test func usdWithoutAnAliasIsNotFoundAndSaysWhatToSet() {
        #expect(throws: ProviderError(.notFound, #"Binance quotes ETH in stablecoins, not USD; to take one as USD, set providers.binance.currencyAliases, e.g. {"USD": "USDT"} (ETH-USD)"#)) {
            try BinanceSettings().symbol(for: QuoteRequest(asset: "ETH", currency: "USD"))
        }
    }

    @Test(arguments: [
        (#"{"currencyAlias": {}}"#, "invalid settings: providers.binance.currencyAlias: unknown key (did you mean currencyAliases?); expected one of: baseURL, currencyAliases, bidAsk"),
        (#"{"bidAsk": "yes"}"#, "invalid settings: providers.binance.bidAsk: expected a boolean, found a string"),
        (#"{"bidask": true}"#, "invalid settings: providers.binance.bidask: unknown key (did you mean bidAsk?); expected one of: baseURL, currencyAliases, bidAsk"),
        (#"{"currencyAliases": ["USDT"]}"#, "invalid settings: providers.binance.currencyAliases: expected an object, found an array"),
        (#"{"currencyAliases": {"USD": 1}}"#, "invalid settings: providers.binance.currencyAliases.USD: expected a string, found a number"),
        (#"{"currencyAliases": {"USD": "US/DT"}}"#, #"invalid settings: providers.binance.currencyAliases.USD: expected a symbol suffix such as "USDT" (2 to 10 letters or digits)"#),
        (#"{"currencyAliases": {"U S": "USDT"}}"#, "invalid settings: providers.binance.currencyAliases.U S: not a currency code (2 to 10 letters or digits)"),
    ])
    func badSettingsNameTheKey(text: String, message: String) {
        #expect(throws: ProviderError(.invalidSettings, message)) { try settings(text) }
    }
}
