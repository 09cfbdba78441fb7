/// Durations as the config and the command line write them.
package enum Durations {
    /// `SECONDS` as `digits[.digits]` with at most 3 decimals, in milliseconds; `nil` for anything else.
    package static func milliseconds(_ text: String) -> Int? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.count <= 6, whole.allSatisfy({ ("0"..."9").contains($0) }),
              let seconds = Int(whole) else { return nil }
        var fraction = 0
        if parts.count == 2 {
            let digits = parts[1]
            guard (1...3).contains(digits.count), digits.allSatisfy({ ("0"..."9").contains($0) }), let value = Int(digits) else { return nil }
            fraction = value * [100, 10, 1][digits.count - 1]
        }
        return seconds * 1000 + fraction
    }
}
