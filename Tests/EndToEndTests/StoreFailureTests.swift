import Foundation
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// A store that cannot be written (read-only, a full disk, not SQLite) never stops `serve` answering
/// prices: `/readyz` says `degraded` and why. A store path that cannot be made is a config error, and
/// without libsqlite3 serve runs without a store.
@Suite(.offThePool, .timeLimit(.minutes(2)))
struct StoreFailureTests {
    /// Now, in Unix ms: the quotes these tests record are stamped from here, a second apart.
    static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// The warnings and errors on serve's stderr: every line but the access log and "serving on".
    static func problems(_ server: ServeProcess) -> [String] {
        server.process.errorLines.filter { !$0.hasPrefix("pricehost: info: ") && !$0.hasPrefix("pricehost: serving on ") }
    }

    @Test func aReadOnlyStoreIsDegradedWhilePricesAreServed() throws {
        let sandbox = try StoreSandbox()
        defer { sandbox.remove() }
        let start = Self.now()
        // A store with one quote in it.
        let first = try ServeProcess(sandbox.sandbox)
        try sandbox.poll(first, "100.5", at: start)
        #expect(try StoreSandbox.waitForWrites(first, atLeast: 1) == 1)
        #expect(first.stop() == 0)
        guard let file = ReadOnlyFile.make(sandbox.storePath, for: "StoreFailureTests.\(#function)") else { return }
        defer { file.undo() }

        let server = try ServeProcess(sandbox.sandbox)
        defer { server.stop() }
        let ready = try StoreSandbox.waitForStore(server, toSay: "degraded: the file is read-only (") { attempt in
            try sandbox.poll(server, "\(101 + attempt).5", at: start + 1_000 * Int64(attempt + 1))
        }
        #expect(ready["status"] as? String == "degraded", "\(ready)")
        #expect((ready["store"] as? String)?.hasPrefix("degraded: the file is read-only (") == true, "\(ready)")
        // What it holds is still read.
        let price = try server.get("/v1/price?asset=BTC&provider=file&at=\(StoreOracle.iso(start))")
        #expect(price.status == 200 && price.body.contains(#""amount":"100.5""#), "\(price)")
        let problems = Self.problems(server)
        #expect(problems.count == 1 && problems.first?.hasPrefix("pricehost: warning: the quote store \(sandbox.storePath) cannot be written: the file is read-only (") == true, "\(problems)")
    }

    /// A store file made writable again is written again, as the store promises ("tries again with the next batch"),
    /// for a user whom modes stop (serve runs as nobody when the tests run as root): opening the read-only file, SQLite
    /// made quotes.db-shm with its mode, 0444, and the readers serve keeps open held SQLite's shared memory read-only;
    /// the writer's next attempt closes the idle readers and gives quotes.db-shm the mode of quotes.db.
    @Test func aReadOnlyStoreMadeWritableAgainIsWrittenAgain() throws {
        let sandbox = try StoreSandbox()
        defer { sandbox.remove() }
        guard let launcher = UnprivilegedUser.launcher(handingOver: sandbox.directory.path, for: "StoreFailureTests.\(#function)") else { return }
        let start = Self.now()
        let first = try ServeProcess(sandbox.sandbox, launcher: launcher)
        try sandbox.poll(first, "100.5", at: start, written: 1)
        #expect(first.stop() == 0)
        #expect(chmod(sandbox.storePath, 0o444) == 0)

        let server = try ServeProcess(sandbox.sandbox, launcher: launcher)
        defer { server.stop() }
        let ready = try StoreSandbox.waitForStore(server, toSay: "degraded: the file is read-only (") { attempt in
            try sandbox.poll(server, "\(101 + attempt).5", at: start + 1_000 * Int64(attempt + 1))
        }
        #expect((ready["store"] as? String)?.hasPrefix("degraded: the file is read-only (") == true, "\(ready)")
        let price = try server.get("/v1/price?asset=BTC&provider=file&at=\(StoreOracle.iso(start))")
        #expect(price.status == 200 && price.body.contains(#""amount":"100.5""#), "\(price)")

        #expect(chmod(sandbox.storePath, 0o644) == 0)
        try Self.checkWrittenAgain(server, sandbox, at: start + 100_000, path: sandbox.storePath, why: "the file is read-only (")
    }

    @Test func aFullDiskIsDegradedWhilePricesAreServedAndIsWrittenOnceThereIsRoom() throws {
        let sandbox = try StoreSandbox(store: #"{"url": "sqlite:disk/quotes.db"}"#)
        defer { sandbox.remove() }
        try FileManager.default.createDirectory(atPath: sandbox.directory.file("disk"), withIntermediateDirectories: false)
        guard let disk = PrivateTmpfs.make(at: sandbox.directory.file("disk"), size: "512k", for: "StoreFailureTests.\(#function)") else { return }
        let server = try ServeProcess(sandbox.sandbox, launcher: disk.launcher)
        defer { server.stop() }
        let start = Self.now()
        try sandbox.poll(server, "100.5", at: start)
        #expect(try StoreSandbox.waitForWrites(server, atLeast: 1) == 1)
        #expect(try StoreSandbox.readiness(server)["store"] as? String == "ok")

        // Filled to the last byte.
        let fill = try disk.run(#"cat /dev/zero > "$0/fill"; df -k "$0" | tail -n 1"#, inNamespaceOf: server.process.pid)
        #expect(fill.standardError.contains("No space left on device") && fill.standardOutput.split(separator: " ").contains("100%"), "\(fill)")
        let ready = try StoreSandbox.waitForStore(server, toSay: "degraded: the disk is full (") { attempt in
            try sandbox.poll(server, "\(101 + attempt).5", at: start + 1_000 * Int64(attempt + 1))
        }
        #expect(ready["status"] as? String == "degraded", "\(ready)")
        #expect((ready["store"] as? String)?.hasPrefix("degraded: the disk is full (") == true, "\(ready)")

        let freed = try disk.run(#"rm "$0/fill""#, inNamespaceOf: server.process.pid)
        #expect(freed.status == 0, "\(freed)")
        try Self.checkWrittenAgain(server, sandbox, at: start + 100_000, path: sandbox.directory.file("disk/quotes.db"), why: "the disk is full (")
    }

    /// Once the store can be written again, the next quote is kept, the store is `ok`, and stderr has said, once each,
    /// why it could not be written and that it is written again (a full disk stays full until a margin is free, not
    /// "written again" in the room a failed batch left).
    static func checkWrittenAgain(_ server: ServeProcess, _ sandbox: StoreSandbox, at time: Int64, path: String, why: String) throws {
        try sandbox.poll(server, "201.5", at: time)
        let kept = try StoreSandbox.waitForPrice(server, "201.5", at: time)
        #expect(kept.status == 200 && kept.body.contains(#""amount":"201.5""#), "\(kept)")
        let ready = try StoreSandbox.readiness(server)
        #expect(ready["status"] as? String == "ready" && ready["store"] as? String == "ok", "\(ready)")
        let problems = Self.problems(server)
        let cannot = "pricehost: warning: the quote store \(path) cannot be written: \(why)"
        let again = "pricehost: warning: the quote store \(path) is written again"
        #expect(problems.count == 2 && problems.first?.hasPrefix(cannot) == true && problems.last == again, "\(problems)")
    }

    @Test func aFileThatIsNotSQLiteIsDegradedWhilePricesAreServedAndIsLeftAsItWas() throws {
        let sandbox = try StoreSandbox()
        defer { sandbox.remove() }
        let notes = String(repeating: "These are my notes, not a database.\n", count: 20)
        try sandbox.directory.write(notes, to: "quotes.db")
        let server = try ServeProcess(sandbox.sandbox)
        defer { server.stop() }
        let start = Self.now()
        let ready = try StoreSandbox.waitForStore(server, toSay: "degraded: the file is not an SQLite database (") { attempt in
            try sandbox.poll(server, "\(101 + attempt).5", at: start + 1_000 * Int64(attempt))
        }
        #expect(ready["status"] as? String == "degraded", "\(ready)")
        #expect((ready["store"] as? String)?.hasPrefix("degraded: the file is not an SQLite database (") == true, "\(ready)")
        let candles = try server.get("/v1/candles?asset=BTC&provider=file")
        #expect(candles.status == 503 && candles.body.hasPrefix(#"{"error":"the quote store \#(sandbox.storePath) cannot be read: the file is not an SQLite database ("#), "\(candles)")
        #expect(server.stop() == 0)
        #expect(try String(contentsOfFile: sandbox.storePath, encoding: .utf8) == notes)
        let problems = Self.problems(server)
        #expect(problems.count == 1 && problems.first?.hasPrefix("pricehost: warning: the quote store \(sandbox.storePath) cannot be written: the file is not an SQLite database (") == true, "\(problems)")
    }

    @Test func aStorePathWhoseDirectoryCannotBeMadeIsAConfigError() throws {
        // Under a regular file.
        let sandbox = try StoreSandbox(store: #"{"url": "sqlite:plugins.json/x/quotes.db"}"#)
        defer { sandbox.remove() }
        let result = try sandbox.sandbox.run(["serve", "--listen", "127.0.0.1:0"], timeout: 30)
        let directory = sandbox.directory.path
        #expect(result.status == 3, "\(result)")
        #expect(result.errorLines == [
            "pricehost: error: \(sandbox.sandbox.configPath): store.url: cannot create the quote store \(directory)/plugins.json/x/quotes.db: cannot make \(directory)/plugins.json/x: Not a directory",
        ], "\(result)")
        #expect(result.standardOutput.isEmpty)

        // A directory at the path: no file can be made there.
        let taken = try StoreSandbox(store: #"{"url": "sqlite:sub"}"#)
        defer { taken.remove() }
        try FileManager.default.createDirectory(atPath: taken.directory.file("sub"), withIntermediateDirectories: false)
        let refused = try taken.sandbox.run(["serve", "--listen", "127.0.0.1:0"], timeout: 30)
        #expect(refused.status == 3, "\(refused)")
        #expect(refused.errorLines == [
            "pricehost: error: \(taken.sandbox.configPath): store.url: cannot create the quote store \(taken.directory.file("sub")): it is a directory, not a file",
        ], "\(refused)")
    }

    @Test func withoutLibSQLiteServeRunsWithoutAStoreAndSaysSoOnce() throws {
        let sandbox = try StoreSandbox()
        defer { sandbox.remove() }
        let server = try ServeProcess(sandbox.sandbox, environment: ["PRICEHOST_LIBSQLITE": "/nonexistent.so"])
        defer { server.stop() }
        try sandbox.poll(server, "100.5", at: Self.now())
        let why = "cannot load /nonexistent.so, the library the quote store is kept with: /nonexistent.so: cannot open shared object file: No such file or directory; install it (Debian and Ubuntu: apt-get install libsqlite3-0; Fedora: dnf install sqlite-libs)"
        let ready = try StoreSandbox.readiness(server)
        #expect(ready["status"] as? String == "degraded" && ready["store"] as? String == "unavailable: \(why)", "\(ready)")
        for route in ["candles?asset=BTC", "price?asset=BTC&at=\(StoreOracle.iso(Self.now()))", "twap?asset=BTC&window=1h"] {
            let reply = try server.get("/v1/\(route)")
            #expect(reply.status == 503 && reply.body == #"{"error":"no quote store: \#(why)"}"#, "\(route): \(reply)")
        }
        #expect(Self.problems(server) == ["pricehost: warning: serving without a quote store: \(why)"])
        #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))
    }
}
