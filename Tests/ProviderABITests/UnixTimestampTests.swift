import Foundation
import ProviderABI
import Testing

struct UnixTimestampTests {
    @Test func secondsAndMillisecondsAreConvertedFromTheirText() {
        #expect(UnixTimestamp.parse("1700000000", unit: .seconds) == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(UnixTimestamp.parse("1700000000123", unit: .milliseconds) == Date(timeIntervalSince1970: 1_700_000_000.123))
        #expect(UnixTimestamp.parse("1700000000.5", unit: .seconds) == Date(timeIntervalSince1970: 1_700_000_000.5))
        #expect(UnixTimestamp.parse("1.7e9", unit: .seconds) == Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test(arguments: ["", "-1", "soon", "1,5", "253402300800", "9999999999999999"])
    func whatIsNotATimeInRangeIsRefused(text: String) {
        #expect(UnixTimestamp.parse(text, unit: .seconds) == nil)
    }
}
