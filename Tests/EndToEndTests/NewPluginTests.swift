import Foundation
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// `pricehost new-plugin`: a plugin with its names filled in that builds with
/// one command and passes the conformance check unchanged. The Swift one's
/// release build is left to Templates/walkthrough.sh (CI), which builds it.
@Suite(.timeLimit(.minutes(3)), .serialized, .blockingLane)
struct NewPluginTests {
    /// A service in the templates' shape: GET /{ASSET}-{CURRENCY} is {"price": "…"}.
    static func makeServer() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request, _ in
            request.path == "/BTC-USD" ? .init(body: #"{"price": "64000.50"}"#) : .init(status: 404, body: "")
        }
    }

    static func make(in directory: String) throws -> CommandResult {
        try CommandRunner.run("/usr/bin/env", ["make"], environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"],
                              currentDirectory: directory, timeout: 120)
    }

    @Test func aCPluginBuildsWithMakeAndPassesTheCheckUnchanged() throws {
        let work = try TemporaryDirectory()
        defer { work.remove() }
        let generate = try CommandRunner.run(BuiltProducts.pricehost, ["new-plugin", "my-market", "--language", "c"], currentDirectory: work.path)
        #expect(generate.status == 0, "\(generate)")
        #expect(generate.standardError == "")
        let directory = work.file("my-market")
        #expect(generate.outputLines == [
            "wrote the c plugin 'my-market' in \(directory), built against \(BuiltProducts.packageRoot)",
            "next: cd \(directory) && make && pricehost check --plugin ./libMyMarketProvider.so",
        ])
        let source = try String(contentsOfFile: directory + "/my_market_provider.c", encoding: .utf8)
        #expect(source.contains(#"#define PROVIDER_NAME "my-market""#))
        #expect(try String(contentsOfFile: directory + "/Makefile", encoding: .utf8)
            .contains("PRICEHOST_INCLUDE ?= \(BuiltProducts.abiHeaderDirectory)\n"))

        let build = try Self.make(in: directory)
        #expect(build.status == 0, "\(build)")
        let plugin = directory + "/libMyMarketProvider.so"

        // As generated, with no settings at all: its default baseURL refuses connections, cleanly.
        let bare = try CommandRunner.run(BuiltProducts.pricehost, ["check", "--plugin", plugin], currentDirectory: directory)
        #expect(bare.status == 0, "\(bare)")
        #expect(bare.standardOutput.contains("conformance passed"), "\(bare)")

        // Pointed at a service: it fetches through http_get and reads the price with json_get.
        let server = try Self.makeServer()
        defer { server.stop() }
        let config = try work.write(#"{"providers": {"my-market": {"baseURL": "\#(server.baseURL)"}}}"#, to: "plugins.json")
        let served = try CommandRunner.run(BuiltProducts.pricehost, ["check", "--plugin", plugin, "--config", config], currentDirectory: directory)
        #expect(served.status == 0, "\(served)")
        #expect(served.standardOutput.contains("  fetch BTC-USD through my-market: 64000.5\n"), "\(served)")
        #expect(served.standardOutput.contains("conformance passed"), "\(served)")
    }

    @Test func aSwiftPluginDependsOnThisInstallationsProviderABIByAbsolutePath() throws {
        let work = try TemporaryDirectory()
        defer { work.remove() }
        let result = try CommandRunner.run(BuiltProducts.pricehost, ["new-plugin", "alpha-2", "--language", "swift", "--dir", "out/alpha"],
                                           currentDirectory: work.path)
        #expect(result.status == 0, "\(result)")
        let manifest = try String(contentsOfFile: work.file("out/alpha/Package.swift"), encoding: .utf8)
        #expect(manifest.contains(#".package(name: "pricehost", path: "\#(BuiltProducts.packageRoot)"),"#), "\(manifest)")
        #expect(manifest.contains(#".library(name: "Alpha2Provider", type: .dynamic, targets: ["Alpha2Provider"]),"#), "\(manifest)")
        let source = try String(contentsOfFile: work.file("out/alpha/Sources/Alpha2Provider/Alpha2Provider.swift"), encoding: .utf8)
        #expect(source.contains(#"static let name = "alpha-2""#))
        #expect(source.contains("PluginExport.entry(Alpha2Provider.self, host: host)"))
        #expect(!source.contains("Template"))
    }

    @Test func aDirectoryInUseIsAUsageErrorAndNothingIsWritten() throws {
        let work = try TemporaryDirectory()
        defer { work.remove() }
        _ = try work.write("mine", to: "taken/notes.txt")
        let result = try CommandRunner.run(BuiltProducts.pricehost, ["new-plugin", "x1", "--language", "c", "--dir", "taken"], currentDirectory: work.path)
        #expect(result == CommandResult(status: 2, standardOutput: "",
                                        standardError: "pricehost: error: new-plugin: \(work.file("taken")) is not empty; choose a new or empty --dir\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.file("taken")) == ["notes.txt"])

        let file = try CommandRunner.run(BuiltProducts.pricehost, ["new-plugin", "x1", "--language", "c", "--dir", "taken/notes.txt"],
                                         currentDirectory: work.path)
        #expect(file.status == 2, "\(file)")
        #expect(file.errorLines == ["pricehost: error: new-plugin: \(work.file("taken/notes.txt")) exists and is not a directory; choose another --dir"])
    }

    @Test(arguments: [
        (["new-plugin", "Bad_Name", "--language", "c"], "new-plugin: 'Bad_Name' is not a plugin name: 1 to 32 lower-case letters, digits or single '-' between them, starting with a letter"),
        (["new-plugin", "9lives", "--language", "c"], "new-plugin: '9lives' is not a plugin name: 1 to 32 lower-case letters, digits or single '-' between them, starting with a letter"),
        (["new-plugin", "ok", "--language", "rust"], "--language must be c or swift, not 'rust'"),
        (["new-plugin", "ok"], "new-plugin needs --language c or --language swift"),
        (["new-plugin", "--language", "c"], "new-plugin needs a NAME: pricehost new-plugin NAME --language c|swift"),
        (["new-plugin", "ok", "extra", "--language", "c"], "unexpected argument 'extra'; options take the form --name value"),
        (["fetch", "--asset", "BTC", "--language", "c"], "option --language does not apply to 'fetch'"),
    ])
    func aWrongCommandLineIsOneLineAndStatus2(arguments: [String], message: String) throws {
        let work = try TemporaryDirectory()
        defer { work.remove() }
        let result = try CommandRunner.run(BuiltProducts.pricehost, arguments, currentDirectory: work.path)
        #expect(result == CommandResult(status: 2, standardOutput: "", standardError: "pricehost: error: \(message)\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path) == [])
    }
}
