import Foundation
import ProviderABI
import PriceHostFuzzing
import PriceHostTestTraits
import Testing

/// ``AssetCode/normalized(_:)`` on random strings: only 2 to 10 ASCII letters
/// or digits pass, and they come back upper-cased.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct AssetCodeFuzzTests {
    @Test func onlyShortASCIIAlphanumericsPass() throws {
        let run = try FuzzRun()
        let pieces = ["BTC", "usd", "é", "ß", "ﬀ", "K", "ı", "İ", "../", "%2F", "-", " ", "\u{0}", "\n", "１", "٣", "😀", "e\u{301}", "\u{FEFF}"]
        let tally = run.loop("AssetCodeFuzzTests/normalized", iterations: 5_000) { random, _ in
            var text = ""
            for _ in 0..<random.below(5) {
                text += random.chance(1, in: 3) ? random.pick(pieces) : JSONParserFuzzTests.randomString(using: &random)
            }
            if random.chance(1, in: 2) {
                text = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.isASCII }))
            }
            return Array(text.utf8)
        } describe: {
            FuzzText.describe($0)
        } check: { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            let valid = (2...10).contains(bytes.count) && bytes.allSatisfy { byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            }
            switch AssetCode.normalized(text) {
            case nil:
                return valid ? .problem("rejected a valid code") : .error
            case let code?:
                guard valid else { return .problem("accepted \(FuzzText.quoted(code))") }
                guard code.wholeMatch(of: #/[A-Z0-9]{2,10}/#) != nil, code == text.uppercased() else {
                    return .problem("normalised to \(FuzzText.quoted(code))")
                }
                return .value
            }
        }
        #expect(tally.values > 0 && tally.errors > 0, "\(tally)")
    }
}
