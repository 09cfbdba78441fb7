/// Readers for what providers' settings commonly hold.
extension JSONCursor {
    /// The value as the root of an HTTP API: an `http://` or `https://` URL with
    /// no query, fragment, space or control character. A trailing `/` is dropped.
    /// - Parameter example: the URL the error offers, e.g. `https://api.coinbase.com`.
    /// - Throws: ``JSONShapeError`` at this path.
    public func httpBaseURL(example: String) throws(JSONShapeError) -> String {
        let text = try string()
        let lowered = text.lowercased()
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://"), !text.contains("?"), !text.contains("#"),
              !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw error("expected an http(s) URL without query or fragment, such as \(example)")
        }
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    /// The `baseURL` of settings that may hold nothing else: the markets whose
    /// only setting is where their API is.
    /// - Parameter defaultURL: the real API's root, when the settings name none.
    /// - Throws: ``ProviderError`` `.invalidSettings` naming the key.
    public func onlyBaseURL(default defaultURL: String) throws -> String {
        do {
            try rejectUnknownKeys(allowed: ["baseURL"])
            return try optionalMember("baseURL")?.httpBaseURL(example: defaultURL) ?? defaultURL
        } catch {
            throw ProviderError(.invalidSettings, "invalid settings: \(error)")
        }
    }
}
