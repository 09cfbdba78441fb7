import PriceHostCore

extension ProviderPolicy {
    /// What the transport is asked to do for each of this provider's exchanges.
    var transferOptions: TransferOptions {
        TransferOptions(maxResponseBytes: maxResponseBytes, maxRedirects: followRedirects ? TransferOptions.redirectLimit : 0,
                        caFile: caFile)
    }
}
