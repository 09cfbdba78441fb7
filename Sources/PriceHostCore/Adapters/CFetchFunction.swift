import CProviderABI

/// A plugin's fetch function and its context pointer.
///
/// `@unchecked Sendable` because the ABI makes it so: `fetch` may be called
/// from any thread, concurrently, and the context lives as long as the
/// process (pricehost_plugin.h, "Threading" and `ph_fetcher`).
struct CFetchFunction: @unchecked Sendable {
    package let fetch: ph_fetch_function
    package let context: UnsafeMutableRawPointer?
}
