import Foundation
import Glibc
import PriceHostTesting
import PriceHostTestTraits
import Testing

/// SIGHUP reloads, SIGTERM drains.
@Suite(.timeLimit(.minutes(2)), .serialized, .blockingLane)
struct ServeLifecycleTests {
    static let withPeg = configJSON(plugins: ["libFileProvider.so", "libPegProvider.so"], extra: #",  "assets": {"USDC": {"provider": "peg"}}"#)

    @Test func sigtermLeavesNoChildProcessAPluginStarted() throws {
        // A plugin that leaves a process of its own running (sleep 120) from its entry.
        let plugin = try Sandbox.testPlugin(["VARIANT_FORK"], name: "libServeFork.so")
        let sandbox = try Sandbox(config: configJSON(plugins: [plugin]), files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        let children = CheckTerminationTests.children(of: server.process.pid)
        #expect(children.count == 1, "the plugin's process; serve starts none of its own")
        #expect(server.stop() == 0, "\(server.process.standardError)")
        // Bounded: 5 s in steps of 20 ms. A child killed by serve is reaped by it, and gone.
        var left = children
        for _ in 0..<250 where !left.isEmpty {
            left = left.filter { CheckTerminationTests.processStatus($0).map { $0.state != "Z" } ?? false }
            if !left.isEmpty { usleep(20_000) }
        }
        #expect(left.isEmpty, "serve's SIGTERM left \(left) running; stderr: \(server.process.standardError)")
    }

    @Test func sighupServesANewPlugin() throws {
        let sandbox = try ServeTests.fileSandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        #expect(try server.get("/v1/prices?asset=USDC&provider=peg").status == 400)
        try sandbox.directory.write(Self.withPeg, to: "plugins.json")
        server.process.send(SIGHUP)
        #expect(server.process.waitForErrorLine(containing: "pricehost: info: reloaded ") != nil, "\(server.process.standardError)")
        let reply = try server.get("/v1/prices?asset=USDC")
        #expect(reply.status == 200)
        #expect(reply.body.hasPrefix(#"[{"asset":"USDC","currency":"USD","amount":"1","provider":"peg""#), "\(reply)")
        #expect(try server.get("/readyz").body == #"{"status":"ready","plugins":2,"store":"ok"}"#)
    }

    @Test func sighupWithABadConfigIsRefusedInOneLineAndTheOldOneServes() throws {
        let sandbox = try ServeTests.fileSandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        try sandbox.directory.write(#"{"plugins": ["libFileProvider.so"], "defaults": {"provider": 7}}"#, to: "plugins.json")
        server.process.send(SIGHUP)
        let line = server.process.waitForErrorLine(containing: "reload refused")
        #expect(line == "pricehost: error: reload refused: \(sandbox.configPath): defaults.provider: expected a string, found a number; still serving the previous config",
                "\(server.process.standardError)")
        #expect(withoutAges(try server.get("/v1/prices?asset=BTC").body) == "[\(ServeTests.btc)]")
        #expect(server.stop() == 0)
    }

    @Test func aPluginGoneFromTheConfigKeepsServingWithAWarning() throws {
        let sandbox = try Sandbox(config: Self.withPeg, files: ["prices.json": samplePrices])
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        try sandbox.directory.write(configJSON(plugins: ["libFileProvider.so"]), to: "plugins.json")
        server.process.send(SIGHUP)
        #expect(server.process.waitForErrorLine(containing: "pricehost: info: reloaded ") != nil)
        #expect(server.process.errorLines.contains { $0.hasPrefix("pricehost: warning: plugin ") && $0.hasSuffix("libPegProvider.so (provider 'peg') is no longer found; the loaded copy keeps serving until pricehost restarts") },
                "\(server.process.standardError)")
        #expect(try server.get("/v1/prices?asset=USDC&provider=peg").status == 200)
    }

    @Test func aPluginReplacedOnDiskServesItsNewCopyAfterSighup() throws {
        let sandbox = try Sandbox(config: configJSON(plugins: ["libFileProvider.so"], extra: #",  "pluginDirectories": ["plugins.d"], "assets": {"USDC": {"provider": "peg"}}"#),
                                  files: ["prices.json": samplePrices, "plugins.d/README": "drop plugins here"])
        defer { sandbox.remove() }
        let installed = sandbox.directory.file("plugins.d/libPegProvider.so")
        try FileManager.default.copyItem(atPath: BuiltProducts.plugin("libPegProvider.so"), toPath: installed)
        let server = try ServeProcess(sandbox)
        defer { server.stop() }
        #expect(try server.get("/v1/prices?asset=USDC").status == 200)
        // Replaced as installers do: a new file renamed over the old one.
        try FileManager.default.copyItem(atPath: BuiltProducts.plugin("libPegProvider.so"), toPath: installed + ".new")
        _ = rename(installed + ".new", installed)
        server.process.send(SIGHUP)
        #expect(server.process.waitForErrorLine(containing: "pricehost: info: reloaded ") != nil)
        #expect(server.process.errorLines.contains("pricehost: info: plugin \(installed) was replaced on disk: its new copy serves from now (the old one stays loaded until pricehost restarts)"),
                "\(server.process.standardError)")
        #expect(try server.get("/v1/prices?asset=USDC").status == 200)
        #expect(try server.get("/readyz").body == #"{"status":"ready","plugins":2,"store":"ok"}"#)
    }

    @Test func sigtermFinishesTheRequestInFlightEndsStreamsAndExitsZero() throws {
        // BTC's answer is held until the test saw the shutdown begin (at most 10 s): the request is in flight throughout.
        let release = DispatchSemaphore(value: 0)
        let upstream = try LoopbackHTTPServer { request, _ in
            if request.path == "/v2/prices/BTC-USD/spot" { _ = release.wait(timeout: .now() + 10) }
            return .init(body: CoinbaseTests.spot("BTC", "USD", "5"))
        }
        defer { upstream.stop() }
        let sandbox = try ServeCoalescingTests.coinbaseSandbox(upstream)
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox)
        let stream = try server.connect()
        try stream.send("GET /v1/stream?asset=ETH&interval=60&provider=coinbase HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try stream.read(until: "\r\n\r\n")
        let slow = try server.connect()
        try slow.send("GET /v1/prices?asset=BTC HTTP/1.1\r\nHost: x\r\n\r\n")
        // Until the request is at the upstream: it is in flight.
        for _ in 0..<100 where upstream.requestCount(path: "/v2/prices/BTC-USD/spot") == 0 { usleep(20_000) }
        server.process.send(SIGTERM)
        // The drain ends the streams at once; the request in flight still gets its answer.
        #expect(stream.isClosedByServer(within: 5))
        release.signal()
        let reply = try slow.readReply()
        #expect(reply.status == 200)
        #expect(reply.headers["connection"] == "close")
        #expect(server.process.waitForExit(within: 10) == 0, "\(server.process.standardError)")
        #expect(throws: (any Error).self) { try LoopbackHTTPConnection(port: server.port).get("/healthz") }
    }

    @Test func systemdHearsReadyAndStoppingOverNotifySocket() throws {
        let sandbox = try ServeTests.fileSandbox()
        defer { sandbox.remove() }
        let path = sandbox.directory.file("notify.sock")
        let listener = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(listener, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        func message() -> String {
            var buffer = [UInt8](repeating: 0, count: 512)
            let count = recv(listener, &buffer, buffer.count, 0)
            return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : "(nothing: \(String(cString: strerror(errno))))"
        }
        let server = try ServeProcess(sandbox, environment: ["NOTIFY_SOCKET": path])
        #expect(message() == "READY=1\nMAINPID=\(server.process.pid)")
        server.process.send(SIGHUP)
        #expect(message() == "RELOADING=1")
        #expect(message() == "READY=1")
        #expect(server.stop() == 0)
        #expect(message() == "STOPPING=1")
    }
}
