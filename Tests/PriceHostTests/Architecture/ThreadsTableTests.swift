import Foundation
import Testing

/// docs/ARCHITECTURE.md's table of threads agrees with the code: every file under `Sources/`
/// that starts a thread of its own (`DetachedThread.start` or `.run`, `pthread_create`) is
/// named in the table, as `Folder/File`, and every file the table names still starts one.
struct ThreadsTableTests {
    /// What starts a thread.
    static let starters = ["DetachedThread.start", "DetachedThread.run", "pthread_create("]

    /// The lines of ARCHITECTURE.md's table of threads (from its header to the first line that is no row).
    static func table() throws -> String {
        let page = try String(contentsOfFile: ArchitectureTests.root + "/docs/ARCHITECTURE.md", encoding: .utf8)
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        guard let header = lines.firstIndex(where: { $0.hasPrefix("| thread | started by | stopped by |") }) else { return "" }
        return lines[header...].prefix { $0.hasPrefix("|") }.joined(separator: "\n")
    }

    /// `Folder/File` of each Swift file of `Sources/` that starts a thread (the thread code itself left out).
    static func threadStarters() throws -> [String] {
        var found: [String] = []
        for target in try ArchitectureTests.targets() {
            for path in try ArchitectureTests.swiftFiles(under: "Sources/" + target) {
                let source = try ArchitectureTests.text(ArchitectureTests.root + "/Sources/" + target + "/" + path)
                let code = source.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
                guard starters.contains(where: code.contains), !path.hasSuffix("Support/DetachedThread.swift") else { continue }
                let parts = path.dropLast(".swift".count).split(separator: "/")
                found.append(parts.suffix(2).joined(separator: "/"))
            }
        }
        return found.sorted()
    }

    @Test func everyFileThatStartsAThreadIsInTheTable() throws {
        let table = try Self.table()
        #expect(table.split(separator: "\n").count > 10, "docs/ARCHITECTURE.md has no table of threads ('| thread | started by | stopped by |')")
        let starters = try Self.threadStarters()
        #expect(starters.count >= 5, "found only \(starters) starting threads")
        let unnamed = starters.filter { !table.contains("`\($0)") }
        #expect(unnamed.isEmpty, "these start threads, and docs/ARCHITECTURE.md's table of threads does not name them: \(unnamed)")
    }
}
