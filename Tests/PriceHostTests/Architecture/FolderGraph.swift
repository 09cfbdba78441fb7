/// Which folders of one target depend on which: folder A depends on folder B when
/// a file in A names a type that a file in B declares (``SwiftSourceScan``).
///
/// A folder is a top-level folder of the target, `(root)` for the files beside
/// them; a folder inside one belongs to it, and so does an `Internal/` folder,
/// which is its parent's private part (`Internal/` at the top belongs to `(root)`).
struct FolderGraph {
    /// For each folder, the folders it depends on and, for each, the types it names there.
    private(set) var edges: [String: [String: Set<String>]] = [:]
    /// The folders, including those that depend on nothing.
    private(set) var folders: Set<String> = []

    /// - Parameter files: each file's path inside the target (`Loader/ProviderCatalog.swift`) and its text.
    init(files: [(path: String, source: String)]) {
        let scans = files.map { (folder: Self.folder(ofFile: $0.path), scan: SwiftSourceScan($0.source)) }
        var owners: [String: Set<String>] = [:]
        for (folder, scan) in scans {
            folders.insert(folder)
            for type in scan.declaredTypes { owners[type, default: []].insert(folder) }
        }
        for (folder, scan) in scans {
            for identifier in scan.identifiers {
                // A name the folder declares itself is its own, whoever else declares it too.
                guard let declaring = owners[identifier], !declaring.contains(folder) else { continue }
                for other in declaring { edges[folder, default: [:]][other, default: []].insert(identifier) }
            }
        }
    }

    /// The folder a file at `path` (relative to its target) belongs to.
    static func folder(ofFile path: String) -> String {
        let directories = path.split(separator: "/").dropLast().filter { $0 != "Internal" && $0 != "." }
        return directories.first.map(String.init) ?? "(root)"
    }

    /// Each set of folders that depend on each other in a cycle (a strongly connected
    /// component of two or more), as lines naming each dependency and the types that make it,
    /// such as `Loader → Quotes (CoalescingPriceFetcher)`; empty when there is none.
    func cycles() -> [[String]] {
        components().filter { $0.count > 1 }.map { component in
            let members = Set(component)
            return component.sorted().flatMap { from in
                (edges[from] ?? [:]).filter { members.contains($0.key) }.sorted { $0.key < $1.key }.map { to, types in
                    "\(from) → \(to) (\(types.sorted().prefix(4).joined(separator: ", ")))"
                }
            }
        }
    }

    /// Tarjan's strongly connected components, over the folders in name order so that a failure reads the same each run.
    private func components() -> [[String]] {
        var index: [String: Int] = [:]
        var lowLink: [String: Int] = [:]
        var onStack: Set<String> = []
        var stack: [String] = []
        var found: [[String]] = []

        func connect(_ folder: String) {
            index[folder] = index.count
            lowLink[folder] = index[folder]
            stack.append(folder)
            onStack.insert(folder)
            for next in (edges[folder] ?? [:]).keys.sorted() {
                if index[next] == nil {
                    connect(next)
                    lowLink[folder] = min(lowLink[folder] ?? 0, lowLink[next] ?? 0)
                } else if onStack.contains(next) {
                    lowLink[folder] = min(lowLink[folder] ?? 0, index[next] ?? 0)
                }
            }
            guard lowLink[folder] == index[folder] else { return }
            var component: [String] = []
            while let top = stack.popLast() {
                onStack.remove(top)
                component.append(top)
                if top == folder { break }
            }
            found.append(component)
        }

        for folder in folders.sorted() where index[folder] == nil { connect(folder) }
        return found
    }
}
