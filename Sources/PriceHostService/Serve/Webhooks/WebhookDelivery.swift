import ConcurrencyHelpers
import FoundationEssentials
import PriceHostCore
import ProviderABI

/// One webhook at work: a client of the stream hub with the webhook's ``DeliveryRule``, whose
/// deliveries are POSTed to its URL, one at a time, in order.
///
/// Two tasks of its own, so that a slow or dead endpoint delays nobody else: one takes what
/// the hub hands the webhook's inbox (the hub's thread only signals it) into the webhook's
/// bounded ``WebhookQueue``; the other posts the queue's oldest body, retrying a failure
/// (no answer, or a status other than 2xx) after 1 s, 2 s, 4 s … (at most 60 s apart) until
/// ``retryLimit`` after its first attempt, then drops it (`failed`). Waits are on the injected clock.
package final class WebhookDelivery: Sendable {
    /// How long a post is retried, from its first attempt.
    package static let retryLimit: Duration = .seconds(600)
    /// The wait after the first failure; each next one doubles, up to ``maximumBackoff``.
    static let firstBackoff: Duration = .seconds(1)
    static let maximumBackoff: Duration = .seconds(60)
    /// One attempt's limit.
    static let postTimeout: Duration = .seconds(10)

    package let hook: WebhookSettings.Hook
    private let topic: StreamHub.TopicKey
    private let hub: StreamHub
    private let poster: any WebhookPoster
    private let clock: any PriceClock
    private let metrics: WebhookMetrics
    private let queue = WebhookQueue()
    private let filter: DeliveryFilter
    private let subscriber: StreamHub.Subscriber
    private let inbox: AsyncStream<Void>
    private let inboxSignal: AsyncStream<Void>.Continuation
    private let tasks = Lock<[Task<Void, Never>]>([])
    /// Where the two tasks run: by default Swift's global executor; tests give one of their own.
    private let executor: (any TaskExecutor)?
    private let warn: @Sendable (String) -> Void
    /// When a failed post was last said, so that a dead endpoint is one line a minute, not one an attempt.
    private let lastWarned = Lock<ContinuousClock.Instant?>(nil)

    /// - Parameters:
    ///   - defaultCurrency: the currency when the hook names none.
    ///   - executor: where its tasks run; tests whose neighbours may hold the cooperative pool's threads give one of their own.
    ///   - warn: says a failed post, at most once a minute.
    package init(_ hook: WebhookSettings.Hook, defaultCurrency: String, hub: StreamHub, poster: any WebhookPoster,
                 clock: any PriceClock, metrics: WebhookMetrics, executor: (any TaskExecutor)? = nil,
                 warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.hook = hook
        self.executor = executor
        self.warn = warn
        topic = StreamHub.TopicKey(asset: hook.asset, currency: hook.currency ?? defaultCurrency, providers: nil,
                                   intervalMilliseconds: hook.intervalMilliseconds)
        self.hub = hub
        self.poster = poster
        self.clock = clock
        self.metrics = metrics
        let (inbox, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.inbox = inbox
        inboxSignal = signal
        // The hub calls `ready` under its lock: it only signals the collecting task.
        filter = DeliveryFilter(rule: hook.rule, clock: clock, wake: { signal.yield() })
        subscriber = StreamHub.Subscriber(ready: { signal.yield() }, filter: filter)
    }

    /// Subscribes to the hub and starts the two tasks; false when the hub has stopped.
    package func start() -> Bool {
        filter.start(topic)
        guard hub.subscribe(subscriber, to: topic) else {
            filter.stop()
            return false
        }
        let collecting = Task(executorPreference: executor) { [self] in await collect() }
        let posting = Task(executorPreference: executor) { [self] in await postQueued() }
        tasks.withLock { $0 = [collecting, posting] }
        return true
    }

    /// Leaves the hub and ends both tasks (a post in flight is cancelled); what is queued is not posted.
    package func stop() {
        hub.unsubscribe(subscriber, from: topic)
        filter.stop()
        inboxSignal.finish()
        queue.finish()
        for task in tasks.withLock({ $0 }) { task.cancel() }
    }

    /// Waits for both tasks to end (after ``stop()``).
    package func finished() async {
        for task in tasks.withLock({ $0 }) { await task.value }
    }

    private func collect() async {
        for await _ in inbox {
            let bodies = filter.select(subscriber.takeTagged()).compactMap(Self.body(of:))
            let dropped = queue.push(bodies)
            for _ in 0..<dropped { metrics.count(.dropped) }
        }
    }

    private func postQueued() async {
        var added = queue.added.makeAsyncIterator()
        while !Task.isCancelled {
            guard let body = queue.pop() else {
                guard await added.next() != nil else { return }
                continue
            }
            await post(body)
        }
    }

    /// Posts `body` until it is answered 2xx, or ``retryLimit`` has passed since the first attempt.
    /// Each attempt's body has `ageMs` as of that attempt, and is signed as sent.
    private func post(_ queued: [UInt8]) async {
        let first = clock.now
        var backoff = Self.firstBackoff
        while !Task.isCancelled {
            let body = Self.aged(queued, at: clock.wallNow)
            var headers = [HTTPHeader("Content-Type", "application/json")]
            if let secret = hook.secret {
                headers.append(HTTPHeader("X-Pricehost-Signature", "sha256=" + HMACSHA256.hex(of: body, key: Array(secret.utf8))))
            }
            let started = clock.now
            let outcome: String
            do {
                let status = try await poster.post(url: hook.url, headers: headers, body: body, timeout: Self.postTimeout)
                metrics.attempted(in: clock.now - started)
                if (200..<300).contains(status) {
                    metrics.count(.delivered)
                    return
                }
                outcome = "POST \(hook.url): answered \(status)"
            } catch {
                metrics.attempted(in: clock.now - started)
                outcome = "\(error)"
            }
            warnOnce(outcome)
            let elapsed = clock.now - first
            guard elapsed < Self.retryLimit, !Task.isCancelled else {
                if elapsed >= Self.retryLimit { metrics.count(.failed) }
                return
            }
            metrics.count(.retried)
            do { try await clock.sleep(for: min(backoff, Self.retryLimit - elapsed)) } catch { return }
            backoff = min(backoff * 2, Self.maximumBackoff)
        }
    }

    /// One line for a failed post, unless one was said in the last minute.
    private func warnOnce(_ outcome: String) {
        let now = clock.now
        let due = lastWarned.withLock { last in
            guard last.map({ now - $0 >= .seconds(60) }) ?? true else { return false }
            last = now
            return true
        }
        if due { warn("webhook: \(outcome); retried with backoff for up to 10 minutes (said at most once a minute)") }
    }

    /// `body` with its `ageMs` (the last member, as every quote's JSON has it) as of `now`: a post retried, or a
    /// heartbeat reposting an unchanged price, says how old the price is when it is sent, not when it was received.
    static func aged(_ body: [UInt8], at now: Date) -> [UInt8] {
        let text = String(decoding: body, as: UTF8.self)
        guard let fields = DeliveryFilter.quoteFields(of: text), let member = text.ranges(of: QuoteFormatter.ageMember).last else { return body }
        let age = Quote.ageMilliseconds(of: fields.timestamp, at: now)
        return Array((text[..<member.lowerBound] + QuoteFormatter.ageMember + String(age) + "}").utf8)
    }

    /// A quote event's JSON (the `data:` line's), as the POST's body; `nil` for `event: error` and the like.
    static func body(of event: String) -> [UInt8]? {
        guard DeliveryFilter.quoteFields(of: event) != nil, let data = event.firstRange(of: "data: ") else { return nil }
        let rest = event[data.upperBound...]
        return Array((rest.firstIndex(of: "\n").map { rest[..<$0] } ?? rest).utf8)
    }
}
