// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "pricehost",
    products: [
        .library(name: "Injection", targets: ["Injection"]),
        .executable(name: "injection-benchmark", targets: ["InjectionBenchmark"]),
    ],
    targets: [
        .target(name: "Injection"),
        .executableTarget(name: "InjectionBenchmark", dependencies: ["Injection"]),
        .testTarget(name: "InjectionTests", dependencies: ["Injection"]),
    ],
    swiftLanguageModes: [.v6]
)
