import Glibc
import ProviderABI

/// An IPv4 address and port to listen on, as `HOST:PORT` (`127.0.0.1:8480`, `0.0.0.0:80`,
/// `localhost:8480`); port 0 asks the kernel for a free one.
package struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// The dotted-quad host.
    var host: String
    /// The port, 0 to 65535.
    var port: UInt16

    /// `127.0.0.1:8480`.
    static let `default` = ListenAddress(host: "127.0.0.1", port: 8480)

    /// What a listen address must look like, for messages about `text`.
    package static func rule(_ text: String) -> String {
        "\(JSONValue.quoted(text)) is not a listen address; expected IPV4:PORT such as 127.0.0.1:8480 (or localhost:PORT)"
    }

    package init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`; `nil` for anything else.
    package init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        let portText = text[text.index(after: colon)...]
        guard (1...5).contains(portText.count), portText.allSatisfy({ ("0"..."9").contains($0) }),
              let port = Int(portText), port <= 65_535 else { return nil }
        if host == "localhost" { host = "127.0.0.1" }
        var address = in_addr()
        guard !host.isEmpty, inet_pton(AF_INET, host, &address) == 1 else { return nil }
        self.init(host: host, port: UInt16(port))
    }

    /// True for 127.0.0.0/8.
    package var isLoopback: Bool { host.hasPrefix("127.") }

    package var description: String { "\(host):\(port)" }
}
