/// HMAC-SHA256 (RFC 2104 over FIPS 180-4's SHA-256), for signing webhook bodies
/// (`X-Pricehost-Signature: sha256=HEX`). Written out over ``SHA256``: the project
/// takes no crypto library.
package enum HMACSHA256 {
    /// SHA-256's block size in bytes: a longer key is hashed first, a shorter one padded with zeros.
    static let blockSize = 64

    /// The 32-byte MAC of `message` under `key`.
    package static func authenticationCode(of message: [UInt8], key: [UInt8]) -> [UInt8] {
        var block = key.count > blockSize ? SHA256.digest(of: key) : key
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        let innerDigest = inner.finalizeBytes()
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(innerDigest)
        return outer.finalizeBytes()
    }

    /// ``authenticationCode(of:key:)`` as 64 lower-case hex digits.
    package static func hex(of message: [UInt8], key: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in authenticationCode(of: message, key: key) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
