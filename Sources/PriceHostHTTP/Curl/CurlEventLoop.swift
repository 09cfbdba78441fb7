import CCurl
import ConcurrencyHelpers
import Glibc
import ProviderABI

/// One libcurl multi handle and the thread that drives it, for the whole process.
///
/// Every GET runs on this one handle, so connections (and TLS sessions, and DNS
/// answers, through a share handle) are kept between requests: `watch` reuses
/// its connection from tick to tick, and concurrent fetches to one host draw on
/// one pool. libcurl keeps DNS answers for 60 s (`CURLOPT_DNS_CACHE_TIMEOUT`'s default).
///
/// Threads: any thread may ``submit(_:)`` or ``cancel(_:)``; they queue the
/// work and wake the loop with `curl_multi_wakeup`, the one multi call libcurl
/// allows from another thread. Every other libcurl call is made on the loop's
/// thread, which runs until the process exits.
final class CurlEventLoop: Sendable {
    private struct Handles: @unchecked Sendable {
        // @unchecked: used only on the loop thread, except `multi` for curl_multi_wakeup, which libcurl makes thread-safe.
        let multi: UnsafeMutableRawPointer
        let share: UnsafeMutableRawPointer
    }

    private struct Queue {
        var jobs: [CurlJob] = []
        var cancellations: [Int] = []
    }

    /// Connections kept open between requests, all hosts together.
    static let maxIdleConnections = 64

    private let curl: LibCurl
    private let handles: Handles
    // A pthread lock, not `Mutex`: callers contend with the loop's thread, and ThreadSanitizer
    // cannot see a contended `Mutex` hand over on Linux (see `Lock`).
    private let queue = Lock(Queue())

    /// Makes the multi and share handles and starts the loop's thread.
    /// - Throws: ``LibCurl/LoadError`` when libcurl cannot make them.
    init(curl: LibCurl) throws(LibCurl.LoadError) {
        guard let multi = curl.multiInit(), let share = curl.shareInit() else {
            throw LibCurl.LoadError(library: LibCurl.defaultName, reason: "curl_multi_init or curl_share_init failed")
        }
        _ = ccurl_multi_setopt_long(curl.multiSetopt, multi, Int32(CCURLMOPT_MAXCONNECTS), Self.maxIdleConnections)
        _ = ccurl_share_setopt_long(curl.shareSetopt, share, Int32(CCURLSHOPT_SHARE), Int(CCURL_LOCK_DATA_DNS))
        _ = ccurl_share_setopt_long(curl.shareSetopt, share, Int32(CCURLSHOPT_SHARE), Int(CCURL_LOCK_DATA_SSL_SESSION))
        self.curl = curl
        handles = Handles(multi: multi, share: share)
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            Unmanaged<CurlEventLoop>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, Unmanaged.passRetained(self).toOpaque())
        guard started == 0 else {
            throw LibCurl.LoadError(library: LibCurl.defaultName, reason: "cannot start its thread: \(String(cString: strerror(started)))")
        }
        pthread_detach(thread)
    }

    /// Queues `job`; its continuation is resumed exactly once, from the loop's thread.
    func submit(_ job: CurlJob) {
        queue.withLock { $0.jobs.append(job) }
        _ = curl.multiWakeup(handles.multi)
    }

    /// Ends the job `id` if it is still running; its continuation gets a `CancellationError`.
    package func cancel(_ id: Int) {
        queue.withLock { $0.cancellations.append(id) }
        _ = curl.multiWakeup(handles.multi)
    }

    /// The loop: start what was queued, let libcurl work, finish what ended, wait.
    private func run() {
        var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]
        var stillRunning: Int32 = 0
        var left: Int32 = 0
        while true {
            let (jobs, cancellations) = queue.withLock { queue in
                defer { queue = Queue() }
                return (queue.jobs, queue.cancellations)
            }
            for job in jobs {
                if job.cancelled.isSet {
                    job.continuation.resume(throwing: CancellationError())
                } else if let transfer = start(job) {
                    running[transfer.easy] = transfer
                }
            }
            for id in cancellations {
                guard let transfer = running.values.first(where: { $0.job.id == id }) else { continue }
                running[transfer.easy] = nil
                end(transfer)
                transfer.job.continuation.resume(throwing: CancellationError())
            }
            _ = curl.multiPerform(handles.multi, &stillRunning)
            while let message = curl.multiInfoRead(handles.multi, &left) {
                guard message.pointee.msg == CCURLMSG_DONE, let easy = message.pointee.easy_handle,
                      let transfer = running.removeValue(forKey: easy) else { continue }
                let code = Int(message.pointee.data.result)
                let outcome = CurlOutcome.of(transfer, code: code, curl: curl)
                end(transfer)
                transfer.job.continuation.resume(with: outcome)
            }
            // Woken early by curl_multi_wakeup, or by libcurl's own sockets and timers.
            _ = curl.multiPoll(handles.multi, nil, 0, 1000, nil)
        }
    }

    /// Makes the easy handle for `job` and adds it to the multi handle; on
    /// failure the job is answered here and `nil` returned.
    private func start(_ job: CurlJob) -> CurlTransfer? {
        guard let easy = curl.easyInit() else {
            job.continuation.resume(throwing: ProviderError(.unavailable, "\(job.method) \(job.url): libcurl could not make a handle (out of memory)"))
            return nil
        }
        let transfer = CurlTransfer(job: job, easy: easy)
        let context = UnsafeRawPointer(Unmanaged.passUnretained(transfer).toOpaque())
        job.url.withCString { _ = curl.set(easy, Int32(CCURLOPT_URL), $0) }
        if let body = job.body {
            // The size first: COPYPOSTFIELDS copies that many bytes (a body may hold a zero byte).
            curl.set(easy, Int32(CCURLOPT_POSTFIELDSIZE_LARGE), size: Int64(body.count))
            body.withUnsafeBytes { bytes in
                _ = curl.set(easy, Int32(CCURLOPT_COPYPOSTFIELDS), bytes.baseAddress ?? UnsafeRawPointer(transfer.errorBuffer))
            }
        } else {
            curl.set(easy, Int32(CCURLOPT_HTTPGET), 1)
        }
        curl.set(easy, Int32(CCURLOPT_PROTOCOLS), Int(CCURLPROTO_HTTP | CCURLPROTO_HTTPS))
        curl.set(easy, Int32(CCURLOPT_REDIR_PROTOCOLS), Int(CCURLPROTO_HTTP | CCURLPROTO_HTTPS))
        // Redirects are the transport's decision, one hop at a time (CurlTransport).
        curl.set(easy, Int32(CCURLOPT_FOLLOWLOCATION), 0)
        curl.set(easy, Int32(CCURLOPT_NOSIGNAL), 1)
        curl.set(easy, Int32(CCURLOPT_TCP_KEEPALIVE), 1)
        curl.set(easy, Int32(CCURLOPT_SHARE), UnsafeRawPointer(handles.share))
        curl.set(easy, Int32(CCURLOPT_ERRORBUFFER), UnsafeRawPointer(transfer.errorBuffer))
        curl.set(easy, Int32(CCURLOPT_PRIVATE), context)
        // Every encoding libcurl can decode; the cap counts decoded bytes, so a gzip bomb stops at the cap.
        "".withCString { _ = curl.set(easy, Int32(CCURLOPT_ACCEPT_ENCODING), $0) }
        let timeout = Self.milliseconds(job.timeout)
        curl.set(easy, Int32(CCURLOPT_TIMEOUT_MS), timeout)
        curl.set(easy, Int32(CCURLOPT_CONNECTTIMEOUT_MS), timeout)
        if let stall = CurlOutcome.stallSeconds(timeout: job.timeout) {
            // Less than one byte a second for `stall` seconds ends the transfer.
            curl.set(easy, Int32(CCURLOPT_LOW_SPEED_LIMIT), 1)
            curl.set(easy, Int32(CCURLOPT_LOW_SPEED_TIME), stall)
        }
        if let caFile = job.options.caFile {
            caFile.withCString { _ = curl.set(easy, Int32(CCURLOPT_CAINFO), $0) }
        }
        for header in job.headers {
            transfer.headerList = "\(header.name): \(header.value)".withCString { curl.slistAppend(transfer.headerList, $0) }
        }
        if let headerList = transfer.headerList { curl.set(easy, Int32(CCURLOPT_HTTPHEADER), UnsafeRawPointer(headerList)) }
        curl.set(easy, Int32(CCURLOPT_HEADERFUNCTION), callback: curlHeaderCallback)
        curl.set(easy, Int32(CCURLOPT_HEADERDATA), context)
        curl.set(easy, Int32(CCURLOPT_WRITEFUNCTION), callback: curlWriteCallback)
        curl.set(easy, Int32(CCURLOPT_WRITEDATA), context)
        let added = curl.multiAddHandle(handles.multi, easy)
        guard added == 0 else {
            end(transfer)
            job.continuation.resume(throwing: ProviderError(.unavailable, "\(job.method) \(job.url): libcurl refused the transfer (curl_multi_add_handle: \(added))"))
            return nil
        }
        return transfer
    }

    /// Takes the transfer off the multi handle and frees what libcurl held for it;
    /// its connection stays in the pool.
    private func end(_ transfer: CurlTransfer) {
        _ = curl.multiRemoveHandle(handles.multi, transfer.easy)
        curl.easyCleanup(transfer.easy)
        curl.slistFreeAll(transfer.headerList)
        transfer.headerList = nil
    }

    /// `duration` in whole milliseconds, at least 1.
    package static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(clamping: seconds) &* 1000 &+ Int(attoseconds / 1_000_000_000_000_000))
    }
}
