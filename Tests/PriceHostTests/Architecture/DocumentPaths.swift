import Foundation

/// The paths a page of the docs names, and whether each exists in the package.
///
/// A path is named in an inline code span (`` `Sources/PriceHost/Wiring/` ``) or as a
/// relative link's target (`[PLUGINS.md](../PLUGINS.md)`, resolved from the page's folder).
/// A code span counts as a path when it starts with one of the package's top folders
/// (`Sources/`, `Tests/`, `Plugins/`, `docs/` …) or with a folder of a target under
/// `Sources/` (`Loader/ProviderCatalog.load(until:)`, `Serve/ServeServer`): the docs
/// name a file by its folder and type, and may go on to a member.
struct DocumentPaths {
    /// A path as the page names it, the line it is on, and whether it exists.
    struct Named: CustomStringConvertible {
        let text: String
        let line: Int
        let exists: Bool
        var description: String { "line \(line): \(text)" }
    }

    /// The folders a path may start with from the package root.
    static let topFolders = ["Sources", "Tests", "Plugins", "docs", "Benchmarks", ".ci", "scripts", "Templates", "examples"]

    let root: String
    /// The folders of every target under `Sources/` (`Serve`, `Loader`, `Curl` …) and the targets themselves.
    let sourceFolders: Set<String>

    init(root: String) throws {
        self.root = root
        var folders: Set<String> = []
        for target in try FileManager.default.contentsOfDirectory(atPath: root + "/Sources") {
            folders.insert(target)
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: root + "/Sources/" + target)) ?? []
            for entry in entries where Self.isDirectory(root + "/Sources/" + target + "/" + entry) { folders.insert(entry) }
        }
        sourceFolders = folders
    }

    /// Every path `page` (its path from the root, such as `docs/ARCHITECTURE.md`) names.
    func named(inPage page: String) throws -> [Named] {
        let text = try String(contentsOfFile: root + "/" + page, encoding: .utf8)
        let pageFolder = (page as NSString).deletingLastPathComponent
        var found: [Named] = []
        var fenced = false
        for (number, line) in text.components(separatedBy: "\n").enumerated() {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { fenced.toggle(); continue }
            if fenced { continue }
            for span in Self.codeSpans(in: line) {
                guard let path = pathPrefix(of: span) else { continue }
                found.append(Named(text: path, line: number + 1, exists: exists(path)))
            }
            for target in Self.linkTargets(in: line) where !target.contains("://") && !target.hasPrefix("#") {
                let path = String(target.prefix { $0 != "#" })
                let resolved = ((pageFolder + "/" + path) as NSString).standardizingPath
                found.append(Named(text: target, line: number + 1, exists: FileManager.default.fileExists(atPath: root + "/" + resolved)))
            }
        }
        return found
    }

    /// The path at the start of a code span, when it starts with a top folder or a source folder.
    func pathPrefix(of span: String) -> String? {
        let path = String(span.prefix { $0.isLetter || $0.isNumber || "/_+*.-".contains($0) })
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard components.count > 1, let first = components.first else { return nil }
        if Self.topFolders.contains(String(first)) { return path }
        // `HTTP/1.1` is a protocol, not the folder HTTP: a file or folder name starts with a letter.
        guard sourceFolders.contains(String(first)), components[1].isEmpty || components[1].first?.isLetter == true else { return nil }
        return path
    }

    /// Whether `path` names something that exists: a file or folder from the root (for a
    /// top folder), from `Sources/` (for a target) or inside some target under `Sources/`; a file named without
    /// `.swift`; a `*` matching at least one file; a trailing `.member` left off.
    func exists(_ path: String) -> Bool {
        let first = String(path.prefix { $0 != "/" })
        let targets = (try? FileManager.default.contentsOfDirectory(atPath: root + "/Sources")) ?? []
        let bases = Self.topFolders.contains(first) ? [root]
            : targets.contains(first) ? [root + "/Sources"] : targets.map { root + "/Sources/" + $0 }
        var candidate = path.hasSuffix("/") ? String(path.dropLast()) : path
        while true {
            for base in bases where matches(base + "/" + candidate) || matches(base + "/" + candidate + ".swift") { return true }
            // `Loader/ProviderCatalog.load`: drop the member and try again.
            guard let dot = candidate.lastIndex(of: "."), candidate[dot...].contains(where: { $0 != "." }),
                  !candidate[dot...].contains("/") else { return false }
            candidate = String(candidate[..<dot])
        }
    }

    private func matches(_ path: String) -> Bool {
        guard path.contains("*") else { return FileManager.default.fileExists(atPath: path) }
        let folder = (path as NSString).deletingLastPathComponent
        let pattern = (path as NSString).lastPathComponent.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.contains { name in
            guard let first = pattern.first, let last = pattern.last, name.hasPrefix(first), name.hasSuffix(last) else { return false }
            return name.count >= first.count + last.count
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The text of each `inline code span` on a line outside a fenced block.
    static func codeSpans(in line: String) -> [String] {
        let parts = line.components(separatedBy: "`")
        return stride(from: 1, to: parts.count - 1, by: 2).map { parts[$0] }
    }

    /// The target of each `[text](target)` link on a line.
    static func linkTargets(in line: String) -> [String] {
        line.components(separatedBy: "](").dropFirst().compactMap { rest in
            guard let close = rest.firstIndex(of: ")") else { return nil }
            return String(rest[..<close])
        }
    }
}
