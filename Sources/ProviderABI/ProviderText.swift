/// Text from a source the plugin does not control, made fit for one line of a message.
public enum ProviderText {
    /// `text` on one line, without control characters, at most `limit` characters
    /// (then cut, with `…`): what an API says may reach a terminal, so its C0,
    /// DEL, C1 (CSI among them) and the Unicode line and paragraph separators
    /// become spaces.
    public static func oneLine(_ text: String, limit: Int = 200) -> String {
        let scalars = text.unicodeScalars.map { scalar -> Character in
            let value = scalar.value
            return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029 ? " " : Character(scalar)
        }
        let line = String(scalars)
        return line.count > limit ? String(line.prefix(limit)) + "…" : line
    }
}
