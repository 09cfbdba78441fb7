@testable import PriceHostCore
import Testing

struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func knownAnswersFromFIPS180(message: String, digest: String) {
        #expect(SHA256.hex(of: Array(message.utf8)) == digest)
    }

    @Test func theDigestIsTheHexDigestsBytes() {
        // "abc" (FIPS 180-2, B.1); base64 of the same bytes is what a Content-Security-Policy hash names.
        let digest = SHA256.digest(of: Array("abc".utf8))
        #expect(digest.count == 32)
        #expect(digest.map { String($0 >> 4, radix: 16) + String($0 & 15, radix: 16) }.joined()
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func millionAsInChunksOfOddSizes() {
        var hash = SHA256()
        var remaining = 1_000_000
        var step = 1
        while remaining > 0 {
            let count = min(step, remaining)
            hash.update([UInt8](repeating: UInt8(ascii: "a"), count: count))
            remaining -= count
            step = step % 997 + 13
        }
        #expect(hash.finalizeHex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func everyLengthAroundTheBlockBoundaryMatchesOneShotHashing() {
        for length in 50...70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            var split = SHA256()
            split.update(Array(bytes.prefix(length / 3)))
            split.update(Array(bytes.dropFirst(length / 3)))
            #expect(split.finalizeHex() == SHA256.hex(of: bytes), "length \(length)")
        }
    }
}
