import Glibc

/// What a connection or a stream has yet to write to its socket: bytes and how many of them are out.
struct StreamOutput {
    private var bytes: [UInt8] = []
    private var written = 0

    var isEmpty: Bool { written == bytes.count }

    mutating func append(_ text: String) {
        startAppending()
        bytes += text.utf8
    }

    /// Appends `more` (a serialized response).
    mutating func append(_ more: [UInt8]) {
        startAppending()
        bytes += more
    }

    private mutating func startAppending() {
        if isEmpty {
            // Its storage is kept from one event to the next: a stream's buffer grows to its largest batch, once.
            bytes.removeAll(keepingCapacity: true)
            written = 0
        }
    }

    /// Keeps only the rest of the event being written, if one is half written (events end with a blank line).
    mutating func dropUnstartedEvents() {
        guard !isEmpty else { return }
        let atBoundary = written == 0 || (written >= 2 && bytes[written - 2] == 0x0A && bytes[written - 1] == 0x0A)
        var end = written
        if !atBoundary {
            while end < bytes.count, !(end >= 1 && bytes[end - 1] == 0x0A && bytes[end] == 0x0A) { end += 1 }
            end = min(end + 1, bytes.count)
        }
        bytes.removeSubrange(end...)
    }

    enum Progress { case sent, wouldBlock, failed }

    /// Writes what the socket takes now, without waiting.
    mutating func send(_ descriptor: Int32) -> Progress {
        var progressed = false
        while !isEmpty {
            let sent = bytes.withUnsafeBytes { buffer in
                Glibc.send(descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent < 0, errno == EINTR { continue }
            if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK { return progressed ? .sent : .wouldBlock }
            if sent <= 0 { return .failed }
            written += sent
            progressed = true
        }
        return .sent
    }
}
