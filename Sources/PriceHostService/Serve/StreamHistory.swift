import Glibc

/// One SSE topic's recent events, for clients that reconnect with `Last-Event-ID`:
/// those of the last ``retention``, at most ``capacity``.
struct StreamHistory: Sendable {
    /// How long an event can be asked for again.
    static let retention: Duration = .seconds(60)
    /// Events kept at most per topic: a minute of the shortest interval (0.1 s).
    static let capacity = 600

    private var entries: [(sequence: UInt64, event: String, at: ContinuousClock.Instant)] = []
    /// Where the oldest entry is, once the buffer is full.
    private var start = 0

    /// The newest event, with its number.
    var newest: (sequence: UInt64, event: String)? {
        guard !entries.isEmpty else { return nil }
        let entry = entries[(start + entries.count - 1) % entries.count]
        return (entry.sequence, entry.event)
    }

    /// Keeps `event`, numbered `sequence`, dropping the oldest past ``capacity``.
    mutating func append(_ event: String, sequence: UInt64, at time: ContinuousClock.Instant) {
        if entries.count < Self.capacity {
            entries.append((sequence, event, time))
        } else {
            entries[start] = (sequence, event, time)
            start = (start + 1) % entries.count
        }
    }

    /// The events numbered after `sequence`, oldest first, with their numbers.
    func entries(after sequence: UInt64) -> [(sequence: UInt64, event: String)] {
        ordered.filter { $0.sequence > sequence }.map { ($0.sequence, $0.event) }
    }

    /// The event numbered `sequence`, if it is still kept.
    func event(numbered sequence: UInt64) -> String? {
        entries.first { $0.sequence == sequence }?.event
    }

    /// Drops what is older than ``retention`` at `now`.
    mutating func expire(before now: ContinuousClock.Instant) {
        let kept = ordered.filter { now - $0.at < Self.retention }
        guard kept.count != entries.count else { return }
        entries = kept
        start = 0
    }

    /// True when nothing in it could still be asked for at `now`.
    func isExpired(at now: ContinuousClock.Instant) -> Bool {
        ordered.last.map { now - $0.at >= Self.retention } ?? true
    }

    /// Whether `event`, past its first line (the `id:`), is `body`: compared as bytes, since the
    /// hub asks it of every pushed event, and comparing the two as Substrings cost more than making the event.
    static func body(of event: String, is body: String) -> Bool {
        var event = event, body = body
        return event.withUTF8 { event in
            body.withUTF8 { body in
                guard let newline = event.firstIndex(of: UInt8(ascii: "\n")), event.count - newline - 1 == body.count else { return false }
                guard let start = event.baseAddress, let other = body.baseAddress else { return body.isEmpty }
                return memcmp(start + newline + 1, other, body.count) == 0
            }
        }
    }

    private var ordered: [(sequence: UInt64, event: String, at: ContinuousClock.Instant)] {
        Array(entries[start...] + entries[..<start])
    }
}

/// An SSE event id, `EPOCH-SEQUENCE`: the hub's start in Unix milliseconds, and the
/// event's number in delivery order within that hub.
package struct EventID: Equatable, Sendable {
    var epoch: UInt64
    var sequence: UInt64

    package init(epoch: UInt64, sequence: UInt64) {
        self.epoch = epoch
        self.sequence = sequence
    }

    /// Reads a `Last-Event-ID`; `nil` for anything this server did not write.
    init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 20 && $0.allSatisfy(\.isASCII) }),
              let epoch = UInt64(parts[0]), let sequence = UInt64(parts[1]) else { return nil }
        self.init(epoch: epoch, sequence: sequence)
    }

    var text: String { "\(epoch)-\(sequence)" }
}
