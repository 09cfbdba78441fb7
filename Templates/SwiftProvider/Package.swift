// swift-tools-version: 6.2
// A pricehost provider in Swift: the template to copy. Point the dependency at
// your pricehost checkout (a path, or its git URL and a version).
import PackageDescription

let package = Package(
    name: "TemplateProvider",
    products: [
        .library(name: "TemplateProvider", type: .dynamic, targets: ["TemplateProvider"]),
    ],
    dependencies: [
        .package(name: "pricehost", path: "../.."),
    ],
    targets: [
        .target(name: "TemplateProvider", dependencies: [.product(name: "ProviderABI", package: "pricehost")]),
    ],
    swiftLanguageModes: [.v6]
)
