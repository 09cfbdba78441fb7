import Foundation
import PriceHostTesting

/// Edits the file-provider tests make to price files in place.
extension TemporaryDirectory {
    /// Replaces the contents of `file` in place, keeping its inode.
    func overwriteInPlace(_ file: String, with text: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        defer { try? handle.close() }
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
    }

    /// Sets the modification time of `file`.
    func setModificationDate(_ date: Date, of file: String) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: file)
    }

    /// The inode and size of `file`, to check that a rewrite kept them.
    func inodeAndSize(of file: String) throws -> (inode: UInt64, size: UInt64) {
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
        let size = (attributes[.size] as? NSNumber)?.uint64Value ?? 0
        return (inode, size)
    }
}
