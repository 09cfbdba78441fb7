import Glibc

/// One TCP connection to Redis, blocking with deadlines: a non-blocking socket
/// and `poll`, so neither connecting nor a reply can take longer than it is given.
/// Owned by one thread (``RedisClient``'s); not shared.
final class RedisConnection {
    private let descriptor: Int32
    private var parser = RESPParser()
    /// What `recv` reads into, kept from one read to the next.
    private var chunk = [UInt8](repeating: 0, count: 16 * 1024)

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Connects to `url`'s host and port within `timeout`.
    /// - Throws: ``RedisError``: not resolved, refused, no connection within the time.
    package static func open(_ url: RedisURL, timeout: Duration) throws(RedisError) -> RedisConnection {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(url.host, String(url.port), &hints, &found)
        guard status == 0, let first = found else {
            throw RedisError("cannot resolve \(url.host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(found) }
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw RedisError("socket: \(String(cString: strerror(errno)))") }
        let connection = RedisConnection(descriptor: descriptor)
        if connect(descriptor, first.pointee.ai_addr, first.pointee.ai_addrlen) != 0 {
            guard errno == EINPROGRESS else { throw RedisError("cannot connect to \(url.address): \(String(cString: strerror(errno)))") }
            guard try connection.wait(for: Int16(POLLOUT), until: .now + timeout) else {
                throw RedisError("no connection to \(url.address) within \(timeout)")
            }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
            guard error == 0 else { throw RedisError("cannot connect to \(url.address): \(String(cString: strerror(error)))") }
        }
        var yes: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        return connection
    }

    /// Sends `bytes` (many commands at once: a pipeline) and reads `count` replies, all before `deadline`.
    /// - Throws: ``RedisError`` when the time runs out, the connection breaks, or a reply is malformed;
    ///   the connection is then unusable.
    func exchange(_ bytes: [UInt8], replies count: Int, deadline: ContinuousClock.Instant) throws(RedisError) -> [RESPValue] {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress.map { $0 + offset }, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent > 0 {
                offset += sent
            } else if sent < 0, errno == EAGAIN || errno == EINTR {
                guard try wait(for: Int16(POLLOUT), until: deadline) else { throw Self.noReply }
            } else {
                throw RedisError("sending to redis: \(String(cString: strerror(errno)))")
            }
        }
        var replies: [RESPValue] = []
        replies.reserveCapacity(count)
        while replies.count < count {
            guard let reply = try nextPush(until: deadline) else { throw Self.noReply }
            replies.append(reply)
        }
        return replies
    }

    /// The next reply (``exchange(_:replies:deadline:)`` reads its replies through it) or pushed
    /// message (a subscriber's), or `nil` when none is complete by `deadline`:
    /// a partial one stays buffered for the next call.
    /// - Throws: ``RedisError`` when the connection breaks or a reply is malformed.
    func nextPush(until deadline: ContinuousClock.Instant) throws(RedisError) -> RESPValue? {
        while true {
            do {
                if let reply = try parser.next() { return reply }
            } catch {
                throw RedisError("malformed reply from redis: \(error.description)")
            }
            let received = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if received > 0 {
                parser.append(chunk[..<received])
            } else if received == 0 {
                throw RedisError("redis closed the connection")
            } else if errno == EAGAIN || errno == EINTR {
                guard try wait(for: Int16(POLLIN), until: deadline) else { return nil }
            } else {
                throw RedisError("reading from redis: \(String(cString: strerror(errno)))")
            }
        }
    }

    private static let noReply = RedisError("no reply from redis in time", timedOut: true)

    /// Waits for `events` until `deadline`; false when the time ran out.
    private func wait(for events: Int16, until deadline: ContinuousClock.Instant) throws(RedisError) -> Bool {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return false }
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + Int64(left.components.attoseconds / 1_000_000_000_000_000) + 1)
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return true }
            if ready < 0, errno != EINTR { throw RedisError("poll: \(String(cString: strerror(errno)))") }
        }
    }
}
