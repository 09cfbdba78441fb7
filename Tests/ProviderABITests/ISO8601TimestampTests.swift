import Foundation
@testable import ProviderABI
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

    /// Foundation's parser, which takes what the common form does not (a fraction finer than milliseconds, an offset of
    /// 18 hours or more, a year before 1583), carries a field out of range over into the next; such a time is refused.
    @Test(arguments: [
        "2026-11-28T09:62:00Z", "2026-11-28T09:62:00.1234Z", "2026-11-27T34:00:00Z", "2026-11-31T10:00:00Z",
        "2026-02-29T10:00:00.1234Z", "2026-11-28T24:00:00Z", "2026-11-28T10:00:60.5000Z", "2026-00-10T10:00:00.1234Z",
        "1500-11-32T10:00:00Z",
    ])
    func refusesATimeThatIsNotOnTheCalendar(text: String) {
        #expect(ISO8601Timestamp.parse(text) == nil)
    }

    @Test func takesARealTimeInEveryFormFoundationReads() throws {
        #expect(ISO8601Timestamp.parse("2026-11-20T12:00:00.2500Z") == Self.noon.addingTimeInterval(0.25))
        #expect(ISO8601Timestamp.parse("2028-02-29T12:00:00.1234Z") != nil)
        #expect(ISO8601Timestamp.parse("1500-11-30T10:00:00Z") != nil)
        // Julian before 1583: 1500 was a leap year there.
        #expect(ISO8601Timestamp.parse("1500-02-29T10:00:00Z") != nil)
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

extension ISO8601TimestampTests {
    /// The arithmetic parser and Foundation's give the same date wherever the arithmetic
    /// one answers; what it declines goes to Foundation's. Seeded, bounded: 3,000 texts.
    @Test func theArithmeticParserAgreesWithFoundations() {
        var seedState: UInt64 = 0x5EED_1508
        func draw(_ bound: Int) -> Int {
            seedState = seedState &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seedState >> 33) % UInt64(bound))
        }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var answered = 0
        for _ in 0..<3_000 {
            let year = [1583, 1600, 1900, 1970, 2000, 2024, 2026, 9999][draw(8)] + (draw(4) == 0 ? draw(50) : 0)
            let month = 1 + draw(12)
            let day = 1 + draw(draw(10) == 0 ? 31 : 28)
            var text = "\(min(year, 9999))-\(two(month))-\(two(day))T\(two(draw(24))):\(two(draw(60))):\(two(draw(draw(20) == 0 ? 61 : 60)))"
            switch draw(5) {
            case 0: text += "." + String(draw(10))
            case 1: text += "." + two(draw(100))
            case 2: text += "." + String(100 + draw(900))
            default: break
            }
            switch draw(4) {
            case 0: text += (draw(2) == 0 ? "+" : "-") + two(draw(24)) + ":" + two(draw(60))
            default: text += "Z"
            }
            let foundation = (try? Date.ISO8601FormatStyle().parse(text)) ?? (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            guard let fast = ISO8601Timestamp.parseCommonForm(text) else { continue }
            answered += 1
            guard let foundation else {
                Issue.record("\(text): the arithmetic parser gives \(fast.timeIntervalSince1970), Foundation's refuses it")
                continue
            }
            #expect(abs(fast.timeIntervalSince1970 - foundation.timeIntervalSince1970) < 0.000_001, "\(text)")
            #expect(ISO8601Timestamp.format(fast) == ISO8601Timestamp.format(foundation), "\(text)")
        }
        #expect(answered > 2_000)
    }

    @Test func theArithmeticParserDeclinesWhatItDoesNotKnow() {
        for text in ["2026-11-20T12:00:00", "2026-11-20 12:00:00Z", "2026-02-30T12:00:00Z", "2026-11-20T12:00:60Z",
                     "1582-12-31T12:00:00Z", "2026-11-20T12:00:00.1234Z", "2026-11-20T12:00:00.Z", "2026-11-20T12:00:00+0100",
                     "2026-11-20t12:00:00z", "２026-11-20T12:00:00Z"] {
            #expect(ISO8601Timestamp.parseCommonForm(text) == nil, "\(text)")
        }
    }
}
