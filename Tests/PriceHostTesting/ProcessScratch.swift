import Foundation
import Glibc

/// A directory of this test process's own under the temporary directory, for what it builds or copies once and
/// keeps for its whole run (plugins compiled or built out of tree, copies of libraries): a ``TemporaryDirectory``,
/// whose name no other process has, removed when the process exits.
///
/// Not named by the process id: ids are reused (32,768 here), and a directory an earlier run left under the same id
/// was in the way of a copy into it (`FoundationPluginTests`, "File exists"); nor left behind, which filled the
/// temporary directory with a swift build's 39 MB per run.
public enum ProcessScratch {
    /// The directory, made on first use; when it cannot be made, a path beneath which each use fails saying why.
    public static let path: String = {
        atexit { ProcessScratch.made?.remove() }
        return made?.path ?? URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("pricehost-process-unmade").path
    }()

    /// `path/name`, a directory made if it is not there.
    public static func directory(_ name: String) throws -> String {
        let directory = path + "/" + name
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    private static let made = try? TemporaryDirectory(prefix: "pricehost-process")
}
