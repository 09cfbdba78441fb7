import Glibc

/// A plugin's `sha256` pin: the file's hash must be the one the config names.
enum PluginPin {
    /// Why a file was refused.
    package struct Refusal: Error {
        package var reason: String
    }

    /// The SHA-256 of the open `file`, lower-case hex; a refusal when it cannot be
    /// read or differs from `pin`.
    package static func hash(_ file: Int32, checking pin: (sha256: String, keyPath: String)?) -> Result<String, Refusal> {
        guard let digest = FileDescriptorReader.sha256(file) else {
            return .failure(Refusal(reason: "cannot read: \(String(cString: strerror(errno)))"))
        }
        if let pin, pin.sha256 != digest {
            return .failure(Refusal(reason: "sha256 is \(digest), but \(pin.keyPath) pins \(pin.sha256); if the plugin was upgraded on purpose, update the pin"))
        }
        return .success(digest)
    }
}
