// swift-tools-version: 6.2
import PackageDescription

// The benchmarks, apart from the product they measure (BENCHMARKS.md).
// `bash Benchmarks/run` builds both packages in release and runs pricehost-benchmark,
// which finds pricehost and its plugins in the root package's .build/release.
let package = Package(
    name: "pricehost-benchmarks",
    products: [
        .executable(name: "pricehost-benchmark", targets: ["PriceHostBenchmark"]),
        .executable(name: "injection-benchmark", targets: ["InjectionBenchmark"]),
        // The floor start-up is compared against: a hello world that imports Foundation.
        .executable(name: "hello-foundation", targets: ["HelloFoundation"]),
        // The floor a networked fetch is compared against: Swift importing only Glibc, one GET through dlopen'ed libcurl.
        .executable(name: "curl-floor", targets: ["CurlFloor"]),
        // The same GET from a program that also links FoundationEssentials and Swift concurrency, as any such host must.
        .executable(name: "curl-host-floor", targets: ["CurlHostFloor"]),
    ],
    dependencies: [
        .package(name: "pricehost", path: ".."),
    ],
    targets: [
        // <sys/epoll.h>, which Swift's Glibc module leaves out: the stream case's SSE clients wait on epoll.
        .systemLibrary(name: "CEpoll"),
        .executableTarget(name: "PriceHostBenchmark", dependencies: [
            "CEpoll",
            .product(name: "ProviderABI", package: "pricehost"),
            .product(name: "ChildProcesses", package: "pricehost"),
            .product(name: "PriceHostTesting", package: "pricehost"),
        ]),
        .executableTarget(name: "InjectionBenchmark", dependencies: [.product(name: "Injection", package: "pricehost")]),
        .executableTarget(name: "HelloFoundation"),
        .executableTarget(name: "CurlFloor"),
        .executableTarget(name: "CurlHostFloor"),
    ],
    swiftLanguageModes: [.v6]
)
