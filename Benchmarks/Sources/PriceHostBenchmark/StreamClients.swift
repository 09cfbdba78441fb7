import CEpoll
import Dispatch
import Foundation
import Glibc
import PriceHostTesting
import Synchronization

/// When the venue wrote each ticker (``Monotonic`` ns), by ticker number.
///
/// `@unchecked Sendable`: slot n is written once, by the venue's thread, before the
/// frame of ticker n goes to the socket; a client thread reads it only after it
/// received the event that frame caused, through two sockets and `pricehost serve`,
/// so the system calls in between order the write before the read.
final class SendTimes: @unchecked Sendable {
    let capacity: Int
    private let times: UnsafeMutablePointer<UInt64>

    init(capacity: Int) {
        self.capacity = capacity
        times = .allocate(capacity: max(1, capacity))
        times.initialize(repeating: 0, count: max(1, capacity))
    }

    deinit { times.deallocate() }

    subscript(number: Int) -> UInt64 {
        get { number < capacity ? times[number] : 0 }
        set { if number < capacity { times[number] = newValue } }
    }
}

/// What one SSE client has received; written by its thread only, read by any.
final class StreamProgress: Sendable {
    /// The highest ticker number received, -1 before any.
    let latest = Atomic<Int>(-1)
    /// When ``latest`` arrived (``Monotonic`` ns).
    let latestAt = Atomic<UInt64>(0)
    /// Ticker events received.
    let events = Atomic<Int>(0)
    /// Ticker events of the timed range received.
    let timed = Atomic<Int>(0)
    /// The server ended the stream: it cuts off a client that stays behind (with `event: error`).
    let ended = Atomic<Bool>(false)
}

/// SSE clients of `GET /v1/stream?asset=BTC`, many on few threads: each thread waits on an
/// epoll set of its connections (level-triggered), reads each ready one into one 64 KiB
/// buffer, takes the time once per read, and finds each event's ticker number in its
/// `"amount"`. On 2 shared cores the clients must cost little: 1,000 threads would take
/// the server's cores for their context switches, and `poll` over 500 descriptors costs
/// a scan of all 500 for every wake-up, which with 1,000 clients is most of the time.
///
/// An event of the timed range (``time(_:)``) adds one latency sample: its arrival
/// minus when the venue wrote its ticker. So with N clients each event counts N times.
final class StreamClients: Sendable {
    let progress: [StreamProgress]
    private let descriptors: [Int32]
    private let pollers: [Int32]
    private let sendTimes: SendTimes
    private let timedFrom = Atomic<Int>(0)
    private let timedTo = Atomic<Int>(0)
    private let heads = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let latencies = Mutex<[[UInt64]]>([])
    private let problems = Mutex<[String]>([])
    private let refusals = Atomic<Int>(0)
    private let finished = DispatchGroup()

    /// Connects `count` clients to `127.0.0.1:port` and sends each its request; ``start()`` reads them.
    init(port: UInt16, count: Int, threads: Int, sendTimes: SendTimes) throws {
        self.sendTimes = sendTimes
        progress = (0..<count).map { _ in StreamProgress() }
        let request = Array("GET /v1/stream?asset=BTC HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8)
        var opened: [Int32] = []
        var pollers: [Int32] = []
        func closeAll() { (opened + pollers).forEach { close($0) } }
        for _ in 0..<max(1, min(threads, count)) {
            let poller = epoll_create1(Int32(EPOLL_CLOEXEC))
            guard poller >= 0 else {
                closeAll()
                throw BenchmarkError("stream: epoll_create1: \(String(cString: strerror(errno)))")
            }
            pollers.append(poller)
        }
        for index in 0..<count {
            let descriptor: Int32
            do {
                descriptor = try LoopbackHTTPConnection.connectedSocket(port: port)
            } catch {
                closeAll()
                throw BenchmarkError("stream: client \(index + 1) of \(count) cannot connect: \(error)")
            }
            opened.append(descriptor)
            let sent = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(u64: UInt64(index)))
            guard sent == request.count, fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) == 0,
                  epoll_ctl(pollers[index % pollers.count], EPOLL_CTL_ADD, descriptor, &event) == 0 else {
                closeAll()
                throw BenchmarkError("stream: client \(index + 1) of \(count): cannot send its request or watch its socket: \(String(cString: strerror(errno)))")
            }
        }
        descriptors = opened
        self.pollers = pollers
    }

    deinit { (descriptors + pollers).forEach { close($0) } }

    var count: Int { descriptors.count }

    /// Starts the threads.
    func start() {
        for thread in pollers.indices {
            finished.enter()
            Thread.detachNewThread { [self] in
                read(thread)
                finished.leave()
            }
        }
    }

    /// Ticker numbers in `range` are timed from now on.
    func time(_ range: Range<Int>) {
        timedTo.store(range.upperBound, ordering: .releasing)
        timedFrom.store(range.lowerBound, ordering: .releasing)
    }

    /// Clients whose `200` head arrived.
    var headCount: Int { heads.load(ordering: .acquiring) }

    /// The lowest ticker number every client still streaming has received (-1 while one has none;
    /// `Int.max` when none is streaming).
    var slowestLatest: Int {
        progress.filter { !$0.ended.load(ordering: .acquiring) }.map { $0.latest.load(ordering: .acquiring) }.min() ?? .max
    }

    /// Clients whose stream the server ended (cut off for staying behind).
    var cutOffCount: Int { progress.filter { $0.ended.load(ordering: .acquiring) }.count }

    /// What went wrong so far: a refused request, a closed stream, an `event: error`.
    var problemList: [String] { problems.withLock { $0 } }

    /// Waits (polling every millisecond) until `condition` holds, or `seconds` passed, or a request was refused.
    func wait(within seconds: Double, until condition: () -> Bool) -> Bool {
        Self.wait(for: [self], within: seconds, until: condition)
    }

    /// As ``wait(within:until:)``, for the clients of several servers: a refusal by any of them ends the wait.
    static func wait(for groups: [StreamClients], within seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = Monotonic.nanoseconds() + UInt64(seconds * 1e9)
        while Monotonic.nanoseconds() < deadline {
            if condition() { return true }
            if groups.contains(where: { $0.refusals.load(ordering: .acquiring) > 0 }) { return false }
            usleep(1000)
        }
        return condition()
    }

    /// Stops the threads; every latency sample, in ns, sorted.
    func stop() -> [UInt64] {
        stopping.store(true, ordering: .releasing)
        finished.wait()
        return latencies.withLock { Array($0.joined()) }.sorted()
    }

    private static let marker = Array(#""amount":""#.utf8)
    private static let statusOK = Array("HTTP/1.1 200 ".utf8)
    private static let headEnd = Array("\r\n\r\n".utf8)
    private static let eventEnd = Array("\n\n".utf8)
    private static let errorEvent = Array("event: error".utf8)

    /// One thread's loop over its epoll set.
    private func read(_ thread: Int) {
        let poller = pollers[thread]
        var ready = [epoll_event](repeating: epoll_event(), count: 256)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        // Each client's bytes after its last complete event, and whether its head has come.
        var pending = [[UInt8]](repeating: [], count: descriptors.count)
        var headSeen = [Bool](repeating: false, count: descriptors.count)
        var samples: [UInt64] = []
        samples.reserveCapacity(1 << 16)
        while !stopping.load(ordering: .acquiring) {
            let count = epoll_wait(poller, &ready, Int32(ready.count), 50)
            guard count > 0 else { continue }
            for entry in ready[..<Int(count)] {
                let index = Int(entry.data.u64)
                let received = buffer.withUnsafeMutableBytes { recv(descriptors[index], $0.baseAddress, $0.count, 0) }
                let now = Monotonic.nanoseconds()
                if received < 0, errno == EAGAIN || errno == EINTR { continue }
                guard received > 0 else {
                    if !stopping.load(ordering: .acquiring) {
                        problems.withLock { $0.append("client \(index + 1): the server closed its stream") }
                        progress[index].ended.store(true, ordering: .releasing)
                    }
                    epoll_ctl(poller, EPOLL_CTL_DEL, descriptors[index], nil)
                    continue
                }
                pending[index] += buffer[..<received]
                let consumed = pending[index].withUnsafeBytes { bytes in
                    parse(bytes, client: index, headSeen: &headSeen[index], at: now, samples: &samples)
                }
                pending[index].removeFirst(consumed)
            }
        }
        latencies.withLock { $0.append(samples) }
    }

    /// Reads the complete events in `bytes` (and the head first); returns how many bytes they took.
    private func parse(_ bytes: UnsafeRawBufferPointer, client: Int, headSeen: inout Bool, at now: UInt64, samples: inout [UInt64]) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var position = 0
        if !headSeen {
            guard let end = Self.find(Self.headEnd, in: bytes, from: 0) else { return 0 }
            guard bytes.starts(with: Self.statusOK) else {
                let head = String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\r\n").first ?? ""
                problems.withLock { $0.append("client \(client + 1): \(head)") }
                refusals.add(1, ordering: .releasing)
                return bytes.count
            }
            headSeen = true
            heads.add(1, ordering: .releasing)
            position = end + 4
        }
        let from = timedFrom.load(ordering: .acquiring)
        let to = timedTo.load(ordering: .acquiring)
        let state = progress[client]
        var latest = state.latest.load(ordering: .relaxed)
        var events = 0
        var timed = 0
        while let end = Self.find(Self.eventEnd, in: bytes, from: position) {
            let event = UnsafeRawBufferPointer(start: base + position, count: end - position)
            if let start = Self.find(Self.marker, in: event, from: 0) {
                let amount = UnsafeRawBufferPointer(rebasing: event[(start + Self.marker.count)...])
                let number = TickerFrames.number(inAmount: UnsafeRawBufferPointer(rebasing: amount.prefix { $0 != UInt8(ascii: "\"") }))
                events += 1
                if number > latest { latest = number }
                if number >= from, number < to {
                    samples.append(now &- sendTimes[number])
                    timed += 1
                }
            } else if event.starts(with: Self.errorEvent) {
                let text = String(decoding: event, as: UTF8.self)
                problems.withLock { $0.append("client \(client + 1): \(text)") }
            }
            position = end + 2
        }
        if events > 0 {
            state.events.add(events, ordering: .relaxed)
            state.timed.add(timed, ordering: .relaxed)
            state.latestAt.store(now, ordering: .relaxed)
            state.latest.store(latest, ordering: .releasing)
        }
        return position
    }

    /// Where `needle` starts in `bytes` at or after `from`: memchr for its first byte, memcmp for the rest
    /// (Swift's Glibc module has no memmem).
    private static func find(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        return needle.withUnsafeBytes { wanted in
            var position = from
            while position + wanted.count <= bytes.count {
                guard let hit = memchr(base + position, Int32(wanted[0]), bytes.count - position - wanted.count + 1) else { return nil }
                let offset = UnsafeRawPointer(hit) - base
                if memcmp(hit, wanted.baseAddress!, wanted.count) == 0 { return offset }
                position = offset + 1
            }
            return nil
        }
    }
}
