import Glibc

/// The few socket calls `serve` makes, each retried on EINTR.
enum Socket {
    /// Writes all of `bytes`; false when the peer is gone, or a non-blocking socket takes no more now.
    static func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer in
                // A non-empty array always has a base address.
                send(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0, errno == EINTR { continue }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    /// Sets the kernel's send buffer (`SO_SNDBUF`), which also turns its autotuning off.
    static func setSendBuffer(_ descriptor: Int32, bytes: Int) {
        var size = Int32(clamping: bytes)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Turns Nagle's algorithm off (`TCP_NODELAY`): each write goes out at once, not held while an earlier one is unacknowledged.
    static func setNoDelay(_ descriptor: Int32) {
        var yes: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Milliseconds from `start` to now.
    package static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        milliseconds(from: start, to: .now)
    }

    /// The milliseconds from `start` to `end`.
    static func milliseconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> Double {
        let elapsed = start.duration(to: end)
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }
}
