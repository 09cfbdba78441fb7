import CProviderABI
import Glibc
import ConcurrencyHelpers
import ProviderABI

/// The real transport: URLSession, in `libURLSessionTransport.so`, loaded on
/// the first request.
///
/// Linking FoundationNetworking (and libcurl, GnuTLS and the rest behind it)
/// costs every process about 8 ms before `main`, most of a cold start
/// (BENCHMARKS.md). Most runs (the file provider, `providers`, `--help`) make
/// no request, so the host does not link it: the library is found beside the
/// executable (a build tree) or in `../lib/pricehost/` (an install), checked
/// like a plugin file, and `dlopen`ed once, when a provider first asks for HTTP.
/// If it cannot be loaded, each request fails with the reason; nothing else does.
final class TransportLibrary: Networking {
    /// The library's file name.
    static let fileName = "libURLSessionTransport.so"
    /// The `User-Agent` sent with every request that does not set its own.
    static let userAgent = PriceHostVersion.userAgent

    private struct Entry: @unchecked Sendable {
        // A C function pointer into a library that is never unloaded.
        let get: CHTTPBridge.TransportGetFunction
    }

    private enum Source {
        case candidates([String], allowInsecure: Bool, diagnostics: Diagnostics)
        case function(CHTTPBridge.TransportGetFunction)
    }

    private let source: Source
    private let entry = Lock<Result<Entry, ProviderError>?>(nil)

    /// The library found in one of `directories`, loaded on first use.
    /// - Parameter allowInsecure: load it even when others could replace it, with a warning.
    init(directories: [String], allowInsecure: Bool, diagnostics: Diagnostics) {
        source = .candidates(directories.map { $0 + "/" + Self.fileName }, allowInsecure: allowInsecure, diagnostics: diagnostics)
    }

    /// The transport through `function` (a test linking the library's module).
    package init(function: @escaping CHTTPBridge.TransportGetFunction) {
        source = .function(function)
    }

    /// Where the running executable finds the library: beside itself, then `../lib/pricehost`.
    static func directories(executableDirectory: String?) -> [String] {
        guard let executableDirectory else { return [] }
        return [executableDirectory, FilePath.directory(of: executableDirectory) + "/lib/pricehost"]
    }

    /// Loads the library, once; a failure is kept and repeated.
    func prepare() throws {
        _ = try load()
    }

    func get(_ request: HTTPRequest, maxResponseBytes: Int) async throws -> HTTPResponse {
        let get = try load().get
        var request = request
        request.timeout = request.timeout ?? ProviderPolicy().timeout
        if !request.headers.contains(where: { $0.name.lowercased() == "user-agent" }) {
            request.headers.append(HTTPHeader("User-Agent", Self.userAgent))
        }
        let limit = UInt64(max(0, maxResponseBytes))
        return try await CHTTPBridge.perform(request) { cRequest, completion, context in
            get(cRequest, limit, completion, context)
        }
    }

    /// The entry point, loading the library the first time; a failure is kept and repeated.
    private func load() throws(ProviderError) -> Entry {
        let result = entry.withLock { loaded -> Result<Entry, ProviderError> in
            if let loaded { return loaded }
            let result: Result<Entry, ProviderError>
            switch source {
            case .function(let function):
                result = .success(Entry(get: function))
            case .candidates(let paths, let allowInsecure, let diagnostics):
                result = Self.open(paths, allowInsecure: allowInsecure, diagnostics: diagnostics)
            }
            loaded = result
            return result
        }
        return try result.get()
    }

    private static func open(_ paths: [String], allowInsecure: Bool, diagnostics: Diagnostics) -> Result<Entry, ProviderError> {
        func fail(_ reason: String) -> Result<Entry, ProviderError> {
            // Not .unavailable: retrying cannot bring the file back.
            .failure(ProviderError(.failed, "the HTTP transport cannot be loaded: \(reason); reinstall pricehost"))
        }
        guard let path = paths.first(where: { access($0, F_OK) == 0 }) else {
            return fail("\(fileName) not found in \(paths.map(FilePath.directory(of:)).joined(separator: ", "))")
        }
        // Checked and loaded through one descriptor, as plugins are: no window between the check and the load.
        let file: CheckedLibraryFile
        switch CheckedLibraryFile.open(path) {
        case .success(let opened): file = opened
        case .failure(let refusal): return fail("\(path): \(refusal.reason)")
        }
        if let refusal = file.refusal(allowInsecure: allowInsecure, diagnostics: diagnostics) {
            file.close()
            return fail(refusal.reason)
        }
        // Never dlclose'd: URLSession's threads outlive any one request; the descriptor stays open with it.
        let handle: UnsafeMutableRawPointer
        switch file.load() {
        case .success(let loaded): handle = loaded
        case .failure(let refusal):
            file.close()
            return fail(refusal.reason)
        }
        guard let symbol = dlsym(handle, CHTTPBridge.transportGetSymbol) else {
            return fail("\(path) does not export \(CHTTPBridge.transportGetSymbol): it is from another pricehost version")
        }
        return .success(Entry(get: unsafeBitCast(symbol, to: CHTTPBridge.TransportGetFunction.self)))
    }
}
