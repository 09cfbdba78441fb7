import Foundation
@testable import PriceHost
@testable import PriceHostCore
import ProviderABI
import Testing

/// The lists a plugin author reads in three places (the C header, PLUGINS.md
/// and the Swift API) are one list each: the error codes, and the settings
/// keys the host strips before a plugin sees its settings.
struct ContractListTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let header = root + "/Sources/CProviderABI/include/pricehost_plugin.h"
    static let guide = root + "/PLUGINS.md"

    static func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// The codes the header's `ph_error.code` comment lists, one per line as `"code"  meaning`.
    static func headerCodes() throws -> [String] {
        let text = try text(header)
        let start = try #require(text.range(of: "A short machine-readable code; NULL means \"failed\". The codes:"))
        let end = try #require(text.range(of: "*/", range: start.upperBound..<text.endIndex))
        return text[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line in
            let trimmed = line.drop { $0 == " " || $0 == "*" }
            guard trimmed.first == "\"", let close = trimmed.dropFirst().firstIndex(of: "\"") else { return nil }
            return String(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
        }
    }

    /// The codes in PLUGINS.md's table of error codes: its rows that start with a back-quoted code.
    static func guideCodes() throws -> [String] {
        let text = try text(guide)
        let start = try #require(text.range(of: "| code | meaning |"))
        let table = text[start.upperBound...].components(separatedBy: "\n\n").first ?? ""
        return table.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("| `"), line.contains(" | "), let close = line.dropFirst(3).firstIndex(of: "`") else { return nil }
            let code = String(line[line.index(line.startIndex, offsetBy: 3)..<close])
            return code.allSatisfy { $0.isLowercase || $0 == "_" } ? code : nil
        }
    }

    /// The keys listed in `text` from `opening` up to the first `closing`, as back-quoted or bare words:
    /// camel-case words, and the host's keys that are one lower-case word.
    static func keys(in text: String, after opening: String, until closing: String) throws -> Set<String> {
        let start = try #require(text.range(of: opening))
        let end = try #require(text.range(of: closing, range: start.upperBound..<text.endIndex))
        let words = text[start.upperBound..<end.lowerBound].split { !$0.isLetter }
        let oneWordKeys = Set(ProviderPolicy.keys.filter { $0.allSatisfy(\.isLowercase) })  // burst, stream
        return Set(words.map(String.init).filter { $0.first?.isLowercase == true && $0.contains { $0.isUppercase } || oneWordKeys.contains($0) })
    }

    @Test func theHeaderListsEveryErrorCodeOfProviderABI() throws {
        #expect(try Self.headerCodes() == ProviderError.Code.all.map(\.rawValue))
    }

    @Test func pluginsMdListsEveryErrorCodeOfProviderABI() throws {
        #expect(try Self.guideCodes() == ProviderError.Code.all.map(\.rawValue))
    }

    @Test func theHeaderListsEveryStrippedHostKey() throws {
        let listed = try Self.keys(in: Self.text(Self.header), after: "the host's own keys (", until: ") removed")
        #expect(listed == Set(ProviderPolicy.keys))
    }

    @Test func pluginsMdListsEveryStrippedHostKey() throws {
        let listed = try Self.keys(in: Self.text(Self.guide), after: "host's own keys removed (", until: "):")
        #expect(listed == Set(ProviderPolicy.keys))
    }
}
