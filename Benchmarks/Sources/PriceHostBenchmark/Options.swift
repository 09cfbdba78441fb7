/// The benchmark's command line.
struct Options: Sendable {
    /// The cases there are, in the order they run.
    enum Case: String, CaseIterable, Sendable {
        case startup, plugins, container, network, concurrency, memory, serve, fleet, stream
        case streamFleet = "stream-fleet"
        case store
        case storePostgres = "store-postgres"
        case storeStream = "store-stream"
        case storeStreamControl = "store-stream-control"
    }

    /// Timed runs per figure; odd, so the median is a run that happened.
    var runs = 21
    /// `--quick`: 5 runs, the container benchmark's own `--quick`, no 2000-tick watch.
    var quick = false
    /// The cases to run, in ``Case`` order. `store-stream` is a part of `store`, and `store-stream-control` its
    /// control: run only when asked.
    var cases = Case.allCases.filter { $0 != .storeStream && $0 != .storeStreamControl }
    /// `--repo PATH`: where `plugins.json` and `prices.json` are, instead of searching upwards.
    var repo: String?
    /// `--help`.
    var wantsHelp = false

    static let usage = "usage: pricehost-benchmark [--runs N | RUNS] [--quick] [--only CASE[,CASE...]] [--repo PATH] [--help]"

    static let help = """
        \(usage)

        Times pricehost end to end, as whole processes, and prints medians, ratios
        against baselines measured in the same run, and which of the targets (issues 8, 12, 17, 18, 25, 27, 35, 36) are met.

          --runs N     timed runs per figure, odd (default 21; a bare number means the same)
          --quick      5 runs, injection-benchmark --quick, and no 2000-tick watch
          --only LIST  some of: \(Case.allCases.map(\.rawValue).joined(separator: ", "))
          --repo PATH  the repository (plugins.json, prices.json); default: the first
                       directory above this binary that holds Package.swift and plugins.json

        The network case times a coinbase fetch against curl-floor (Swift, Glibc only, one GET
        through dlopen'ed libcurl), curl-host-floor (the same GET from a task, also linking
        FoundationEssentials for Decimal) and curl, then the peak RSS of fetches of 1 and 20 assets from
        a server that streams a body without end (maxResponseBytes 1 MiB).

        The serve case runs `pricehost serve` against 64 keep-alive clients of its own for
        100,000 then 1,000,000 requests of a cached quote (--quick: 100,000 then 300,000); then
        (issue 34) wrk -t1 -c64 -d8s --latency against serve and Debian's nginx serving the same
        body as a static file, in turn, 3 rounds (--quick: 1); 10,000 idle keep-alive connections
        (serve's RSS) beside one wrk -c1 client; 1,000 slow-header clients beside one. Without wrk
        these are skipped, without nginx its side is, each saying why.

        The fleet case (issue 19) runs instances sharing a redis-server of their own: two
        answering 10,000 pairs each from Redis (--quick: 3,000), then 1 to 4 instances asked
        for the same 50 pairs at once, counting upstream requests. Skipped without redis-server.

        The stream case (issue 25) runs `pricehost serve` with coinbase "stream": true against a
        WebSocket venue of its own on 127.0.0.1: the latency from the venue's write of a ticker to
        SSE clients of /v1/stream, with 1 and 1,000 clients, at 200 tickers/s; tickers/s one feed
        parses and fans out to a client (500,000 written at once; --quick: 200,000); the server's
        RSS over 1,000,000 tickers to 100 clients (--quick: 300,000).

        The stream-fleet case (issue 27) runs instances with coinbase "stream": true sharing a
        redis-server of their own and the stream case's venue: the latency of 1,000 tickers at
        200/s (--quick: 600) to an SSE client of the instance holding the feed and of the other,
        against one server without Redis sent the same tickers alongside; then 1 to 4 fresh
        instances, a client each, counting the venue's connections (accepted, and open at once),
        which must stay 1. Skipped without redis-server.

        The store case (issue 35) measures the quote store through `pricehost __store-bench` (a hidden
        command) and serve: 1,000,000 quotes over 4 series recorded in batches of 10,000 (--quick:
        300,000), 3 rounds (--quick: 1), each beside Benchmarks/Scripts/store-ingest.py inserting the
        same rows with Python's sqlite3 (executemany, a transaction per 10,000; skipped without python3);
        the same count paced at 100,000/s, counting drops; serve's stream latency to 1 SSE client at
        10,000 tickers/s (100,000 tickers; --quick: 30,000) with its store recording and off, in turn,
        5 rounds each (--quick: 1); a 90-day store of one pair (a quote a minute, then 1 a second for
        the last 7 days) read in-process and through serve's /v1/candles and /v1/price on one keep-alive
        connection (201 and 5,000 requests; --quick: 51 and 2,000); bytes on disk per raw quote of a
        7-day store.

        The store-postgres case (issue 36) does the same on a throwaway PostgreSQL of its own (initdb
        on a free loopback port; skipped without Debian's postgresql): 300,000 quotes (--quick: 100,000)
        recorded by the store's writer, 3 rounds (--quick: 1), each beside psql's COPY of the same rows
        into the same table; a 90-day store read in-process and through serve, as above.

        The store-stream case runs only the store case's stream part (issue 35's one open bar): serve's
        stream latency to 1 SSE client at 10,000 tickers/s with its store recording and off, 5 rounds a
        side (--quick: 1), about 2 minutes. The store-stream-control case runs the same rounds with the
        store off on both sides: how far apart two identical sides come out on this machine, against
        which the 1.10x bar's verdicts are read.

        The memory case runs `pricehost watch` at its shortest interval, 0.1 s: about 100 s
        (--quick) or 200 s. Exit status: 0 when every case ran, missed targets included;
        1 when the benchmark could not run; 2 on a usage error.
        """

    /// A usage error: the message and the status to exit with.
    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var explicitRuns: Int?
        var index = 0
        while index < arguments.count {
            var argument = arguments[index]
            index += 1
            var value: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                value = String(argument[argument.index(after: equals)...])
                argument = String(argument[..<equals])
            }
            func takeValue() throws(UsageError) -> String {
                if let value { return value }
                guard index < arguments.count else { throw UsageError(description: "option \(argument) needs a value") }
                index += 1
                return arguments[index - 1]
            }
            switch argument {
            case "-h", "--help":
                options.wantsHelp = true
            case "--quick":
                guard value == nil else { throw UsageError(description: "option --quick takes no value") }
                options.quick = true
            case "--runs":
                explicitRuns = try parseRuns(takeValue())
            case "--only":
                options.cases = try parseCases(takeValue())
            case "--repo":
                let path = try takeValue()
                guard !path.isEmpty else { throw UsageError(description: "--repo needs a path") }
                options.repo = path
            case _ where !argument.hasPrefix("-") && explicitRuns == nil && Int(argument) != nil:
                // `bash Benchmarks/run 31`, as the scripts before this one took it.
                explicitRuns = try parseRuns(argument)
            default:
                throw UsageError(description: argument.hasPrefix("-") ? "unknown option '\(argument)'" : "unexpected argument '\(argument)'")
            }
        }
        options.runs = explicitRuns ?? (options.quick ? 5 : 21)
        return options
    }

    private static func parseRuns(_ text: String) throws(UsageError) -> Int {
        guard let runs = Int(text), (1...1001).contains(runs), runs % 2 == 1 else {
            throw UsageError(description: "--runs must be an odd number from 1 to 1001 (the median is then a real run), not '\(text)'")
        }
        return runs
    }

    private static func parseCases(_ text: String) throws(UsageError) -> [Case] {
        var wanted = Set<Case>()
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let found = Case(rawValue: String(name)) else {
                throw UsageError(description: "--only: unknown case '\(name)'; cases are \(Case.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            wanted.insert(found)
        }
        return Case.allCases.filter(wanted.contains)
    }
}
