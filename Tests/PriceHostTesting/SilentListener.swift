import Glibc

/// A TCP listener on 127.0.0.1 that the kernel completes connections for and nobody answers: a server that hangs,
/// for a client's connect and read timeouts. Closed when released.
public final class SilentListener {
    /// The port it listens on.
    public let port: UInt16
    private let descriptor: Int32

    /// Listens on a free port of 127.0.0.1 until released.
    public init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard listener >= 0, bound, listen(listener, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            if listener >= 0 { close(listener) }
            throw PostgresServer.ServerError("cannot listen on 127.0.0.1: \(reason)")
        }
        descriptor = listener
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(descriptor) }
}
