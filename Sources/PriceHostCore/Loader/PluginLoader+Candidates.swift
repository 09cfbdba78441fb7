import FoundationEssentials
import Glibc

extension PluginLoader {
    /// The files `config` names, found: `plugins`, then every `*.so` in each of
    /// `pluginDirectories`; and a failure for each that cannot be found.
    package func candidates(config: Config) -> (files: [Candidate], failures: [PluginFailure]) {
        var files: [Candidate] = []
        var failures: [PluginFailure] = []
        forEachCandidate(config: config) { found in
            switch found {
            case .success(let candidate): files.append(candidate)
            case .failure(let failure): failures.append(failure)
            }
            return true
        }
        return (files, failures)
    }

    /// Finds the files `config` names one at a time, in load order, as long as
    /// `body` returns `true`: a name is looked up, and a directory listed, only
    /// when the walk gets to it.
    func forEachCandidate(config: Config, _ body: (Result<Candidate, PluginFailure>) -> Bool) {
        for reference in config.plugins {
            let pin = reference.sha256.map { ($0, "\(reference.keyPath).sha256") }
            let found: Result<Candidate, PluginFailure>
            if reference.isPath {
                let path = config.absolutePath(reference.reference)
                found = access(path, F_OK) == 0
                    ? .success(Candidate(path: path, pin: pin))
                    : .failure(PluginFailure(path: path, reason: "file not found (from \(reference.keyPath))"))
            } else if let path = searchPath.find(reference.reference, exists: { access($0, F_OK) == 0 }) {
                found = .success(Candidate(path: path, pin: pin))
            } else {
                found = .failure(PluginFailure(
                    path: reference.reference,
                    reason: "not found (from \(reference.keyPath)); looked in \(searchPath.directories.joined(separator: ", "))"))
            }
            guard body(found) else { return }
        }
        for directory in config.pluginDirectories {
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
                guard body(.failure(PluginFailure(path: directory, reason: "plugin directory cannot be read (does it exist?)"))) else { return }
                continue
            }
            for entry in entries.sorted() where entry.hasSuffix(".so") {
                guard body(.success(Candidate(path: directory + "/" + entry, pin: nil))) else { return }
            }
        }
    }
}
