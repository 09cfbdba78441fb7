import Foundation
import PriceHostTesting

/// Python's `sqlite3` module reading a store file: an SQLite that is not the one pricehost loads
/// through its own code, for checks on the file itself.
enum PythonSQLite {
    /// True when `python3` has `sqlite3`; otherwise prints why `test` skips.
    static func available(for test: String) -> Bool {
        let probe = try? CommandRunner.run("/usr/bin/env", ["python3", "-c", "import sqlite3"], timeout: 20)
        guard probe?.status == 0 else {
            print("\(test): skipped: python3 with its sqlite3 module is not installed (\(probe.map(\.description) ?? "python3 did not run"))")
            return false
        }
        return true
    }

    /// What `PRAGMA integrity_check` says of the file at `path`, and the amounts of `provider`'s quotes of BTC-USD.
    static func inspect(_ path: String, provider: String) throws -> (integrity: String, amounts: [String]) {
        let script = """
            import json, sqlite3, sys
            connection = sqlite3.connect(sys.argv[1])
            integrity = "\\n".join(row[0] for row in connection.execute("PRAGMA integrity_check"))
            amounts = [row[0] for row in connection.execute(
                "SELECT amount FROM quotes JOIN series ON series.id = quotes.series "
                "WHERE series.asset = 'BTC' AND series.currency = 'USD' AND series.origin = ?", (sys.argv[2],))]
            print(json.dumps({"integrity": integrity, "amounts": amounts}))
            """
        let result = try CommandRunner.run("/usr/bin/env", ["python3", "-c", script, path, provider], timeout: 30)
        guard result.status == 0,
              let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any],
              let integrity = object["integrity"] as? String, let amounts = object["amounts"] as? [String] else {
            throw FixtureError("python3's sqlite3 could not read \(path): \(result)")
        }
        return (integrity, amounts)
    }
}
