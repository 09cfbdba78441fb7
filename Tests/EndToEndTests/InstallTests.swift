import Foundation
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// `scripts/install.sh` lays pricehost out under a prefix; the installed
/// binary finds its plugins with no setting, and --uninstall removes it all.
@Suite(.offThePool, .timeLimit(.minutes(2)))
struct InstallTests {
    @Test func installedBinaryFetchesWithNoExtraSettingAndUninstallLeavesNothing() throws {
        let prefix = try TemporaryDirectory()
        defer { prefix.remove() }
        let script = BuiltProducts.packageRoot + "/scripts/install.sh"
        let install = try CommandRunner.run("/bin/bash", [script, "--prefix", prefix.path, "--build-dir", BuiltProducts.directory])
        #expect(install.status == 0, "\(install)")

        let elsewhere = try TemporaryDirectory()
        defer { elsewhere.remove() }
        let config = prefix.file("etc/pricehost/plugins.json")
        let fetch = try CommandRunner.run(prefix.file("bin/pricehost"), ["fetch", "--config", config, "--asset", "BTC,USDC", "--format", "csv"],
                                          currentDirectory: elsewhere.path)
        #expect(fetch.status == 0, "\(fetch)")
        #expect(fetch.standardError == "")
        #expect(fetch.outputLines.count == 3)
        #expect(fetch.outputLines[1] == "BTC,USD,91234.56,file,2026-11-20T12:00:00Z")
        #expect(fetch.outputLines[2].hasPrefix("USDC,USD,1,peg,"))

        for plugin in ["libFileProvider.so", "libPegProvider.so", "libCoinbaseProvider.so", "libKrakenProvider.so", "libBitstampProvider.so", "libGeminiProvider.so",
                       "libBinanceProvider.so", "libCoinGeckoProvider.so"] {
            #expect(FileManager.default.fileExists(atPath: prefix.file("lib/pricehost/plugins/\(plugin)")), "\(plugin) not installed")
        }
        #expect(FileManager.default.contents(atPath: prefix.file("etc/pricehost/markets.json"))
            == FileManager.default.contents(atPath: BuiltProducts.packageRoot + "/examples/markets.json"))

        let providers = try CommandRunner.run(prefix.file("bin/pricehost"), ["providers", "--config", config], currentDirectory: elsewhere.path)
        #expect(providers.status == 0, "\(providers)")
        #expect(providers.outputLines.count == 3)
        #expect(providers.outputLines.allSatisfy { $0.contains(prefix.file("lib/pricehost/plugins/")) }, "\(providers)")

        try Self.expectTheManPageAndCompletions(in: prefix)

        let uninstall = try CommandRunner.run("/bin/bash", [script, "--uninstall", "--prefix", prefix.path])
        #expect(uninstall.status == 0, "\(uninstall)")
        let left = FileManager.default.enumerator(atPath: prefix.path)?.allObjects.compactMap { $0 as? String } ?? []
        #expect(left.filter { !["bin", "lib", "etc", "share"].contains($0) } == [], "left behind: \(left)")
    }

    /// The man page and the three completion scripts, as the installed binary prints them, 0644, where
    /// man and each shell look; `man` finds the page through PATH, bash loads its script.
    static func expectTheManPageAndCompletions(in prefix: TemporaryDirectory) throws {
        let installed = [
            ("share/man/man1/pricehost.1", ["__manpage"]),
            ("share/bash-completion/completions/pricehost", ["completions", "bash"]),
            ("share/zsh/site-functions/_pricehost", ["completions", "zsh"]),
            ("share/fish/vendor_completions.d/pricehost.fish", ["completions", "fish"]),
        ]
        for (path, arguments) in installed {
            let printed = try CommandRunner.run(prefix.file("bin/pricehost"), arguments)
            #expect(printed.status == 0 && !printed.standardOutput.isEmpty, "\(printed)")
            #expect(FileManager.default.contents(atPath: prefix.file(path)) == Data(printed.standardOutput.utf8), "\(path)")
            let mode = (try? FileManager.default.attributesOfItem(atPath: prefix.file(path))[.posixPermissions] as? Int) ?? nil
            #expect(mode == 0o644, "\(path): \(String(describing: mode))")
        }
        #expect(FileManager.default.contents(atPath: prefix.file("share/man/man1/pricehost.1"))
            == FileManager.default.contents(atPath: BuiltProducts.packageRoot + "/docs/pricehost.1"))
        let path = prefix.file("bin") + ":/usr/bin:/bin"
        if let man = CommandRunner.installed("man") {
            let found = try CommandRunner.run(man, ["-w", "pricehost"], environment: ["PATH": path])
            #expect(found.outputLines == [prefix.file("share/man/man1/pricehost.1")], "\(found)")
        } else {
            print("InstallTests: skipped 'man -w pricehost': man is not installed (apt-get install man-db)")
        }
        let bash = try CommandRunner.run("/bin/bash", ["-c", "source \"$0\" && complete -p pricehost", prefix.file("share/bash-completion/completions/pricehost")],
                                         environment: ["PATH": path])
        #expect(bash == CommandResult(status: 0, standardOutput: "complete -F _pricehost pricehost\n", standardError: ""))
    }

    /// The install ships the plugin kit: new-plugin from the installed binary
    /// writes a plugin that builds against PREFIX's header and passes the check.
    @Test func installedNewPluginBuildsAgainstTheInstalledKit() throws {
        let prefix = try TemporaryDirectory()
        defer { prefix.remove() }
        let script = BuiltProducts.packageRoot + "/scripts/install.sh"
        let install = try CommandRunner.run("/bin/bash", [script, "--prefix", prefix.path, "--build-dir", BuiltProducts.directory])
        #expect(install.status == 0, "\(install)")
        let kit = prefix.file("share/pricehost/sdk")
        #expect(FileManager.default.fileExists(atPath: kit + "/Sources/CProviderABI/include/pricehost_plugin.h"))
        #expect(FileManager.default.fileExists(atPath: kit + "/Sources/ProviderABI/Plugin/PluginExport.swift"))

        let work = try TemporaryDirectory()
        defer { work.remove() }
        for language in ["c", "swift"] {
            let generate = try CommandRunner.run(prefix.file("bin/pricehost"), ["new-plugin", "demo", "--language", language, "--dir", language],
                                                 currentDirectory: work.path)
            #expect(generate.status == 0, "\(generate)")
            #expect(generate.outputLines.first?.hasSuffix("built against \(kit)") == true, "\(generate)")
        }
        #expect(try String(contentsOfFile: work.file("swift/Package.swift"), encoding: .utf8).contains(#"path: "\#(kit)""#))
        let make = try CommandRunner.run("/usr/bin/env", ["make"], currentDirectory: work.file("c"), timeout: 120)
        #expect(make.status == 0, "\(make)")
        let check = try CommandRunner.run(prefix.file("bin/pricehost"), ["check", "--plugin", work.file("c/libDemoProvider.so")],
                                          currentDirectory: work.path)
        #expect(check.status == 0, "\(check)")

        let uninstall = try CommandRunner.run("/bin/bash", [script, "--uninstall", "--prefix", prefix.path])
        #expect(uninstall.status == 0, "\(uninstall)")
        #expect(!FileManager.default.fileExists(atPath: prefix.file("share/pricehost")), "the kit was left behind")
    }

    /// The installed binary makes requests with the system's libcurl, loaded on
    /// the first request: there is no transport file of its own to install.
    @Test func installedBinaryFetchesOverHTTPWithTheSystemsLibcurl() throws {
        let prefix = try TemporaryDirectory()
        defer { prefix.remove() }
        let install = try CommandRunner.run("/bin/bash", [BuiltProducts.packageRoot + "/scripts/install.sh",
                                                          "--prefix", prefix.path, "--build-dir", BuiltProducts.directory])
        #expect(install.status == 0, "\(install)")
        let server = try LoopbackHTTPServer { _, _ in
            .init(body: #"{"data":{"base":"BTC","currency":"USD","amount":"15840.01"}}"#)
        }
        defer { server.stop() }
        let config = try prefix.write("""
            {"plugins": ["libFileProvider.so", "libCoinbaseProvider.so"],
             "providers": {"file": {"path": "../../share/pricehost/prices.json"},
                           "coinbase": {"baseURL": "\(server.baseURL)"}}}
            """, to: "etc/pricehost/net.json")
        let fetch = try CommandRunner.run(prefix.file("bin/pricehost"),
                                          ["fetch", "--config", config, "--provider", "coinbase", "--asset", "BTC", "--format", "csv"])
        #expect(fetch.status == 0, "\(fetch)")
        #expect(fetch.outputLines.last?.hasPrefix("BTC,USD,15840.01,coinbase,") == true, "\(fetch)")
        #expect(server.requestCount(path: "/v2/prices/BTC-USD/spot") == 1)
        #expect(!FileManager.default.fileExists(atPath: prefix.file("lib/pricehost/libURLSessionTransport.so")))
    }

    @Test func uninstallWithoutAnInstallSaysSo() throws {
        let prefix = try TemporaryDirectory()
        defer { prefix.remove() }
        let result = try CommandRunner.run("/bin/bash", [BuiltProducts.packageRoot + "/scripts/install.sh", "--uninstall", "--prefix", prefix.path])
        #expect(result == CommandResult(status: 1, standardOutput: "", standardError: """
            install.sh: nothing to uninstall: \(prefix.path)/lib/pricehost/install-manifest does not exist

            """))
    }
}
