import Glibc

/// Where everything the benchmark runs or reads is: pricehost and its plugins in
/// the product package's release build, the benchmark's own tools beside this
/// binary, and the repository that holds `plugins.json` and `prices.json`.
struct Locations: Sendable {
    /// The product package's release build: `REPOSITORY/.build/release`.
    let binDirectory: String
    /// The directory of `/proc/self/exe`: the Benchmarks package's bin path.
    let toolDirectory: String
    let repository: String

    var pricehost: String { binDirectory + "/pricehost" }
    var helloFoundation: String { toolDirectory + "/hello-foundation" }
    var injectionBenchmark: String { toolDirectory + "/injection-benchmark" }
    var curlFloor: String { toolDirectory + "/curl-floor" }
    var curlHostFloor: String { toolDirectory + "/curl-host-floor" }
    var coinbasePlugin: String { binDirectory + "/libCoinbaseProvider.so" }
    var filePlugin: String { binDirectory + "/libFileProvider.so" }
    var pluginsConfig: String { repository + "/plugins.json" }
    var pricesFile: String { repository + "/prices.json" }
    var abiHeaderDirectory: String { repository + "/Sources/CProviderABI/include" }
    /// The shipped peg plugin, built under another provider name by `-DPEG_PROVIDER_NAME`.
    var cPluginSource: String { repository + "/Plugins/PegProvider/peg_provider.c" }
    /// The store case's yardstick: the same rows inserted by Python's sqlite3.
    var storeIngestScript: String { repository + "/Benchmarks/Scripts/store-ingest.py" }

    /// Finds the bin directory and the repository, and checks that every file
    /// the chosen `cases` need is there.
    /// - Throws: ``BenchmarkError`` naming the first missing piece.
    static func find(repository override: String?, for cases: [Options.Case]) throws -> Locations {
        guard let executable = resolvedExecutable() else {
            throw BenchmarkError("cannot read /proc/self/exe to find the binaries built beside this one")
        }
        let toolDirectory = directory(of: executable)
        let repository: String
        if let override {
            guard isRepository(override) else {
                throw BenchmarkError("--repo \(override): no Package.swift and plugins.json there")
            }
            repository = override
        } else {
            guard let found = searchUpwards(from: toolDirectory) else {
                throw BenchmarkError("no directory holding Package.swift and plugins.json within 10 levels above \(toolDirectory); pass --repo PATH")
            }
            repository = found
        }
        let locations = Locations(binDirectory: repository + "/.build/release", toolDirectory: toolDirectory, repository: repository)
        try locations.checkPresent(for: cases)
        return locations
    }

    private func checkPresent(for cases: [Options.Case]) throws {
        var executables = [pricehost]
        var files = [pluginsConfig, pricesFile, filePlugin]
        if cases.contains(.startup) || cases.contains(.memory) { executables.append(helloFoundation) }
        if cases.contains(.container) { executables.append(injectionBenchmark) }
        if cases.contains(.network) { executables += [curlFloor, curlHostFloor] }
        if !Set(cases).isDisjoint(with: [.network, .concurrency, .fleet, .stream, .streamFleet, .store, .storeStream, .storeStreamControl]) { files.append(coinbasePlugin) }
        if cases.contains(.plugins) { files += [abiHeaderDirectory + "/pricehost_plugin.h", cPluginSource] }
        if cases.contains(.store) { files.append(storeIngestScript) }
        for path in executables where access(path, X_OK) != 0 {
            throw BenchmarkError("\(path) is missing or not executable; build everything with: bash Benchmarks/run (it runs swift build -c release in both packages)")
        }
        for path in files where access(path, R_OK) != 0 {
            throw BenchmarkError("\(path) is missing or unreadable" + (path.hasPrefix(binDirectory) ? "; build everything with: swift build -c release" : ""))
        }
    }

    /// `name` found in a directory of $PATH, as an absolute path, or nil.
    static func onPath(_ name: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where directory.hasPrefix("/") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    private static func resolvedExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func isRepository(_ directory: String) -> Bool {
        access(directory + "/Package.swift", F_OK) == 0 && access(directory + "/plugins.json", F_OK) == 0
    }

    private static func searchUpwards(from start: String) -> String? {
        var current = start
        for _ in 0..<10 {
            if isRepository(current) { return current }
            guard current != "/" else { return nil }
            current = directory(of: current)
        }
        return nil
    }
}
