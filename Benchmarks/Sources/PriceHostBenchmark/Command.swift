/// One program to run: an absolute path and its arguments (no shell in between).
struct Command: Sendable, CustomStringConvertible {
    let executable: String
    let arguments: [String]

    init(_ executable: String, _ arguments: [String] = []) {
        self.executable = executable
        self.arguments = arguments
    }

    /// The command as it could be pasted into a shell.
    var description: String {
        ([executable] + arguments).map(Self.shellQuoted).joined(separator: " ")
    }

    private static func shellQuoted(_ word: String) -> String {
        let plain = word.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || "-_./,:=@+".utf8.contains(byte)
        }
        if plain, !word.isEmpty { return word }
        return "'" + word.replacing("'", with: "'\\''") + "'"
    }
}
