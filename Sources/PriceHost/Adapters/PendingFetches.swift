import ConcurrencyHelpers
import CProviderABI
import Foundation
import ProviderABI
import Synchronization

/// Fetches waiting for their plugin's completion, keyed by a number that
/// crosses the boundary as the completion context.
///
/// A number rather than a pointer to Swift memory, so that a plugin calling
/// its completion twice, or after the host gave up waiting, finds nothing
/// and is reported instead of touching freed memory.
final class PendingFetches: Sendable {
    static let shared = PendingFetches()

    struct Waiter: Sendable {
        let continuation: CheckedContinuation<Quote, any Error>
        let provider: String
        let pluginPath: String
        let request: QuoteRequest
    }

    private struct State {
        var nextID: UInt = 1
        var waiting: [UInt: Waiter] = [:]
        /// The deadline of each waiting fetch, cancelled when it finishes.
        var deadlines: [UInt: FetchDeadline] = [:]
        /// Recently finished fetches, to name the plugin that completes one again.
        var finished: [UInt: String] = [:]
        var finishedOrder: [UInt] = []
    }

    private let state = Lock(State())
    private let late = Atomic<Int>(0)

    /// How many completions arrived for fetches already finished (second calls, or after the timeout).
    var lateCompletions: Int { late.load(ordering: .relaxed) }
    private static let rememberedFinished = 1024

    /// True while fetch `id` waits for its completion.
    func isPending(_ id: UInt) -> Bool {
        state.withLock { $0.waiting[id] != nil }
    }

    func countLateCompletion() {
        late.add(1, ordering: .relaxed)
    }

    func add(_ waiter: Waiter) -> UInt {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.waiting[id] = waiter
            return id
        }
    }

    /// Keeps `deadline` with fetch `id` until it finishes; cancels it at once if it already has.
    func attach(_ deadline: FetchDeadline, to id: UInt) {
        let finished = state.withLock { state -> Bool in
            guard state.waiting[id] != nil else { return true }
            state.deadlines[id] = deadline
            return false
        }
        if finished { deadline.cancel() }
    }

    /// Removes and returns the waiter, or `nil` with the plugin path when it was
    /// already finished; the fetch's deadline is cancelled.
    func take(_ id: UInt) -> (waiter: Waiter?, finishedBy: String?) {
        let (waiter, finishedBy, deadline) = state.withLock { state -> (Waiter?, String?, FetchDeadline?) in
            guard let waiter = state.waiting.removeValue(forKey: id) else {
                return (nil, state.finished[id], nil)
            }
            let deadline = state.deadlines.removeValue(forKey: id)
            state.finished[id] = "\(waiter.provider) (\(waiter.pluginPath)) for \(waiter.request.pair)"
            state.finishedOrder.append(id)
            if state.finishedOrder.count > Self.rememberedFinished {
                state.finished.removeValue(forKey: state.finishedOrder.removeFirst())
            }
            return (waiter, nil, deadline)
        }
        deadline?.cancel()
        return (waiter, finishedBy)
    }
}

/// How long a fetch may go without its completion: a timer that is cancelled
/// when the fetch finishes. (A `DispatchQueue.asyncAfter` per fetch stayed
/// queued, with what it captured, until its 60 s were up: a `watch` polling ten
/// times a second carried 600 of them.)
///
/// `@unchecked Sendable`: a Dispatch timer may be rescheduled and cancelled from any thread.
final class FetchDeadline: @unchecked Sendable {
    private let timer: DispatchSourceTimer
    private let delay: DispatchTimeInterval

    /// Starts the timer; `expired` runs once `delay` has passed, unless cancelled or restarted first.
    init(after delay: DispatchTimeInterval, expired: @escaping @Sendable (FetchDeadline) -> Void) {
        self.delay = delay
        timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + delay)
        // Strongly: the cycle through the handler is what keeps the deadline alive
        // while it runs, and Dispatch drops the handler, breaking it, on cancel.
        // Every path cancels: completion and expiry both go through `take`.
        timer.setEventHandler { expired(self) }
        timer.resume()
    }

    /// Waits the whole delay again, from now.
    func restart() {
        timer.schedule(deadline: .now() + delay)
    }

    /// Stops the timer for good; `expired` will not run.
    func cancel() {
        timer.cancel()
    }
}

/// The completion every plugin fetch gets. Converts the plugin's answer, or
/// reports a late or repeated call.
let hostFetchCompletion: ph_fetch_completion = { context, quote, error in
    let id = UInt(bitPattern: context)
    let (waiter, finishedBy) = PendingFetches.shared.take(id)
    guard let waiter else {
        PendingFetches.shared.countLateCompletion()
        let who = finishedBy.map { "plugin \($0)" } ?? "a plugin"
        Diagnostics.process.warning("\(who) called a fetch completion that was already finished (a second call, or after the timeout); ignored")
        return
    }
    waiter.continuation.resume(with: PluginAnswer.convert(quote: quote, error: error, for: waiter))
}

/// Turning what a plugin passed to its completion into a quote or a failure.
enum PluginAnswer {
    static let minimumQuoteSize = MemoryLayout<ph_quote>.size
    static let minimumErrorSize = MemoryLayout<ph_error>.size

    static func convert(quote: UnsafePointer<ph_quote>?, error: UnsafePointer<ph_error>?, for waiter: PendingFetches.Waiter) -> Result<Quote, any Error> {
        func failure(_ code: ProviderError.Code, _ message: String) -> Result<Quote, any Error> {
            .failure(QuoteFailure(provider: waiter.provider, request: waiter.request, code: code, message: message))
        }
        switch (quote, error) {
        case (nil, let error?):
            let size = CStruct.declaredSize(of: error)
            guard size >= minimumErrorSize else { return failure(.failed, "plugin broke the ABI: ph_error.struct_size is \(size)") }
            let copy = CStruct.copyPrefix(of: UnsafeRawPointer(error), size: size, as: ph_error.self)
            let code = copy.code.map { ProviderError.Code(rawValue: String(cString: $0)) } ?? .failed
            let message = copy.message.map { String(cString: $0) } ?? "failed without a message"
            return failure(code, message)
        case (let quote?, nil):
            let size = CStruct.declaredSize(of: quote)
            guard size >= minimumQuoteSize else { return failure(.invalidResponse, "plugin broke the ABI: ph_quote.struct_size is \(size)") }
            let copy = CStruct.copyPrefix(of: UnsafeRawPointer(quote), size: size, as: ph_quote.self)
            guard let assetPointer = copy.asset, let currencyPointer = copy.currency, let amountPointer = copy.amount else {
                return failure(.invalidResponse, "plugin returned a quote without asset, currency or amount")
            }
            let asset = String(cString: assetPointer)
            let currency = String(cString: currencyPointer)
            guard asset == waiter.request.asset, currency == waiter.request.currency else {
                return failure(.invalidResponse, "asked for \(waiter.request.pair) but the plugin answered \(asset)-\(currency)")
            }
            let amountText = String(cString: amountPointer)
            guard let amount = DecimalAmount.parse(amountText) else {
                return failure(.invalidResponse, "plugin returned an amount that is not a decimal number: \(JSONValue.quoted(amountText))")
            }
            let timestamp = copy.timestamp_ms == 0 ? Date() : Date(timeIntervalSince1970: TimeInterval(copy.timestamp_ms) / 1000)
            guard ISO8601Timestamp.isValid(timestamp) else {
                return failure(.invalidResponse, "plugin returned timestamp_ms \(copy.timestamp_ms), outside the years 0001 to 9999")
            }
            return .success(Quote(asset: asset, currency: currency, amount: amount, provider: waiter.provider, timestamp: timestamp))
        case (nil, nil):
            return failure(.failed, "plugin broke the ABI: completion called with neither a quote nor an error")
        case (_?, _?):
            return failure(.failed, "plugin broke the ABI: completion called with both a quote and an error")
        }
    }
}
