import Foundation
import Testing

/// Every public declaration of ProviderABI, enum cases included, has a `///`
/// comment: plugin authors read this API through DocC and their editor.
struct PublicDocumentationTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/ProviderABI").path

    /// `file:line: declaration` for each public declaration without a doc comment right above it (attributes aside).
    static func undocumented(in path: String) throws -> [String] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        var found: [String] = []
        var publicEnumIndents: [Int] = []
        for (index, line) in lines.enumerated() {
            let indent = line.prefix { $0 == " " }.count
            let text = line.trimmingCharacters(in: .whitespaces)
            if text == "}", publicEnumIndents.last == indent { publicEnumIndents.removeLast() }
            let declaration = text.range(of: #"^(@\w+(\([^)]*\))?\s+)*public\s"#, options: .regularExpression) != nil
            let enumCase = text.hasPrefix("case ") && publicEnumIndents.last.map { indent == $0 + 4 } == true
            if declaration, text.contains("enum "), text.hasSuffix("{") { publicEnumIndents.append(indent) }
            guard declaration || enumCase else { continue }
            var above = index - 1
            while above >= 0, lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("@") { above -= 1 }
            if above < 0 || !lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                found.append("\(path.replacingOccurrences(of: sources + "/", with: "")):\(index + 1): \(text)")
            }
        }
        return found
    }

    @Test func everyPublicDeclarationHasADocComment() throws {
        let files = try #require(FileManager.default.enumerator(atPath: Self.sources)?.allObjects as? [String]).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10, "found only \(files) under \(Self.sources)")
        let missing = try files.sorted().flatMap { try Self.undocumented(in: Self.sources + "/" + $0) }
        #expect(missing == [], "add a /// comment to each")
    }
}
