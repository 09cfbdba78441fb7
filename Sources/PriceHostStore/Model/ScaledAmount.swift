/// An amount's text (`-?digits(.digits)?`) as an integer and its decimal places, when it has at most 18 digits:
/// two such compare as integers. Any other text compares as ``DecimalText`` compares it, in the same order.
struct ScaledAmount {
    var units: Int64
    /// Digits after the point; -1 when the text is not read (too many digits, or not the usual form).
    var places: Int

    init(_ text: String) {
        var units: Int64 = 0
        var places = -1
        var digits = 0
        var negative = false
        var valid = true
        for (index, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "-") where index == 0: negative = true
            case UInt8(ascii: "."): valid = valid && places < 0 && digits > 0; places = 0
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                if places >= 0 { places += 1 }
                units = units &* 10 &+ Int64(byte - UInt8(ascii: "0"))
            default: valid = false
            }
        }
        let read = valid && digits > 0 && digits <= 18 && places != 0
        self.units = read ? (negative ? -units : units) : 0
        self.places = read ? max(places, 0) : -1
    }

    /// -1, 0 or 1 as `left` (`leftText` read) is below, equal to or above `right`.
    static func compare(_ left: ScaledAmount, _ leftText: String, _ right: ScaledAmount, _ rightText: String) -> Int {
        guard left.places >= 0, right.places >= 0 else { return DecimalText.compare(leftText, rightText) }
        var (a, b) = (left.units, right.units)
        // To the same places: at most 18 digits each, so a scale of up to 10^18 fits unless the value is large.
        for _ in left.places..<max(left.places, right.places) {
            let (scaled, overflow) = a.multipliedReportingOverflow(by: 10)
            if overflow { return DecimalText.compare(leftText, rightText) }
            a = scaled
        }
        for _ in right.places..<max(left.places, right.places) {
            let (scaled, overflow) = b.multipliedReportingOverflow(by: 10)
            if overflow { return DecimalText.compare(leftText, rightText) }
            b = scaled
        }
        return a < b ? -1 : a > b ? 1 : 0
    }
}
