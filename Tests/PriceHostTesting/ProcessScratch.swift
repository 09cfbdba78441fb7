import Foundation
import Glibc

/// A directory of this test process's own under the temporary directory, for what it builds or copies once and
/// keeps for its whole run (plugins compiled or built out of tree, copies of libraries): made with `mkdtemp`, so no
/// other process has the name, and removed when the process exits.
///
/// Not named by the process id: ids are reused (32,768 here), and a directory an earlier run left under the same id
/// was in the way of a copy into it (`FoundationPluginTests`, "File exists"); nor left behind, which filled the
/// temporary directory with a swift build's 39 MB per run.
public enum ProcessScratch {
    /// The directory, made on first use.
    public static let path: String = make()

    /// `path/name`, a directory made if it is not there.
    public static func directory(_ name: String) throws -> String {
        let directory = path + "/" + name
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    private static func make() -> String {
        // As a URL makes it: no doubled '/' (NSTemporaryDirectory() ends in one), since tests compare the paths printed.
        let base = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("pricehost-process-").path
        var template = Array((base + "XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
            return String(cString: base)
        }
        // Without mkdtemp's directory, a name no other process makes; creating it may fail, and then the first use says why.
        let path = made ?? base + UUID().uuidString
        atexit { ProcessScratch.remove() }
        return path
    }

    private static func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
