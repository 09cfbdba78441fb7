/// SHA-256 (FIPS 180-4), for pinning plugin files and for the board's
/// Content-Security-Policy hashes. Foundation on Linux has no digest API and
/// the project takes no dependency, so it is written out here.
package struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// A fresh hash.
    init() {}

    /// The digest of `bytes`, as 64 lower-case hex digits.
    static func hex<Bytes: Sequence>(of bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var hash = SHA256()
        hash.update(Array(bytes))
        return hash.finalizeHex()
    }

    /// The digest of `bytes`, its 32 bytes.
    package static func digest<Bytes: Sequence>(of bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var hash = SHA256()
        hash.update(Array(bytes))
        return hash.finalizeBytes()
    }

    /// The digest, its 32 bytes.
    mutating func finalizeBytes() -> [UInt8] {
        finalizeWords().flatMap { word in (0..<4).reversed().map { UInt8(truncatingIfNeeded: word >> (UInt32($0) * 8)) } }
    }

    /// Adds `bytes` to the message.
    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Adds `bytes` to the message.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        length &+= UInt64(bytes.count)
        var offset = 0
        if !buffer.isEmpty {
            offset = min(64 - buffer.count, bytes.count)
            buffer += UnsafeRawBufferPointer(rebasing: bytes[..<offset])
            guard buffer.count == 64 else { return }
            let block = buffer
            block.withUnsafeBytes { compressBlocks($0, count: 1) }
            buffer.removeAll(keepingCapacity: true)
        }
        let whole = (bytes.count - offset) / 64
        if whole > 0 {
            compressBlocks(UnsafeRawBufferPointer(start: base + offset, count: whole * 64), count: whole)
            offset += whole * 64
        }
        buffer += UnsafeRawBufferPointer(rebasing: bytes[offset...])
    }

    /// The digest, as 64 lower-case hex digits.
    mutating func finalizeHex() -> String {
        finalizeWords().map { word in
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 8 - digits.count) + digits
        }.joined()
    }

    /// The digest, as its eight big-endian words.
    private mutating func finalizeWords() -> [UInt32] {
        let bitLength = length &* 8
        var padding: [UInt8] = [0x80]
        padding += [UInt8](repeating: 0, count: (119 - buffer.count) % 64)
        padding += (0..<8).reversed().map { UInt8(truncatingIfNeeded: bitLength >> (UInt64($0) * 8)) }
        let savedLength = length
        update(padding)
        length = savedLength
        return [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
    }

    /// Compresses `count` 64-byte blocks. Pointers and one scratch schedule,
    /// not arrays: an array per block made hashing a plugin the slowest step
    /// of loading it.
    private mutating func compressBlocks(_ blocks: UnsafeRawBufferPointer, count: Int) {
        guard let base = blocks.baseAddress else { return }
        // The state in a local for the loop: `self` inside the closures would be
        // an access checked at run time on every round.
        var current = state
        Self.k.withUnsafeBufferPointer { constants in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
                // Plain pointers: a buffer pointer's subscript is bounds-checked even in -O.
                guard let k = constants.baseAddress, let w = schedule.baseAddress else { return }
                for blockIndex in 0..<count {
                    let block = base + blockIndex &* 64
                    for i in 0..<16 {
                        w[i] = block.loadUnaligned(fromByteOffset: 4 &* i, as: UInt32.self).bigEndian
                    }
                    for i in 16..<64 {
                        let s0 = rotate(w[i &- 15], 7) ^ rotate(w[i &- 15], 18) ^ (w[i &- 15] &>> 3)
                        let s1 = rotate(w[i &- 2], 17) ^ rotate(w[i &- 2], 19) ^ (w[i &- 2] &>> 10)
                        w[i] = w[i &- 16] &+ s0 &+ w[i &- 7] &+ s1
                    }
                    var (a, b, c, d, e, f, g, h) = current
                    for i in 0..<64 {
                        let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
                        let choice = (e & f) ^ (~e & g)
                        let t1 = h &+ s1 &+ choice &+ k[i] &+ w[i]
                        let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        let t2 = s0 &+ majority
                        (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
                    }
                    current = (current.0 &+ a, current.1 &+ b, current.2 &+ c, current.3 &+ d,
                               current.4 &+ e, current.5 &+ f, current.6 &+ g, current.7 &+ h)
                }
            }
        }
        state = current
    }
}

@inline(__always)
private func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
    (value &>> count) | (value &<< (32 &- count))
}
