import Glibc

/// The few socket calls `serve` makes, each retried on EINTR.
enum Socket {
    /// Writes all of `bytes`; false when the peer is gone or the send timed out.
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

    /// Waits until `descriptors` can be read or `milliseconds` pass; the readable ones (empty on timeout).
    static func waitReadable(_ descriptors: [Int32], milliseconds: Int) -> [Int32] {
        wait(readable: descriptors, writable: nil, milliseconds: milliseconds).readable
    }

    /// Waits until `readable` can be read, `writable` written, or `milliseconds` pass: the readable
    /// ones, and whether `writable` can take bytes (both empty on timeout).
    static func wait(readable: [Int32], writable: Int32?, milliseconds: Int) -> (readable: [Int32], writable: Bool) {
        var polls = readable.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        if let writable { polls.append(pollfd(fd: writable, events: Int16(POLLOUT), revents: 0)) }
        while true {
            let ready = poll(&polls, nfds_t(polls.count), Int32(clamping: max(0, milliseconds)))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return ([], false) }
            let read = polls.prefix(readable.count).filter { $0.revents != 0 }.map(\.fd)
            let canWrite = writable != nil && (polls.last.map { $0.revents & Int16(POLLOUT | POLLERR | POLLHUP) != 0 } ?? false)
            return (read, canWrite)
        }
    }

    /// Reads what is there (at most `buffer`'s size); 0 when the peer closed, -1 on error.
    static func receive(_ descriptor: Int32, into buffer: inout [UInt8]) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            return count
        }
    }

    /// Sets the send timeout, so a client that stops reading cannot hold a thread forever.
    static func setSendTimeout(_ descriptor: Int32, milliseconds: Int) {
        var timeout = timeval(tv_sec: milliseconds / 1000, tv_usec: (milliseconds % 1000) * 1000)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
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
        let elapsed = start.duration(to: .now)
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }
}
