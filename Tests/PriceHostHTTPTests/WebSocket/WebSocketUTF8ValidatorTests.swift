@testable import PriceHostHTTP
import Testing

/// Strict UTF-8, whole and in pieces, agreeing with the standard library's own validation.
struct WebSocketUTF8ValidatorTests {
    @Test(arguments: [
        ("", true), ("plain ASCII that is longer than eight bytes", true), ("é€😀", true),
    ] as [(String, Bool)])
    func wellFormedTextIsValid(text: String, valid: Bool) {
        #expect(WebSocketUTF8Validator.isValid(Array(text.utf8)) == valid)
    }

    @Test func boundaryCodePointsAreJudgedAsTheStandardLibraryJudgesThem() {
        let sequences: [[UInt8]] = [
            [0x7F], [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xEF, 0xBF, 0xBF], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
            [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
            [0xC1, 0xBF], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
            [0xF8, 0x88, 0x80, 0x80, 0x80], [0xC2], [0xC2, 0x41], [0xBF],
        ]
        for bytes in sequences {
            let padded = Array("0123456789".utf8) + bytes + Array("abcdefgh".utf8)
            #expect(WebSocketUTF8Validator.isValid(padded) == (String(validating: padded, as: UTF8.self) != nil), "\(bytes)")
        }
    }

    @Test func validationInPiecesAgreesWithValidationWhole() {
        var random = CountingGenerator()
        let alphabet: [UInt8] = [0x41, 0x7F, 0x80, 0xBF, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xA0, 0x90, 0x8F, 0x9F]
        for _ in 0..<2_000 {
            let bytes = (0..<Int(random.next() % 12)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            let whole = WebSocketUTF8Validator.isValid(bytes)
            #expect(whole == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
            let cut = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count + 1))
            var validator = WebSocketUTF8Validator()
            let first = Array(bytes[..<cut]).withUnsafeBytes { validator.validate($0) }
            let second = first && Array(bytes[cut...]).withUnsafeBytes { validator.validate($0) }
            #expect((second && validator.isAtCharacterBoundary) == whole, "\(bytes) cut at \(cut)")
        }
    }
}
