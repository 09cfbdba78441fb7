// The floor for a networked fetch by a host built as pricehost must be: curl-floor's
// one GET through dlopen'ed libcurl, from a program that also links what such a host
// cannot do without, and no more. FoundationEssentials, because money is a Decimal
// parsed from text; Swift concurrency, because fetches run at once. The GET runs in
// a task, as pricehost's do, and the body's "amount" is parsed as a Decimal.
// What pricehost costs over this program is its own work; what this program costs
// over curl-floor is the price of those two libraries (BENCHMARKS.md).
//
//   curl-host-floor URL
import Dispatch
import FoundationEssentials
import Glibc

// curl_easy_setopt is variadic in C; as in curl-floor, it is called through one
// non-variadic type per argument kind, which x86_64 and arm64 Linux pass alike.
typealias MakeHandle = @convention(c) () -> OpaquePointer?
typealias SetText = @convention(c) (OpaquePointer?, Int32, UnsafePointer<CChar>?) -> Int32
typealias Receive = @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int
typealias SetReceiver = @convention(c) (OpaquePointer?, Int32, Receive?) -> Int32
typealias SetContext = @convention(c) (OpaquePointer?, Int32, UnsafeMutableRawPointer?) -> Int32
typealias Run = @convention(c) (OpaquePointer?) -> Int32

/// The body as it arrives, kept by the write callback.
final class Body {
    var bytes: [UInt8] = []
}

func fail(_ message: String, status: Int32 = 3) -> Never {
    let line = "curl-host-floor: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(status)
}

/// One GET of `url`; the body, or nil when libcurl reports a failure.
func get(_ url: String) -> [UInt8]? {
    guard let curl = dlopen("libcurl.so.4", RTLD_LAZY | RTLD_LOCAL) else { fail("cannot load libcurl.so.4") }
    func function<T>(_ name: String, _ type: T.Type) -> T {
        guard let address = dlsym(curl, name) else { fail("libcurl.so.4 has no \(name)") }
        return unsafeBitCast(address, to: type)
    }
    let handle = function("curl_easy_init", MakeHandle.self)()
    let setopt = function("curl_easy_setopt", UnsafeMutableRawPointer.self)
    _ = unsafeBitCast(setopt, to: SetText.self)(handle, 10002, url)  // CURLOPT_URL
    _ = unsafeBitCast(setopt, to: SetReceiver.self)(handle, 20011) { data, size, count, context in  // CURLOPT_WRITEFUNCTION
        guard let data, let context else { return 0 }
        let body = Unmanaged<Body>.fromOpaque(context).takeUnretainedValue()
        body.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size * count))
        return size * count
    }
    let body = Body()
    _ = unsafeBitCast(setopt, to: SetContext.self)(handle, 10001, Unmanaged.passUnretained(body).toOpaque())  // CURLOPT_WRITEDATA
    return function("curl_easy_perform", Run.self)(handle) == 0 ? body.bytes : nil
}

guard CommandLine.arguments.count == 2 else { fail("usage: curl-host-floor URL", status: 2) }
let url = CommandLine.arguments[1]
Task {
    guard let body = get(url) else { exit(1) }
    let text = String(decoding: body, as: UTF8.self)
    // The amount, found as simply as can be: the quoted text two quotes after "amount".
    let quoted = text.split(separator: "\"", omittingEmptySubsequences: false)
    guard let key = quoted.firstIndex(of: "amount"), key + 2 < quoted.count,
          let amount = Decimal(string: String(quoted[key + 2])) else { fail("no amount in \(text)") }
    print(text, amount)
    exit(0)
}
dispatchMain()
