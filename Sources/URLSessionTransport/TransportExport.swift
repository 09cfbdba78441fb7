import CProviderABI
import URLSessionTransportLibrary

/// The library's one export, found by the host with `dlsym` on its first request.
@_cdecl("pricehost_transport_v1_get")
public func exportedTransportGet(_ request: UnsafePointer<ph_http_request>?, _ maxResponseBytes: UInt64,
                                 _ completion: ph_http_completion?, _ context: UnsafeMutableRawPointer?) {
    transportGet(request, maxResponseBytes, completion, context)
}
