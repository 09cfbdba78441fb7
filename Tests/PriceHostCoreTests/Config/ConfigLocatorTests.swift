import Glibc
@testable import PriceHostCore
import PriceHostTesting
import Testing

/// Where `plugins.json` is found, in order, and what is said when it is not.
struct ConfigLocatorTests {
    @Test func theSearchOrderIsFlagThenEnvironmentThenTheUsualPlaces() {
        let flag = ConfigLocator(explicitPath: "my.json", environment: ["PRICEHOST_CONFIG": "/env.json"], currentDirectory: "/work")
        #expect(flag.candidates.map(\.path) == ["/work/my.json"])
        let environment = ConfigLocator(explicitPath: nil, environment: ["PRICEHOST_CONFIG": "env.json", "HOME": "/home/u"],
                                        currentDirectory: "/work")
        #expect(environment.candidates.map(\.path) == ["/work/env.json"])
        let search = ConfigLocator(explicitPath: nil, environment: ["HOME": "/home/u"], currentDirectory: "/work")
        #expect(search.candidates.map(\.path) == ["/work/plugins.json", "/home/u/.config/pricehost/plugins.json", "/etc/pricehost/plugins.json"])
        let noHome = ConfigLocator(explicitPath: nil, environment: ["PRICEHOST_CONFIG": ""], currentDirectory: "/work")
        #expect(noHome.candidates.map(\.path) == ["/work/plugins.json", "/etc/pricehost/plugins.json"])
    }

    @Test func theFirstFileThatExistsIsRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let home = directory.path + "/home"
        _ = try directory.write(#"{"defaults": {"currency": "EUR"}}"#, to: "home/.config/pricehost/plugins.json")
        let config = try ConfigLocator(explicitPath: nil, environment: ["HOME": home], currentDirectory: directory.path).load()
        #expect(config.path == home + "/.config/pricehost/plugins.json")
        #expect(config.defaultCurrency == "EUR")
    }

    @Test func aMissingExplicitFileIsNamedWithWhereItCameFrom() throws {
        let locator = ConfigLocator(explicitPath: nil, environment: ["PRICEHOST_CONFIG": "/nowhere/p.json"], currentDirectory: "/")
        #expect(throws: ConfigError(path: "/nowhere/p.json", reason: "config file (from $PRICEHOST_CONFIG) does not exist")) {
            try locator.load()
        }
    }

    @Test func aDirectoryIsNotAConfigFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let locator = ConfigLocator(explicitPath: directory.path, environment: [:], currentDirectory: "/")
        #expect(throws: ConfigError(path: directory.path, reason: "is a directory, not a config file")) { try locator.load() }
    }

    @Test func nothingFoundSaysWhereItLooked() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let locator = ConfigLocator(explicitPath: nil, environment: ["HOME": directory.path], currentDirectory: directory.path)
        // The system config is outside the test's reach; where a machine has one, it would be found.
        guard access("/etc/pricehost/plugins.json", F_OK) != 0 else { return }
        #expect(throws: ConfigError(path: nil, reason: "no config file found (looked for \(directory.path)/plugins.json, \(directory.path)/.config/pricehost/plugins.json, /etc/pricehost/plugins.json); pass --config PATH or set PRICEHOST_CONFIG")) {
            try locator.load()
        }
    }
}
