// The floor for a networked fetch by any Swift host: a Swift program that imports
// nothing but Glibc, dlopen()s libcurl as pricehost does, and makes one GET of
// its argument, printing the body. What it costs over curl(1) is the Swift
// runtime's own start; pricehost's networked fetch is measured against it.
//
//   curl-floor URL
import Glibc

typealias EasyInit = @convention(c) () -> OpaquePointer?
// curl_easy_setopt is variadic in C. Swift cannot call a variadic function
// pointer, so it is called through non-variadic types with the argument types
// each option takes; on x86_64 and arm64 Linux the two calling conventions
// agree for integer and pointer arguments. (pricehost itself goes through C
// shims, Sources/CCurl; this program must import nothing of the project.)
typealias SetPointer = @convention(c) (OpaquePointer?, Int32, UnsafeRawPointer?) -> Int32
typealias WriteCallback = @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int
typealias SetCallback = @convention(c) (OpaquePointer?, Int32, WriteCallback?) -> Int32
typealias Perform = @convention(c) (OpaquePointer?) -> Int32

let urlOption: Int32 = 10002
let writeFunctionOption: Int32 = 20011

guard CommandLine.arguments.count == 2 else {
    _ = write(2, "usage: curl-floor URL\n", 22)
    exit(2)
}
guard let library = dlopen("libcurl.so.4", RTLD_LAZY | RTLD_LOCAL),
      let initAddress = dlsym(library, "curl_easy_init"), let setoptAddress = dlsym(library, "curl_easy_setopt"),
      let performAddress = dlsym(library, "curl_easy_perform") else {
    _ = write(2, "curl-floor: cannot load libcurl.so.4\n", 37)
    exit(3)
}
let easy = unsafeBitCast(initAddress, to: EasyInit.self)()
_ = CommandLine.arguments[1].withCString { unsafeBitCast(setoptAddress, to: SetPointer.self)(easy, urlOption, $0) }
_ = unsafeBitCast(setoptAddress, to: SetCallback.self)(easy, writeFunctionOption) { data, size, count, _ in
    write(1, data, size * count)
}
let result = unsafeBitCast(performAddress, to: Perform.self)(easy)
exit(result == 0 ? 0 : 1)
