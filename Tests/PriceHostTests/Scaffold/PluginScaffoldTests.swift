import Foundation
@testable import PriceHost
import PriceHostTesting
import Testing

/// `new-plugin`'s pieces without the binary: parsing, names, the kit's
/// whereabouts and the files filled in from this checkout's templates.
struct PluginScaffoldTests {
    static let checkout = PluginKit(root: BuiltProducts.packageRoot)

    @Test func theNameAndOptionsParseInAnyOrder() throws {
        let parsed = try InvocationTests.parse(["--language=swift", "new-plugin", "--dir", "out", "my-market"], as: NewPluginCommand.self)
        #expect(parsed != nil)
        #expect(parsed?.name == "my-market")
        #expect(parsed?.language == .swift)
        #expect(parsed?.directory == "out")
    }

    @Test(arguments: [("my-market", "MyMarket", "libMyMarketProvider.so"), ("alpha2", "Alpha2", "libAlpha2Provider.so"),
                      ("a-b-c", "ABC", "libABCProvider.so")])
    func namesBecomeTypeAndLibraryNames(name: String, stem: String, library: String) {
        let scaffold = PluginScaffold(name: name, language: .c, kit: Self.checkout)
        #expect(scaffold.typeStem == stem)
        #expect(scaffold.libraryName == library)
        #expect(PluginScaffold.problem(withName: name) == nil)
    }

    @Test(arguments: ["", "My", "9lives", "-a", "a-", "a--b", "a_b", String(repeating: "a", count: 33)])
    func namesThatCannotNameATypeOrFileAreRefused(name: String) {
        #expect(PluginScaffold.problem(withName: name) != nil)
    }

    @Test func theKitIsTheCheckoutAboveTheBinaryOrTheInstalledSDK() throws {
        #expect(PluginKit.locate(executableDirectory: BuiltProducts.directory) == Self.checkout)
        let prefix = try TemporaryDirectory()
        defer { prefix.remove() }
        #expect(PluginKit.locate(executableDirectory: prefix.file("bin")) == nil)
        for marker in PluginKit.markers {
            try prefix.write("x", to: "share/pricehost/sdk/" + marker + (marker.hasSuffix("ProviderABI") ? "/A.swift" : ""))
        }
        #expect(PluginKit.locate(executableDirectory: prefix.file("bin")) == PluginKit(root: prefix.file("share/pricehost/sdk")))
    }

    @Test func everyLineTheScaffoldFillsInIsInTheTemplates() throws {
        for language in PluginScaffold.Language.allCases {
            let files = try PluginScaffold(name: "zed", language: language, kit: Self.checkout).files()
            #expect(!files.isEmpty)
            #expect(files.allSatisfy { !$0.contents.contains("Template") && !$0.contents.contains("\"template\"") }, "\(language)")
        }
    }

    @Test func aTemplateThatNoLongerMatchesIsNamed() {
        #expect(throws: ScaffoldError(.templateMismatch, ##"template /t.c lacks "#define X"; it does not match this pricehost: reinstall"##)) {
            try PluginScaffold.fill("int main;", at: "/t.c", [("#define X", "#define Y")])
        }
    }
}
