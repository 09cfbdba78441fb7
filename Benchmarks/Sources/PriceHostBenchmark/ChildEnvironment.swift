import Glibc

/// The environment children run with: this process's, less what would change
/// what they do. `PRICEHOST_*` could pick another config, other plugins or debug
/// logging; a proxy variable would send the loopback requests elsewhere (this
/// benchmark must never leave the machine), so `no_proxy` covers 127.0.0.1 too.
enum ChildEnvironment {
    static let entries: [String] = {
        var kept: [String] = []
        var cursor = environ
        // environ ends with a null pointer; the bound only guards against a corrupt one.
        for _ in 0..<100_000 {
            guard let entry = cursor.pointee else { break }
            let text = String(cString: entry)
            let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
            if !isDropped(name) { kept.append(text) }
            cursor += 1
        }
        return kept + ["no_proxy=127.0.0.1,localhost", "NO_PROXY=127.0.0.1,localhost"]
    }()

    private static func isDropped(_ name: String) -> Bool {
        let lower = name.lowercased()
        return name.hasPrefix("PRICEHOST_") || lower.hasSuffix("_proxy") || lower == "curl_home"
    }
}
