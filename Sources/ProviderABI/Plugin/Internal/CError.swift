import CProviderABI

/// An error as the ABI's `ph_error`, for the duration of `body`; shared by the
/// plugin side (fetch completions) and the host side (`http_get` completions).
package enum CError {
    /// `error`'s code (`defaultCode` when it is not a ``ProviderError``) and description.
    package static func with<Result>(_ error: any Error, defaultCode: ProviderError.Code,
                                     _ body: (UnsafeMutablePointer<ph_error>) -> Result) -> Result {
        let code = (error as? ProviderError)?.code ?? defaultCode
        return code.rawValue.withCString { code in
            String(describing: error).withCString { message in
                var cError = ph_error(struct_size: UInt32(MemoryLayout<ph_error>.size), code: code, message: message)
                return body(&cError)
            }
        }
    }
}
