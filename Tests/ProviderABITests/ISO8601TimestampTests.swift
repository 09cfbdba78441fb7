import Foundation
import ProviderABI
import Testing

struct ISO8601TimestampTests {
    /// 2026-11-20T12:00:00Z.
    private static let noon = Date(timeIntervalSince1970: 1_795_176_000)

    @Test func parsesUTCWithZ() {
        #expect(ISO8601Timestamp.parse("2026-11-20T12:00:00Z") == Self.noon)
    }

    @Test func parsesAFraction() {
        #expect(ISO8601Timestamp.parse("2026-11-20T12:00:00.250Z") == Self.noon.addingTimeInterval(0.25))
    }

    @Test func parsesAnOffset() {
        #expect(ISO8601Timestamp.parse("2026-11-20T13:00:00+01:00") == Self.noon)
        #expect(ISO8601Timestamp.parse("2026-11-20T07:00:00-05:00") == Self.noon)
    }

    @Test func parsesAFractionWithAnOffset() {
        #expect(ISO8601Timestamp.parse("2026-11-20T13:00:00.5+01:00") == Self.noon.addingTimeInterval(0.5))
    }

    @Test(arguments: [
        "", "garbage", "2026-11-20", "2026-11-20T12:00:00", "2026-11-20 12:00:00Z",
        "2026-13-20T12:00:00Z", "1795176000", "20/11/2026 12:00", "yesterday",
    ])
    func rejectsAnythingElse(text: String) {
        #expect(ISO8601Timestamp.parse(text) == nil)
    }

    @Test func formatsWholeSecondsWithoutAFraction() {
        #expect(ISO8601Timestamp.format(Self.noon) == "2026-11-20T12:00:00Z")
    }

    @Test func formatsMillisecondsWhenThereAreSome() {
        #expect(ISO8601Timestamp.format(Self.noon.addingTimeInterval(0.25)) == "2026-11-20T12:00:00.250Z")
        #expect(ISO8601Timestamp.format(Self.noon.addingTimeInterval(0.999)) == "2026-11-20T12:00:00.999Z")
    }

    @Test func roundsToTheNearestMillisecond() {
        #expect(ISO8601Timestamp.format(Self.noon.addingTimeInterval(0.0004)) == "2026-11-20T12:00:00Z")
        #expect(ISO8601Timestamp.format(Self.noon.addingTimeInterval(0.9996)) == "2026-11-20T12:00:01Z")
    }

    @Test func formatsMillisecondsThatAreNotExactInBinary() {
        #expect(ISO8601Timestamp.format(Self.noon.addingTimeInterval(0.001)) == "2026-11-20T12:00:00.001Z")
        #expect(ISO8601Timestamp.format(Self.noon.addingTimeInterval(0.123)) == "2026-11-20T12:00:00.123Z")
        #expect(ISO8601Timestamp.format(Date(timeIntervalSince1970: 0.007)) == "1970-01-01T00:00:00.007Z")
    }

    @Test func formattedTextParsesBack() {
        for date in [Self.noon, Self.noon.addingTimeInterval(0.5), Self.noon.addingTimeInterval(-86_400.75)] {
            #expect(ISO8601Timestamp.parse(ISO8601Timestamp.format(date)) == date)
        }
    }
}
