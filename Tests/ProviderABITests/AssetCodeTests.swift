import ProviderABI
import Testing

struct AssetCodeTests {
    @Test(arguments: [
        ("BTC", "BTC"),
        ("USD", "USD"),
        ("btc", "BTC"),
        ("uSdT", "USDT"),
        ("1INCH", "1INCH"),
        ("AB", "AB"),
        ("ABCDEFGHIJ", "ABCDEFGHIJ"),
        ("0123456789", "0123456789"),
    ])
    func acceptsTwoToTenASCIILettersOrDigitsInUpperCase(text: String, code: String) {
        #expect(AssetCode.normalized(text) == code)
    }

    @Test(arguments: [
        "", "B", "ABCDEFGHIJK",
        "../", "..", "../etc", "BT?", "?x=1", "%2F", "BTC%2F",
        "BT C", " BTC", "BTC ", "BTC\n", "BT\tC", "B\u{0}C",
        "BTÇ", "ÇA", "ＢＴＣ", "BT-C", "BT_C", "BT.C", "BT/C", "BT\\C",
    ])
    func rejectsEverythingElse(text: String) {
        #expect(AssetCode.normalized(text) == nil)
    }
}
