import Glibc
import PriceHostCore

/// Where the running `pricehost` binary is, links resolved.
enum ExecutableLocation {
    /// The directory of `/proc/self/exe`, or `nil` when it cannot be read.
    static var directory: String? {
        path.map(FilePath.directory(of:))
    }

    /// `/proc/self/exe`, resolved, or `nil` when it cannot be read.
    static var path: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
