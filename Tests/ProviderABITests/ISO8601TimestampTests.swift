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

    /// The arithmetic formatter against Foundation's, on seeded random seconds
    /// over the whole valid range and on the edges where calendars go wrong.
    @Test func formatAgreesWithFoundationFromYear1To9999() {
        let lower = Int64(ISO8601Timestamp.validRange.lowerBound.timeIntervalSince1970)
        let upper = Int64(ISO8601Timestamp.validRange.upperBound.timeIntervalSince1970.rounded(.down))
        var generator = SplitMix64(seed: 0x1507_2026)
        var seconds: [Int64] = [lower, upper, 0, -1, 86_399, 86_400, 951_782_400, 951_868_799, 4_107_542_400, -2_208_988_800, -62_162_035_200 + 86_400 * 366]
        for _ in 0..<20_000 { seconds.append(lower + Int64(generator.next() % UInt64(upper - lower + 1))) }
        for second in seconds where second >= lower && second <= upper {
            let date = Date(timeIntervalSince1970: TimeInterval(second))
            #expect(ISO8601Timestamp.format(date) == date.formatted(Date.ISO8601FormatStyle()), "at \(second)")
        }
    }
}

/// A small seeded generator, so a failure can be replayed.
private struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
