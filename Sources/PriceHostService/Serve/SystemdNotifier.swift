import Glibc

/// sd_notify(3) without libsystemd: one datagram to `$NOTIFY_SOCKET`, when systemd set it
/// (a unit with `Type=notify`); nothing otherwise.
package enum SystemdNotifier {
    /// Sends `state` (`READY=1`, `RELOADING=1`, `STOPPING=1`, …); failures are ignored, as sd_notify's are.
    package static func notify(_ state: String, environment: [String: String]) {
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty else { return }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var name = Array(path.utf8)
        // `@name` is an abstract socket: a leading NUL and no terminator.
        if name.first == UInt8(ascii: "@") { name[0] = 0 }
        guard name.count < MemoryLayout.size(ofValue: address.sun_path) else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in name.enumerated() { buffer[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + name.count + (name.first == 0 ? 0 : 1))
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let message = Array(state.utf8)
        _ = message.withUnsafeBytes { bytes in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), $0, length)
                }
            }
        }
    }
}
