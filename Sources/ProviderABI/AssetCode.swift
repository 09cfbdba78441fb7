/// The rule for asset and currency codes: 2 to 10 ASCII letters or digits.
public enum AssetCode {
    /// `text` upper-cased when it is a valid code, else `nil`.
    ///
    /// Checked before a code goes anywhere near a URL, a file or a plugin, so
    /// `../`, `?`, `%2F`, spaces and non-ASCII never get that far.
    public static func normalized(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard (2...10).contains(bytes.count),
              bytes.allSatisfy({ byte in
                  (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                      || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
              }) else { return nil }
        return text.uppercased()
    }
}
