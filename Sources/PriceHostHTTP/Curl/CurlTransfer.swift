import CCurl
import ProviderABI

/// One GET on the event loop's thread: its easy handle, what libcurl has
/// delivered so far, and the continuation to resume when it ends.
///
/// Confined to the loop thread: libcurl calls the callbacks from inside
/// `curl_multi_perform`, which only that thread calls.
final class CurlTransfer {
    /// Why a callback stopped the transfer.
    enum Abort {
        /// The body would pass the cap; `announced` is the `Content-Length` that said so before any body came.
        case bodyTooLarge(announced: Int?)
        /// The headers went on past ``CurlTransfer/maxHeaderBytes``.
        case headersTooLarge
    }

    /// The most header bytes accepted for one response (all its lines, status line included).
    static let maxHeaderBytes = 64 * 1024

    let job: CurlJob
    let easy: UnsafeMutableRawPointer
    package let started = ContinuousClock.now
    /// libcurl's own message for the failure, read only to tell causes apart; the user reads ours.
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CCURL_ERROR_SIZE))
    var headerList: UnsafeMutablePointer<ccurl_slist>?

    private(set) var headers: [HTTPHeader] = []
    private(set) var body: [UInt8] = []
    private(set) var announcedLength: Int?
    private(set) var abort: Abort?
    private var headerBytes = 0

    init(job: CurlJob, easy: UnsafeMutableRawPointer) {
        self.job = job
        self.easy = easy
        errorBuffer.initialize(repeating: 0, count: Int(CCURL_ERROR_SIZE))
    }

    deinit { errorBuffer.deallocate() }

    /// libcurl's message, when it left one.
    var curlMessage: String { String(cString: errorBuffer) }

    /// Takes one header line (status line and the blank line included); returns
    /// false to stop the transfer.
    func receiveHeaderLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        headerBytes += bytes.count
        guard headerBytes <= Self.maxHeaderBytes else {
            abort = .headersTooLarge
            return false
        }
        if bytes.starts(with: Array("HTTP/".utf8)) {
            // A new response (after a 100 Continue, say): its headers replace the last one's.
            headers = []
            announcedLength = nil
            return true
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return true }
        let name = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        let value = String(decoding: Self.trimmed(bytes[(colon + 1)...]), as: UTF8.self)
        headers.append(HTTPHeader(name, value))
        if name == "content-length", let length = Int(value) {
            announcedLength = length
            // Refused before any of the body is read.
            if length > job.options.maxResponseBytes {
                abort = .bodyTooLarge(announced: length)
                return false
            }
        }
        return true
    }

    /// `bytes` without the spaces, tabs and line ends around them.
    private static func trimmed(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Slice<UnsafeBufferPointer<UInt8>> {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return bytes[bytes.startIndex..<bytes.startIndex]
        }
        return bytes[first...last]
    }

    /// Takes a piece of the (decoded) body; returns false to stop the transfer
    /// the moment the body would pass the cap.
    func receiveBody(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard body.count + bytes.count <= job.options.maxResponseBytes else {
            abort = .bodyTooLarge(announced: nil)
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }
}

/// libcurl's header callback: one line at a time.
let curlHeaderCallback: ccurl_write_callback = { data, size, count, context in
    deliver(data, size * count, to: context) { $0.receiveHeaderLine($1) }
}

/// libcurl's write callback: the body, decoded when it came compressed.
let curlWriteCallback: ccurl_write_callback = { data, size, count, context in
    deliver(data, size * count, to: context) { $0.receiveBody($1) }
}

/// Hands `length` bytes at `data` to the transfer behind `context`; libcurl
/// reads any return other than `length` as "stop the transfer".
private func deliver(_ data: UnsafeMutablePointer<CChar>?, _ length: Int, to context: UnsafeMutableRawPointer?,
                     _ receive: (CurlTransfer, UnsafeBufferPointer<UInt8>) -> Bool) -> Int {
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(data)?.assumingMemoryBound(to: UInt8.self), count: length)
    return receive(transfer, bytes) ? length : 0
}
