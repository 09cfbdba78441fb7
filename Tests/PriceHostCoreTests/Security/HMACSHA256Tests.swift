@testable import PriceHostCore
import Testing

struct HMACSHA256Tests {
    private static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16) ?? 0 }
    }

    /// RFC 4231's test cases 1 to 4, 6 and 7 (5 truncates its output, which a webhook signature never does).
    @Test(arguments: [
        ([UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        ([UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
         "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        (HMACSHA256Tests.bytes(hex: "0102030405060708090a0b0c0d0e0f10111213141516171819"), [UInt8](repeating: 0xcd, count: 50),
         "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        ([UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        ([UInt8](repeating: 0xaa, count: 131),
         Array("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.".utf8),
         "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ])
    func knownAnswersFromRFC4231(key: [UInt8], message: [UInt8], mac: String) {
        #expect(HMACSHA256.hex(of: message, key: key) == mac)
    }

    @Test func aKeyOfExactlyOneBlockIsUsedAsItIs() {
        // 64 bytes: neither hashed nor padded; hashing it as a longer key would change the MAC.
        let key = [UInt8](repeating: 0x61, count: 64)
        #expect(HMACSHA256.authenticationCode(of: [], key: key) != HMACSHA256.authenticationCode(of: [], key: SHA256.digest(of: key)))
        #expect(HMACSHA256.authenticationCode(of: [], key: key).count == 32)
    }
}
