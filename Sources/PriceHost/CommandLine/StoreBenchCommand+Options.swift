import PriceHostStore
import ProviderABI

/// What `__store-bench` takes; `Benchmarks/run --only store` writes these command lines, nobody else.
extension StoreBenchCommand {
    static let configuration = CommandConfiguration(
        name: "__store-bench",
        summary: "the store benchmark's child: ingests quotes, fills a 90-day store, or times reads of one",
        usage: [], isHidden: true)

    static let argument: Argument<StoreBenchCommand>? = Argument(valueName: "MODE") { command, mode in command.modeName = mode }

    static let options: [Option<StoreBenchCommand>] = [
        Option("--path", value: "PATH", help: nil) { command, value throws(UsageError) in
            guard !value.isEmpty else { throw UsageError("--path needs the path of the store's file, or a postgres:// URL") }
            if StoreBenchCommand.isServer(value) {
                do throws(PostgresURL.Invalid) { _ = try PostgresURL(value) } catch { throw UsageError("--path: \(error)") }
            }
            command.path = value
        },
        Option("--count", value: "N", help: nil) { command, value throws(UsageError) in
            command.count = try whole(value, in: 1...100_000_000, of: "--count")
        },
        Option("--series", value: "N", help: nil) { command, value throws(UsageError) in
            command.series = try whole(value, in: 1...StoreBenchWorkload.assets.count, of: "--series")
        },
        Option("--rate", value: "QUOTES_PER_SECOND", help: nil) { command, value throws(UsageError) in
            command.rate = try whole(value, in: 0...10_000_000, of: "--rate")
        },
        Option("--days", value: "N", help: nil) { command, value throws(UsageError) in
            command.days = try whole(value, in: StoreBenchWorkload.rawDays...3_650, of: "--days")
        },
        Option("--now", value: "TIME", help: nil) { command, value throws(UsageError) in
            guard let date = ISO8601Timestamp.parse(value) else { throw UsageError("--now must be an ISO 8601 time, not '\(value)'") }
            command.now = HistoryQuery.milliseconds(date)
        },
    ]

    func validate() throws(UsageError) {
        let modes = Mode.allCases.map(\.rawValue).joined(separator: ", ")
        guard let modeName else { throw UsageError("__store-bench needs a mode: \(modes)") }
        guard Mode(rawValue: modeName) != nil else { throw UsageError("__store-bench: '\(modeName)' is no mode; modes are \(modes)") }
        if path == nil { throw UsageError("__store-bench needs --path PATH") }
    }

    private static func whole(_ text: String, in range: ClosedRange<Int>, of name: String) throws(UsageError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    /// Whether `path` names a PostgreSQL database (`postgres://…`) rather than a file.
    static func isServer(_ path: String) -> Bool {
        path.hasPrefix("postgres://") || path.hasPrefix("postgresql://")
    }

    /// The store `path` names: a file, or a PostgreSQL database (a URL ``validate()`` has checked).
    static func settings(_ path: String) -> StoreSettings {
        guard isServer(path), let url = try? PostgresURL(path) else { return StoreSettings(path: path) }
        return StoreSettings(location: .postgres(url))
    }
}
