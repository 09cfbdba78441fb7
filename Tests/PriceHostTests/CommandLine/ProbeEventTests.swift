import ChildProcesses
import ConcurrencyHelpers
@testable import PriceHost
@testable import PriceHostCore
import ProviderABI
import Testing

/// The protocol between `check` and its `__probe` child: every event survives
/// the wire, and a line that is not an event is reported as the plugin printing.
struct ProbeEventTests {
    static let plugin = "/opt/plugins/libDemo.so"

    /// At least one of each kind, and each optional or alternative payload.
    static let examples: [ProbeEvent] = [
        .loadFailed(error: "dlopen failed: /opt/plugins/libDemo.so: cannot open shared object file"),
        .loaded(ProbeEvent.Plugin(name: "demo", version: "1.2.0", abi: "1.2", path: plugin,
                                  sha256: String(repeating: "ab", count: 32), fetchers: ["demo", "demo.BTC"])),
        .loaded(ProbeEvent.Plugin(name: "démo \"quoted\"", version: "0", abi: "1.0", path: plugin, sha256: nil, fetchers: [])),
        .fetching(fetcher: "demo", pair: "BTC-USD"),
        .fetching(fetcher: "demo", pair: "BTC-USD x8"),
        .fetched(fetcher: "demo", pair: "BTC-USD", outcome: .quote(amount: "100.25")),
        .fetched(fetcher: "demo", pair: "ZZZ999ZZZ-USD", outcome: .failed(code: .notFound, error: "demo: no price\nfor ZZZ999ZZZ", refused: false)),
        .fetched(fetcher: "demo", pair: "BTC-USD", outcome: .failed(code: .noCompletion, error: "no completion", refused: false)),
        .fetched(fetcher: "demo", pair: "BTC-USD", outcome: .failed(code: .invalidResponse, error: "amount is negative", refused: true)),
        .finding(text: "answered ZZZ999ZZZ-USD, an asset that does not exist, with 1; answer such a request with a not_found error"),
        .conformanceDone(fetcher: "demo", pair: "ZZZ999ZZZ-USD"),
        .done(lateCompletions: 0, strayProcesses: 0),
        .done(lateCompletions: 3, strayProcesses: 1),
    ]

    /// The kind of an event; exhaustive, so a new case does not compile here until it has an example.
    static func kind(_ event: ProbeEvent) -> String {
        switch event {
        case .loadFailed: "load-failed"
        case .loaded: "loaded"
        case .fetching: "fetching"
        case .fetched: "fetched"
        case .finding: "finding"
        case .conformanceDone: "conformance-done"
        case .done: "done"
        }
    }

    @Test func theExamplesCoverEveryKind() {
        #expect(Set(Self.examples.map(Self.kind)).count == 7)
    }

    @Test(arguments: examples)
    func everyEventDecodesToItselfFromOneLine(_ event: ProbeEvent) throws {
        let line = event.line
        #expect(!line.contains("\n"))
        #expect(line.contains(#""probe":"\#(Self.kind(event))""#), "\(line)")
        #expect(ProbeEvent(line: line) == event)
    }

    @Test func aLineIsAFlatObjectNamingItsKind() {
        #expect(ProbeEvent(line: #"{"probe":"fetching","fetcher":"ctest","pair":"BTC-USD"}"#) == .fetching(fetcher: "ctest", pair: "BTC-USD"))
        #expect(ProbeEvent(line: #"{"probe":"done","lateCompletions":0,"strayProcesses":2,"extra":true}"#) == .done(lateCompletions: 0, strayProcesses: 2))
        #expect(ProbeEvent(line: #"{"probe":"loaded","name":"n","version":"v","abi":"1.2","path":"/p","sha256":null,"fetchers":["n"]}"#)
                == .loaded(ProbeEvent.Plugin(name: "n", version: "v", abi: "1.2", path: "/p", sha256: nil, fetchers: ["n"])))
    }

    static let notEvents = [
        "hello from the plugin", "", "{", "42", "[1,2]", "null", #""probe""#, "{}",
        #"{"probe":"teleported","fetcher":"demo"}"#, #"{"probe":7}"#, #"{"kind":"done","lateCompletions":0,"strayProcesses":0}"#,
        #"{"probe":"fetching","fetcher":"demo"}"#, #"{"probe":"done","lateCompletions":"0","strayProcesses":0}"#,
        #"{"probe":"fetched","fetcher":"demo","pair":"BTC-USD","ok":"yes","amount":"1"}"#,
    ]

    @Test(arguments: notEvents)
    func aLineThatIsNotAnEventIsNone(_ line: String) {
        #expect(ProbeEvent(line: line) == nil)
    }

    /// What check makes of a probe's output.
    static func read(_ events: [ProbeEvent], before: [String] = [], after: [String] = [], standardError: String = "",
                     ending: ChildProcess.Ending = .exited(0)) -> CheckCommand.ProbeResult {
        let lines = before + events.map(\.line) + after
        return CheckCommand.read(lines.map { $0 + "\n" }.joined(), standardError, ending: ending, path: plugin,
                                 timeout: .seconds(20), relayingTo: nil)
    }

    static let healthyRun: [ProbeEvent] = [
        .loaded(ProbeEvent.Plugin(name: "demo", version: "1.0", abi: "1.2", path: plugin, sha256: nil, fetchers: ["demo"])),
        .fetching(fetcher: "demo", pair: "BTC-USD"),
        .fetched(fetcher: "demo", pair: "BTC-USD", outcome: .quote(amount: "100.25")),
        .done(lateCompletions: 0, strayProcesses: 0),
    ]

    @Test func aHealthyRunIsReadWithoutProblems() {
        let result = Self.read(Self.healthyRun)
        #expect(result.problems == [])
        #expect(result.name == "demo" && result.version == "1.0" && result.abi == "1.2" && result.fetchers == ["demo"])
        #expect(result.fetches == ["fetch BTC-USD through demo: 100.25"])
    }

    @Test(arguments: notEvents.filter { !$0.isEmpty })
    func aStdoutLineThatIsNotAnEventIsReportedAsThePluginPrinting(_ line: String) {
        let result = Self.read(Self.healthyRun, before: [line], after: ["and more"])
        // The first stray line only, quoted; the events around it are still read.
        #expect(result.problems == ["plugin \(Self.plugin): printed to stdout or stderr instead of logging through the host: \(JSONValue.quoted(line))"])
        #expect(result.name == "demo")
        #expect(result.fetches == ["fetch BTC-USD through demo: 100.25"])
    }

    @Test func theReportIsTheOneCheckHasAlwaysPrinted() {
        let result = Self.read(Self.healthyRun, after: ["hello from the plugin"])
        #expect(result.problems == [#"plugin /opt/plugins/libDemo.so: printed to stdout or stderr instead of logging through the host: "hello from the plugin""#])
        let long = String(repeating: "x", count: 200)
        #expect(Self.read(Self.healthyRun, before: [long]).problems
                == [#"plugin /opt/plugins/libDemo.so: printed to stdout or stderr instead of logging through the host: ""# + String(long.prefix(120)) + #"""#])
    }

    @Test func strayOutputOnStderrIsReportedAfterStdoutsAndDiagnosticsAreNot() {
        let result = Self.read(Self.healthyRun, standardError: "pricehost: debug: fine\nprintf from the plugin\nanother\n")
        #expect(result.problems == [#"plugin /opt/plugins/libDemo.so: printed to stdout or stderr instead of logging through the host: "printf from the plugin""#])
        let both = Self.read(Self.healthyRun, before: ["on stdout"], standardError: "on stderr\n")
        #expect(both.problems == [#"plugin /opt/plugins/libDemo.so: printed to stdout or stderr instead of logging through the host: "on stdout""#])
    }

    @Test func aCrashIsReportedWithItsStageAndNotAsPrinting() {
        let events = Array(Self.healthyRun.prefix(2))
        let crash = Self.read(events, after: ["half a li"], ending: .signalled(11))
        #expect(crash.problems == ["plugin \(Self.plugin): crashed with SIGSEGV (segmentation fault) during fetch of BTC-USD through demo"])
        let hang = Self.read(events, after: ["{\"probe\":"], ending: .timedOut)
        #expect(hang.problems == ["plugin \(Self.plugin): did not finish within 20.0 seconds during fetch of BTC-USD through demo; killed"])
        let exit = Self.read(events, ending: .exited(1))
        #expect(exit.problems == ["plugin \(Self.plugin): the check process exited with status 1 during fetch of BTC-USD through demo"])
    }

    @Test func fetchOutcomesAndTheEndAreReadAsBefore() {
        let result = Self.read([
            .loaded(ProbeEvent.Plugin(name: "demo", version: "1.0", abi: "1.2", path: Self.plugin, sha256: "ff", fetchers: ["demo"])),
            .fetched(fetcher: "demo", pair: "ETH-USD", outcome: .failed(code: .notFound, error: "no ETH", refused: false)),
            .fetched(fetcher: "demo", pair: "BTC-USD", outcome: .failed(code: .noCompletion, error: "none", refused: false)),
            .fetched(fetcher: "demo", pair: "SOL-USD", outcome: .failed(code: .invalidResponse, error: "negative", refused: true)),
            .finding(text: "does something wrong"),
            .done(lateCompletions: 2, strayProcesses: 1),
        ])
        #expect(result.sha256 == "ff")
        #expect(result.fetches == ["fetch ETH-USD through demo: failed cleanly: no ETH"])
        #expect(result.problems == [
            "plugin \(Self.plugin): never completed the fetch BTC-USD through demo (waited 5.0 seconds)",
            "plugin \(Self.plugin): the host refused its answer to the fetch SOL-USD through demo: negative",
            "plugin \(Self.plugin): does something wrong",
            "plugin \(Self.plugin): called a fetch completion more than once (2 extra call(s)); call it exactly once",
            "plugin \(Self.plugin): left 1 process(es) running after the check; killed them",
        ])
        let failed = Self.read([.loadFailed(error: "no entry point")], ending: .exited(0))
        #expect(failed.loadFailure == "no entry point")
        #expect(failed.problems == ["plugin \(Self.plugin): no entry point"])
    }

    @Test func theChildsDiagnosticsAreRelayedAndMarkItLogged() {
        let lines = Lock<[String]>([])
        let diagnostics = Diagnostics(threshold: .debug, sink: { line in lines.withLock { $0.append(line) } })
        let result = CheckCommand.read(Self.healthyRun.map { $0.line + "\n" }.joined(), "pricehost: warning: demo: odd\n", ending: .exited(0),
                                       path: Self.plugin, timeout: .seconds(20), relayingTo: diagnostics)
        #expect(result.logged)
        #expect(result.problems == ["plugin \(Self.plugin): logged a warning or error while being checked (above)"])
        #expect(lines.withLock { $0 } == ["pricehost: warning: plugin \(Self.plugin) (in check): warning: demo: odd"])
    }
}
