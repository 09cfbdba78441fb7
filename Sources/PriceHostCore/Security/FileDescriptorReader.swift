import Glibc

/// Reading an open file by offset, so the file checked is the file loaded.
enum FileDescriptorReader {
    /// Up to `count` bytes from the start of the file.
    package static func read(_ descriptor: Int32, upTo count: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, 0) }
        return Array(buffer.prefix(max(0, read)))
    }

    /// The SHA-256 of the whole file, or `nil` when it cannot be read.
    package static func sha256(_ descriptor: Int32) -> String? {
        var hash = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var offset: off_t = 0
        while true {
            let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if read < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if read == 0 { return hash.finalizeHex() }
            buffer.withUnsafeBytes { hash.update(UnsafeRawBufferPointer(rebasing: $0[..<read])) }
            offset += off_t(read)
        }
    }
}
