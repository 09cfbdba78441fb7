/// A quote's `ageMs` depends on when it was written: exact comparisons of quote JSON leave it out,
/// after checking (``ageMilliseconds(in:)``) where the age itself is the point.
public func withoutAges(_ text: String) -> String {
    var result = ""
    var rest = Substring(text)
    let marker = #","ageMs":"#
    while let range = rest.firstRange(of: marker) {
        result += rest[..<range.lowerBound]
        rest = rest[range.upperBound...].drop { ("0"..."9").contains($0) }
    }
    return result + rest
}

/// The `ageMs` of each quote in `text`, in order.
public func ageMilliseconds(in text: String) -> [Int64] {
    var ages: [Int64] = []
    var rest = Substring(text)
    let marker = #","ageMs":"#
    while let range = rest.firstRange(of: marker) {
        let digits = rest[range.upperBound...].prefix { ("0"..."9").contains($0) }
        if let age = Int64(digits) { ages.append(age) }
        rest = rest[range.upperBound...]
    }
    return ages
}

extension CommandResult {
    /// The result with every `,"ageMs":N` left out of its stdout (``withoutAges(_:)``).
    public var withoutAges: CommandResult {
        CommandResult(status: status, standardOutput: PriceHostTesting.withoutAges(standardOutput), standardError: standardError)
    }
}
