/// Calls `body` with `text` as a NUL-terminated C string valid for the call, or with NULL when
/// `text` is `nil`: the ABI's optional strings (ABI 1.4's `ph_quote.bid` and `ask`).
func withOptionalCString<Result>(_ text: String?, _ body: (UnsafePointer<CChar>?) throws -> Result) rethrows -> Result {
    guard let text else { return try body(nil) }
    return try text.withCString(body)
}
