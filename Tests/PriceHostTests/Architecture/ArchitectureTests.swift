import Foundation
import Testing

/// The map in docs/ARCHITECTURE.md holds: inside each target under `Sources/` no folders
/// depend on each other in a cycle, every path the page names exists, and no Swift file
/// is over 300 lines. Each reads the package's files from the root found by `#filePath`.
struct ArchitectureTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// The longest a Swift file may be, in lines.
    static let lineLimit = 300

    /// Every `.swift` file under `folder` (from the root), by its path from `folder`; hidden folders (`.build`) left out.
    static func swiftFiles(under folder: String) throws -> [String] {
        let base = root + "/" + folder
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        var found: [String] = []
        while let path = walker.nextObject() as? String {
            if path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            if path.hasSuffix(".swift") { found.append(path) }
        }
        return found.sorted()
    }

    static func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// The targets under `Sources/`.
    static func targets() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root + "/Sources").filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test func noTargetHasAFolderCycle() throws {
        var checked = 0
        for target in try Self.targets() {
            let files = try Self.swiftFiles(under: "Sources/" + target).map { path in
                (path: path, source: try Self.text(Self.root + "/Sources/" + target + "/" + path))
            }
            checked += files.count
            for cycle in FolderGraph(files: files).cycles() {
                Issue.record("Sources/\(target): folders depend on each other in a cycle; move the type to the folder it belongs to:\n  \(cycle.joined(separator: "\n  "))")
            }
        }
        #expect(checked > 100, "the scan found only \(checked) Swift files under \(Self.root)/Sources")
    }

    @Test func everyPathArchitectureMdNamesExists() throws {
        let named = try DocumentPaths(root: Self.root).named(inPage: "docs/ARCHITECTURE.md")
        #expect(named.count > 50, "found only \(named.count) paths in docs/ARCHITECTURE.md")
        let missing = named.filter { !$0.exists }
        #expect(missing.isEmpty, "docs/ARCHITECTURE.md names paths that do not exist:\n\(missing.map(\.description).joined(separator: "\n"))")
    }

    @Test func noSwiftFileIsOverTheLineLimit() throws {
        var over: [String] = []
        for folder in ["Sources", "Plugins", "Tests"] {
            for path in try Self.swiftFiles(under: folder) {
                let lines = try Self.text(Self.root + "/" + folder + "/" + path).utf8.count { $0 == UInt8(ascii: "\n") }
                if lines > Self.lineLimit { over.append("\(folder)/\(path): \(lines) lines") }
            }
        }
        #expect(over.isEmpty, "Swift files over \(Self.lineLimit) lines; split them by concern (Type+Concern.swift):\n\(over.joined(separator: "\n"))")
    }

    // The checks above pass on a tree that holds; these show that they would fail on one that does not.

    @Test func theScanSeesTypesAndUsesButNotCommentsOrStrings() {
        let scan = SwiftSourceScan(##"""
        import Foundation
        /// Uses `Hidden` in a comment. /* and Nested /* Hidden */ */
        package struct Shown: Sendable {
            struct Nested {}
            let text = "Hidden \(Interpolated.value) and \"Hidden\""
            let raw = #"Hidden \#(RawInterpolated.value) "Hidden""#
            let block = """
                Hidden "" \(BlockInterpolated.value)
                """
        }
        private struct Private {}
        enum Kind { case one }
        typealias Alias = Kind
        """##)
        #expect(scan.declaredTypes == ["Shown", "Kind", "Alias"])
        #expect(!scan.identifiers.contains("Hidden"))
        #expect(scan.identifiers.isSuperset(of: ["Interpolated", "RawInterpolated", "BlockInterpolated", "Sendable", "Kind", "value"]))
    }

    @Test func aCycleBetweenFoldersIsNamedWithItsTypes() {
        let graph = FolderGraph(files: [
            (path: "Loader/Catalog.swift", source: "struct Catalog { let cache: Cache }"),
            (path: "Quotes/Service.swift", source: "struct Service { let catalog: Catalog }"),
            (path: "Cache/Cache.swift", source: "struct Cache { let service: Service? }"),
            (path: "Support/Text.swift", source: "struct Text {}"),
            (path: "Loader/Internal/Reader.swift", source: "struct Reader { let text: Text }"),
            (path: "Reading.swift", source: "struct Reading { let reader: Reader }"),
        ])
        #expect(graph.cycles() == [["Cache → Quotes (Service)", "Loader → Cache (Cache)", "Quotes → Loader (Catalog)"]])
        #expect(FolderGraph.folder(ofFile: "Loader/Internal/Reader.swift") == "Loader")
        #expect(FolderGraph.folder(ofFile: "Internal/Entry.swift") == "(root)")
        #expect(FolderGraph.folder(ofFile: "Serve/Board/BoardPage.swift") == "Serve")
    }

    @Test func aPathThatIsGoneIsFoundMissing() throws {
        let paths = try DocumentPaths(root: Self.root)
        #expect(paths.exists("Sources/PriceHostCore/Loader/ProviderCatalog*.swift"))
        #expect(paths.exists("Loader/ProviderCatalog.load"))
        #expect(paths.exists("Sources/PriceHost/Wiring/"))
        #expect(!paths.exists("Networking/Curl/CurlTransport"))
        #expect(!paths.exists("Sources/PriceHostCore/Loader/NoSuchFile*.swift"))
        #expect(paths.pathPrefix(of: "Loader/ProviderCatalog.load(until: [\"coinbase\"])") == "Loader/ProviderCatalog.load")
        #expect(paths.pathPrefix(of: "ws://") == nil && paths.pathPrefix(of: "HTTP/1.1") == nil)
        #expect(DocumentPaths.linkTargets(in: "see [serve](serve.md#the-board) and [x](https://example.com)") == ["serve.md#the-board", "https://example.com"])
    }
}
