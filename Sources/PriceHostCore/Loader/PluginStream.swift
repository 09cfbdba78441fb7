import CProviderABI
import Glibc
import ProviderABI

/// A plugin's feed description (ABI 1.3, `ph_stream`), copied from the plugin and
/// callable from Swift. The functions run on the calling thread and return what
/// the plugin reported; the plugin's pointers live for the process.
///
/// `@unchecked Sendable` because the ABI makes it so: the plugin's functions may be
/// called from any thread, concurrently for different connections (pricehost_plugin.h).
package struct PluginStream: @unchecked Sendable {
    /// The provider.
    package let provider: String
    /// The feed's URL as the plugin names it.
    package let url: String
    /// The most pairs per connection; `nil`: no limit.
    package let maxPairsPerConnection: Int?
    /// The venue's limit on connection attempts: so many per window; `nil`: none beyond the backoff.
    package let connectLimit: (attempts: Int, window: Duration)?
    /// The longest the venue keeps a connection; `nil`: no limit.
    package let maximumConnectionLifetime: Duration?
    /// An application-level ping: its text and interval.
    package let ping: (message: String, interval: Duration)?
    /// How often the venue speaks on a quiet connection; `nil`: unknown.
    package let heartbeatInterval: Duration?
    private let stream: ph_stream

    /// The smallest `ph_stream` a plugin may declare: the 1.3 layout.
    static let minimumSize = MemoryLayout<ph_stream>.size

    /// Reads the plugin's `ph_stream`, checking what the host relies on.
    /// - Returns: the stream, or why it is unusable.
    package static func read(_ pointer: UnsafePointer<ph_stream>, provider: String) -> Result<PluginStream, DescriptorReader.Problem> {
        let size = CStruct.declaredSize(of: pointer)
        guard (minimumSize...DescriptorReader.maximumStructSize).contains(size) else {
            return .failure(DescriptorReader.Problem(provider: provider, reason: "its stream has struct_size \(size); a 1.3 ph_stream has \(minimumSize) to \(DescriptorReader.maximumStructSize)"))
        }
        let stream = CStruct.copyPrefix(of: pointer, size: size, as: ph_stream.self)
        guard let urlPointer = stream.url else { return .failure(DescriptorReader.Problem(provider: provider, reason: "its stream has no url")) }
        let url = String(cString: urlPointer)
        let lowered = url.lowercased()
        guard lowered.hasPrefix("ws://") || lowered.hasPrefix("wss://") else {
            return .failure(DescriptorReader.Problem(provider: provider, reason: "its stream's url \(JSONValue.quoted(url)) is not ws:// or wss://"))
        }
        guard stream.subscribe != nil, stream.read != nil else {
            return .failure(DescriptorReader.Problem(provider: provider, reason: "its stream has no subscribe or no read function"))
        }
        let ping = stream.ping_message.flatMap { message in
            stream.ping_interval_ms > 0 ? (String(cString: message), Duration.milliseconds(Int64(stream.ping_interval_ms))) : nil
        }
        return .success(PluginStream(
            provider: provider, url: url,
            maxPairsPerConnection: stream.max_pairs_per_connection > 0 ? Int(stream.max_pairs_per_connection) : nil,
            connectLimit: stream.max_connects > 0 && stream.connect_window_ms > 0
                ? (Int(stream.max_connects), .milliseconds(Int64(stream.connect_window_ms))) : nil,
            maximumConnectionLifetime: stream.max_connection_ms > 0 ? .milliseconds(Int64(clamping: stream.max_connection_ms)) : nil,
            ping: ping, heartbeatInterval: stream.heartbeat_interval_ms > 0 ? .milliseconds(Int64(stream.heartbeat_interval_ms)) : nil,
            stream: stream))
    }

    private init(provider: String, url: String, maxPairsPerConnection: Int?, connectLimit: (attempts: Int, window: Duration)?,
                 maximumConnectionLifetime: Duration?, ping: (message: String, interval: Duration)?, heartbeatInterval: Duration?,
                 stream: ph_stream) {
        self.heartbeatInterval = heartbeatInterval
        self.provider = provider
        self.url = url
        self.maxPairsPerConnection = maxPairsPerConnection
        self.connectLimit = connectLimit
        self.maximumConnectionLifetime = maximumConnectionLifetime
        self.ping = ping
        self.stream = stream
    }

    /// The URL of a connection for `pairs`, from `base`; `base` when the plugin has no `connection_url`.
    package func connectionURL(base: String, pairs: StreamPairs) -> String? {
        guard let function = stream.connection_url else { return base }
        var buffer = [CChar](repeating: 0, count: 4096)
        let status = base.withCString { base in
            buffer.withUnsafeMutableBufferPointer { function(stream.context, base, pairs.pointers, pairs.count, $0.baseAddress, $0.count) }
        }
        guard status == 0, let end = buffer.firstIndex(of: 0) else { return nil }
        return String(decoding: buffer[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The messages that subscribe a connection to `pairs`.
    package func subscribeMessages(for pairs: StreamPairs) -> [String] {
        guard let function = stream.subscribe else { return [] }
        return collectSent { send, context in function(stream.context, pairs.pointers, pairs.count, send, context) }
    }

    /// The messages that unsubscribe `pairs` on an open connection; none when the plugin has no `unsubscribe`.
    package func unsubscribeMessages(for pairs: StreamPairs) -> [String] {
        guard let function = stream.unsubscribe else { return [] }
        return collectSent { send, context in function(stream.context, pairs.pointers, pairs.count, send, context) }
    }

    /// What one text message meant, as the plugin reported it, in order.
    package func read(_ message: String, pairs: StreamPairs) -> [PluginStreamEvent] {
        guard let function = stream.read else { return [] }
        let collector = EventCollector()
        withExtendedLifetime(collector) {
            var sink = ph_stream_sink(
                struct_size: UInt32(MemoryLayout<ph_stream_sink>.size),
                sink_context: Unmanaged.passUnretained(collector).toOpaque(),
                pairs: pairs.pointers, pair_count: pairs.count,
                quote: sinkQuote, heartbeat: sinkHeartbeat, sequence: sinkSequence,
                error: sinkError, reconnect: sinkReconnect, send: sinkSend)
            var text = message
            text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { characters in
                    // withUTF8 gives no NUL; the ABI promises one, so copy into a terminated buffer.
                    let terminated = UnsafeMutablePointer<CChar>.allocate(capacity: characters.count + 1)
                    defer { terminated.deallocate() }
                    if let base = characters.baseAddress { terminated.update(from: base, count: characters.count) }
                    terminated[characters.count] = 0
                    function(stream.context, terminated, characters.count, &sink)
                }
            }
        }
        return collector.events
    }

    private func collectSent(_ body: (ph_stream_send_function, UnsafeMutableRawPointer) -> Void) -> [String] {
        let collector = EventCollector()
        withExtendedLifetime(collector) {
            body(sendCollect, Unmanaged.passUnretained(collector).toOpaque())
        }
        return collector.sent
    }
}

/// What a plugin's `read` reported for one message.
package enum PluginStreamEvent: Sendable, Equatable {
    /// A quote, as the plugin gave it: not yet checked. `bid` and `ask` (ABI 1.4) are `nil` when unknown.
    case quote(asset: String, currency: String, amount: String, timestampMilliseconds: Int64, bid: String? = nil, ask: String? = nil)
    /// A heartbeat.
    case heartbeat
    /// A sequence number within a scope.
    case sequence(Int64, scope: String)
    /// The venue reported an error.
    case error(String)
    /// The venue asked for a reconnect.
    case reconnect(String)
    /// A reply to send.
    case reply(String)
}

/// A connection's pairs as the C array the plugin's functions take; freed with the value.
package final class StreamPairs: @unchecked Sendable {
    /// The pairs.
    package let requests: [QuoteRequest]
    let pointers: UnsafePointer<UnsafePointer<ph_fetch_request>?>?
    private let storage: UnsafeMutablePointer<UnsafePointer<ph_fetch_request>?>
    private let structs: UnsafeMutablePointer<ph_fetch_request>

    /// `requests` as C structs, immutable from here on (so any thread may read them).
    package init(_ requests: [QuoteRequest]) {
        self.requests = requests
        structs = .allocate(capacity: max(1, requests.count))
        storage = .allocate(capacity: max(1, requests.count))
        for (index, request) in requests.enumerated() {
            structs.advanced(by: index).initialize(to: ph_fetch_request(
                struct_size: UInt32(MemoryLayout<ph_fetch_request>.size),
                asset: UnsafePointer(strdup(request.asset)), currency: UnsafePointer(strdup(request.currency))))
            storage[index] = UnsafePointer(structs.advanced(by: index))
        }
        pointers = UnsafePointer(storage)
    }

    var count: Int { requests.count }

    deinit {
        for index in 0..<requests.count {
            free(UnsafeMutableRawPointer(mutating: structs[index].asset))
            free(UnsafeMutableRawPointer(mutating: structs[index].currency))
        }
        structs.deinitialize(count: requests.count)
        structs.deallocate()
        storage.deallocate()
    }
}

/// Gathers what the plugin reports during one synchronous call.
private final class EventCollector {
    var events: [PluginStreamEvent] = []
    var sent: [String] = []

    static func from(_ context: UnsafeMutableRawPointer?) -> EventCollector? {
        context.map { Unmanaged<EventCollector>.fromOpaque($0).takeUnretainedValue() }
    }
}

private func text(_ pointer: UnsafePointer<CChar>?) -> String {
    pointer.map { String(cString: $0) } ?? ""
}

private let sendCollect: ph_stream_send_function = { context, message in
    guard let message else { return }
    EventCollector.from(context)?.sent.append(String(cString: message))
}

private let sinkQuote: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<ph_quote>?) -> Void = { context, pointer in
    guard let collector = EventCollector.from(context), let pointer else { return }
    let size = CStruct.declaredSize(of: pointer)
    let quote = CStruct.copyPrefix(of: pointer, size: size, as: ph_quote.self)
    let (bid, ask) = QuoteSides.texts(of: quote, size: size)
    collector.events.append(.quote(asset: text(quote.asset), currency: text(quote.currency), amount: text(quote.amount),
                                   timestampMilliseconds: quote.timestamp_ms, bid: bid, ask: ask))
}

private let sinkHeartbeat: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
    EventCollector.from(context)?.events.append(.heartbeat)
}

private let sinkSequence: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int64) -> Void = { context, scope, number in
    EventCollector.from(context)?.events.append(.sequence(number, scope: text(scope)))
}

private let sinkError: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void = { context, message in
    EventCollector.from(context)?.events.append(.error(text(message)))
}

private let sinkReconnect: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void = { context, reason in
    EventCollector.from(context)?.events.append(.reconnect(text(reason)))
}

private let sinkSend: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void = { context, message in
    guard let message else { return }
    EventCollector.from(context)?.events.append(.reply(String(cString: message)))
}
