import CCurl
import Glibc

/// libcurl's functions, found with `dlsym` in the library `dlopen` loaded.
///
/// The host does not link libcurl: a command that makes no request never maps
/// it (nor OpenSSL and the rest behind it). It is on every machine with a Swift
/// toolchain, because FoundationNetworking is built on it. `PRICEHOST_LIBCURL`
/// names another file or soname to load instead (`libcurl-gnutls.so.4`, say).
package struct LibCurl: @unchecked Sendable {
    // @unchecked: C function pointers into a library that is never unloaded;
    // libcurl documents each of these as callable from any thread for distinct handles.

    /// The soname loaded unless `PRICEHOST_LIBCURL` says otherwise.
    package static let defaultName = "libcurl.so.4"

    typealias GlobalInit = @convention(c) (Int) -> Int32
    typealias EasyInit = @convention(c) () -> UnsafeMutableRawPointer?
    typealias EasyCleanup = @convention(c) (UnsafeMutableRawPointer?) -> Void
    typealias MultiInit = @convention(c) () -> UnsafeMutableRawPointer?
    typealias MultiHandle = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32
    typealias MultiPerform = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<Int32>?) -> Int32
    typealias MultiPoll = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt32, Int32, UnsafeMutablePointer<Int32>?) -> Int32
    typealias MultiWakeup = @convention(c) (UnsafeMutableRawPointer?) -> Int32
    typealias MultiInfoRead = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<Int32>?) -> UnsafeMutablePointer<ccurl_message>?
    typealias ShareInit = @convention(c) () -> UnsafeMutableRawPointer?
    typealias SlistAppend = @convention(c) (UnsafeMutablePointer<ccurl_slist>?, UnsafePointer<CChar>?) -> UnsafeMutablePointer<ccurl_slist>?
    typealias SlistFreeAll = @convention(c) (UnsafeMutablePointer<ccurl_slist>?) -> Void
    typealias EasyPerform = @convention(c) (UnsafeMutableRawPointer?) -> Int32
    typealias EasySend = @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?, Int, UnsafeMutablePointer<Int>?) -> Int32
    typealias EasyRecv = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int, UnsafeMutablePointer<Int>?) -> Int32

    let easyInit: EasyInit
    let easyCleanup: EasyCleanup
    /// Variadic in C: called through the `ccurl_easy_setopt_*` shims.
    let easySetopt: UnsafeMutableRawPointer
    /// Variadic in C: called through the `ccurl_easy_getinfo_*` shims.
    let easyGetinfo: UnsafeMutableRawPointer
    let multiInit: MultiInit
    let multiAddHandle: MultiHandle
    let multiRemoveHandle: MultiHandle
    let multiPerform: MultiPerform
    let multiPoll: MultiPoll
    let multiWakeup: MultiWakeup
    let multiInfoRead: MultiInfoRead
    /// Variadic in C: called through `ccurl_multi_setopt_long`.
    let multiSetopt: UnsafeMutableRawPointer
    let shareInit: ShareInit
    /// Variadic in C: called through `ccurl_share_setopt_long`.
    let shareSetopt: UnsafeMutableRawPointer
    let slistAppend: SlistAppend
    let slistFreeAll: SlistFreeAll
    /// Blocking; used only for CONNECT_ONLY connections (WebSocket), which it opens and returns.
    let easyPerform: EasyPerform
    /// Writes to a CONNECT_ONLY connection without blocking (`CCURLE_AGAIN` when the socket is full).
    let easySend: EasySend
    /// Reads from a CONNECT_ONLY connection without blocking (`CCURLE_AGAIN` when nothing is there, 0 bytes at the end).
    let easyRecv: EasyRecv

    /// Why libcurl could not be loaded: the line the user reads names the
    /// library and how to install it.
    package struct LoadError: Error, CustomStringConvertible, Sendable {
        /// The file or soname that was tried.
        var library: String
        /// `dlerror()`, or the missing symbol.
        package var reason: String

        package var description: String {
            "cannot load \(library), the library pricehost makes HTTP requests with: \(reason); install it (Debian and Ubuntu: apt-get install libcurl4; Fedora: dnf install libcurl)"
        }
    }

    /// Loads libcurl (once per process; `dlopen` counts references) and initialises it.
    /// - Parameter name: a soname or a path; `PRICEHOST_LIBCURL` or ``defaultName``.
    package static func load(_ name: String) throws(LoadError) -> LibCurl {
        // Cleared first, so that an old error is not read as this one's.
        _ = dlerror()
        guard let handle = dlopen(name, RTLD_LAZY | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "dlopen failed"
            throw LoadError(library: name, reason: reason)
        }
        func symbol<Function>(_ symbolName: String, as type: Function.Type) throws(LoadError) -> Function {
            guard let address = dlsym(handle, symbolName) else {
                throw LoadError(library: name, reason: "it has no \(symbolName) (libcurl 7.68 or later is needed)")
            }
            return unsafeBitCast(address, to: type)
        }
        func address(_ symbolName: String) throws(LoadError) -> UnsafeMutableRawPointer {
            try symbol(symbolName, as: UnsafeMutableRawPointer.self)
        }
        let globalInit = try symbol("curl_global_init", as: GlobalInit.self)
        let library = LibCurl(
            easyInit: try symbol("curl_easy_init", as: EasyInit.self),
            easyCleanup: try symbol("curl_easy_cleanup", as: EasyCleanup.self),
            easySetopt: try address("curl_easy_setopt"),
            easyGetinfo: try address("curl_easy_getinfo"),
            multiInit: try symbol("curl_multi_init", as: MultiInit.self),
            multiAddHandle: try symbol("curl_multi_add_handle", as: MultiHandle.self),
            multiRemoveHandle: try symbol("curl_multi_remove_handle", as: MultiHandle.self),
            multiPerform: try symbol("curl_multi_perform", as: MultiPerform.self),
            multiPoll: try symbol("curl_multi_poll", as: MultiPoll.self),
            multiWakeup: try symbol("curl_multi_wakeup", as: MultiWakeup.self),
            multiInfoRead: try symbol("curl_multi_info_read", as: MultiInfoRead.self),
            multiSetopt: try address("curl_multi_setopt"),
            shareInit: try symbol("curl_share_init", as: ShareInit.self),
            shareSetopt: try address("curl_share_setopt"),
            slistAppend: try symbol("curl_slist_append", as: SlistAppend.self),
            slistFreeAll: try symbol("curl_slist_free_all", as: SlistFreeAll.self),
            easyPerform: try symbol("curl_easy_perform", as: EasyPerform.self),
            easySend: try symbol("curl_easy_send", as: EasySend.self),
            easyRecv: try symbol("curl_easy_recv", as: EasyRecv.self))
        let status = globalInit(Int(CCURL_GLOBAL_ALL))
        guard status == CCURLE_OK else { throw LoadError(library: name, reason: "curl_global_init failed with code \(status)") }
        return library
    }

    // The typed faces of the variadic calls.

    @discardableResult
    package func set(_ easy: UnsafeMutableRawPointer, _ option: Int32, _ value: Int) -> Int32 {
        ccurl_easy_setopt_long(easySetopt, easy, option, value)
    }

    @discardableResult
    package func set(_ easy: UnsafeMutableRawPointer, _ option: Int32, size value: Int64) -> Int32 {
        ccurl_easy_setopt_off(easySetopt, easy, option, value)
    }

    @discardableResult
    package func set(_ easy: UnsafeMutableRawPointer, _ option: Int32, _ value: UnsafeRawPointer?) -> Int32 {
        ccurl_easy_setopt_pointer(easySetopt, easy, option, value)
    }

    @discardableResult
    package func set(_ easy: UnsafeMutableRawPointer, _ option: Int32, callback: ccurl_write_callback) -> Int32 {
        ccurl_easy_setopt_callback(easySetopt, easy, option, callback)
    }

    package func info(_ easy: UnsafeMutableRawPointer, long item: Int32) -> Int {
        var value = 0
        _ = ccurl_easy_getinfo_long(easyGetinfo, easy, item, &value)
        return value
    }

    package func info(_ easy: UnsafeMutableRawPointer, double item: Int32) -> Double {
        var value = 0.0
        _ = ccurl_easy_getinfo_double(easyGetinfo, easy, item, &value)
        return value
    }

    /// A socket item (`CCURLINFO_ACTIVESOCKET`): -1 when there is none.
    package func info(_ easy: UnsafeMutableRawPointer, socket item: Int32) -> Int32 {
        var value: Int32 = -1
        guard ccurl_easy_getinfo_socket(easyGetinfo, easy, item, &value) == CCURLE_OK else { return -1 }
        return value
    }

    package func info(_ easy: UnsafeMutableRawPointer, string item: Int32) -> String? {
        var value: UnsafePointer<CChar>?
        _ = ccurl_easy_getinfo_string(easyGetinfo, easy, item, &value)
        return value.map { String(cString: $0) }
    }
}
