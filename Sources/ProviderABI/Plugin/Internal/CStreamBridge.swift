import CProviderABI
import Glibc

/// Builds the C `ph_stream` for a Swift ``StreamFeed``: the host calls these
/// functions from its connections' threads, and they call the ``StreamReader``.
package enum CStreamBridge {
    /// A `ph_stream` that lives for the rest of the process (the host never unloads a plugin).
    package static func makeStream(_ feed: StreamFeed) -> UnsafePointer<ph_stream> {
        let box = Unmanaged.passRetained(StreamBox(reader: feed.reader)).toOpaque()
        let stream = UnsafeMutablePointer<ph_stream>.allocate(capacity: 1)
        stream.initialize(to: ph_stream(
            struct_size: UInt32(MemoryLayout<ph_stream>.size),
            url: UnsafePointer(strdup(feed.url)),
            context: box,
            max_pairs_per_connection: UInt32(clamping: max(0, feed.maxPairsPerConnection ?? 0)),
            max_connects: UInt32(clamping: max(0, feed.connectLimit?.attempts ?? 0)),
            connect_window_ms: UInt32(clamping: milliseconds(feed.connectLimit?.window)),
            max_connection_ms: UInt64(clamping: milliseconds(feed.maximumConnectionLifetime)),
            ping_message: feed.ping.map { UnsafePointer(strdup($0.message)) },
            ping_interval_ms: UInt32(clamping: milliseconds(feed.ping?.interval)),
            connection_url: connectionURL,
            subscribe: subscribe,
            unsubscribe: unsubscribe,
            read: read,
            heartbeat_interval_ms: UInt32(clamping: milliseconds(feed.heartbeatInterval))))
        return UnsafePointer(stream)
    }

    private static func milliseconds(_ duration: Duration?) -> Int64 {
        guard let duration else { return 0 }
        let (seconds, attoseconds) = duration.components
        return max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    /// The pairs the host passed, as requests.
    static func pairs(_ pointers: UnsafePointer<UnsafePointer<ph_fetch_request>?>?, count: Int) -> [QuoteRequest] {
        guard let pointers, count > 0 else { return [] }
        return (0..<count).compactMap { index in
            guard let request = pointers[index], let asset = request.pointee.asset, let currency = request.pointee.currency else { return nil }
            return QuoteRequest(asset: String(cString: asset), currency: String(cString: currency))
        }
    }

    private static func reader(_ context: UnsafeMutableRawPointer?) -> (any StreamReader)? {
        context.map { Unmanaged<StreamBox>.fromOpaque($0).takeUnretainedValue().reader }
    }

    private static let connectionURL: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<UnsafePointer<ph_fetch_request>?>?,
                                                      Int, UnsafeMutablePointer<CChar>?, Int) -> Int32 = { context, base, pairs, count, buffer, size in
        guard let reader = reader(context), let base, let buffer, size > 0,
              let url = reader.connectionURL(base: String(cString: base), pairs: Self.pairs(pairs, count: count)) else { return 1 }
        let bytes = Array(url.utf8)
        guard bytes.count < size else { return 1 }
        bytes.withUnsafeBufferPointer { source in
            UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress!, byteCount: bytes.count)
        }
        buffer[bytes.count] = 0
        return 0
    }

    private static let subscribe: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UnsafePointer<ph_fetch_request>?>?, Int,
                                                  ph_stream_send_function?, UnsafeMutableRawPointer?) -> Void = { context, pairs, count, send, sendContext in
        guard let reader = reader(context), let send else { return }
        for message in reader.subscribeMessages(for: Self.pairs(pairs, count: count)) {
            message.withCString { send(sendContext, $0) }
        }
    }

    private static let unsubscribe: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UnsafePointer<ph_fetch_request>?>?, Int,
                                                    ph_stream_send_function?, UnsafeMutableRawPointer?) -> Void = { context, pairs, count, send, sendContext in
        guard let reader = reader(context), let send else { return }
        for message in reader.unsubscribeMessages(for: Self.pairs(pairs, count: count)) {
            message.withCString { send(sendContext, $0) }
        }
    }

    private static let read: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int, UnsafePointer<ph_stream_sink>?) -> Void = { context, text, length, sinkPointer in
        guard let reader = reader(context), let text, let sinkPointer else { return }
        let sink = CStruct.copyPrefix(of: sinkPointer, size: CStruct.declaredSize(of: sinkPointer), as: ph_stream_sink.self)
        let message = String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self)
        let pairs = Self.pairs(sink.pairs, count: sink.pair_count)
        for event in reader.read(message, pairs: pairs) {
            switch event {
            case .quote(let quote):
                guard let function = sink.quote else { continue }
                quote.asset.withCString { asset in
                    quote.currency.withCString { currency in
                        quote.amount.withCString { amount in
                            withOptionalCString(quote.bid) { bid in
                                withOptionalCString(quote.ask) { ask in
                                    var cQuote = ph_quote(struct_size: UInt32(MemoryLayout<ph_quote>.size), asset: asset, currency: currency,
                                                          amount: amount, timestamp_ms: quote.timestampMilliseconds ?? 0, bid: bid, ask: ask)
                                    function(sink.sink_context, &cQuote)
                                }
                            }
                        }
                    }
                }
            case .heartbeat:
                sink.heartbeat?(sink.sink_context)
            case .sequence(let number, let scope):
                guard let function = sink.sequence else { continue }
                scope.withCString { function(sink.sink_context, $0, number) }
            case .error(let text):
                guard let function = sink.error else { continue }
                text.withCString { function(sink.sink_context, $0) }
            case .reconnect(let reason):
                guard let function = sink.reconnect else { continue }
                reason.withCString { function(sink.sink_context, $0) }
            case .reply(let reply):
                guard let function = sink.send else { continue }
                reply.withCString { function(sink.sink_context, $0) }
            }
        }
    }
}

/// Keeps a Swift reader alive behind the C `context` pointer.
private final class StreamBox: Sendable {
    let reader: any StreamReader

    init(reader: any StreamReader) {
        self.reader = reader
    }
}
