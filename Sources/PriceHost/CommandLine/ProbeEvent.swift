import FoundationEssentials
import ProviderABI

/// One line of the protocol between `check` and its `__probe` child: the probe
/// encodes each step it takes as one, `check` decodes them to tell where a crash
/// or hang happened. The kinds and their fields are declared here and only here.
///
/// On the wire (the probe's stdout, internal to pricehost) an event is one JSON
/// object a line, flat, its `"probe"` member naming the kind:
/// `{"probe":"fetching","fetcher":"ctest","pair":"BTC-USD"}`. A line that does not
/// decode to an event is not the probe's: `check` reports it as plugin output.
enum ProbeEvent: Equatable, Sendable {
    /// The plugin did not load, and why.
    case loadFailed(error: String)
    /// The plugin loaded: what it is.
    case loaded(Plugin)
    /// A fetch started; `pair` is e.g. `BTC-USD`, or `BTC-USD x8` for concurrent fetches.
    case fetching(fetcher: String, pair: String)
    /// A fetch ended.
    case fetched(fetcher: String, pair: String, outcome: FetchOutcome)
    /// Something the plugin does wrong, in a sentence that says what to fix.
    case finding(text: String)
    /// A conformance fetch ended; what was wrong with it came as a ``finding(text:)``.
    case conformanceDone(fetcher: String, pair: String)
    /// The probe finished: completions that came after their fetch was over,
    /// and processes the plugin left running (killed).
    case done(lateCompletions: Int, strayProcesses: Int)

    /// What a loaded plugin is.
    struct Plugin: Equatable, Sendable {
        var name: String
        var version: String
        var abi: String
        var path: String
        var sha256: String?
        var fetchers: [String]
    }

    /// How a fetch ended.
    enum FetchOutcome: Equatable, Sendable {
        /// A price, formatted.
        case quote(amount: String)
        /// An error; `refused` when the host refused the plugin's answer.
        case failed(code: ProviderError.Code, error: String, refused: Bool)
    }
}

// MARK: - The wire

extension ProbeEvent: Codable {
    /// The `"probe"` member of each line.
    private enum Kind: String, Codable {
        case loadFailed = "load-failed"
        case loaded
        case fetching
        case fetched
        case finding
        case conformanceDone = "conformance-done"
        case done
    }

    /// Every member any kind has.
    private enum Field: String, CodingKey {
        case probe
        case error, name, version, abi, path, sha256, fetchers
        case fetcher, pair, ok, amount, code, refused
        case text, lateCompletions, strayProcesses
    }

    init(from decoder: any Decoder) throws {
        let line = try decoder.container(keyedBy: Field.self)
        func string(_ field: Field) throws -> String { try line.decode(String.self, forKey: field) }
        switch try line.decode(Kind.self, forKey: .probe) {
        case .loadFailed:
            self = .loadFailed(error: try string(.error))
        case .loaded:
            self = .loaded(Plugin(name: try string(.name), version: try string(.version), abi: try string(.abi),
                                  path: try string(.path), sha256: try line.decodeIfPresent(String.self, forKey: .sha256),
                                  fetchers: try line.decode([String].self, forKey: .fetchers)))
        case .fetching:
            self = .fetching(fetcher: try string(.fetcher), pair: try string(.pair))
        case .fetched:
            let outcome: FetchOutcome = try line.decode(Bool.self, forKey: .ok)
                ? .quote(amount: try string(.amount))
                : .failed(code: ProviderError.Code(rawValue: try string(.code)), error: try string(.error),
                          refused: try line.decode(Bool.self, forKey: .refused))
            self = .fetched(fetcher: try string(.fetcher), pair: try string(.pair), outcome: outcome)
        case .finding:
            self = .finding(text: try string(.text))
        case .conformanceDone:
            self = .conformanceDone(fetcher: try string(.fetcher), pair: try string(.pair))
        case .done:
            self = .done(lateCompletions: try line.decode(Int.self, forKey: .lateCompletions),
                         strayProcesses: try line.decode(Int.self, forKey: .strayProcesses))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var line = encoder.container(keyedBy: Field.self)
        switch self {
        case .loadFailed(let error):
            try line.encode(Kind.loadFailed, forKey: .probe)
            try line.encode(error, forKey: .error)
        case .loaded(let plugin):
            try line.encode(Kind.loaded, forKey: .probe)
            try line.encode(plugin.name, forKey: .name)
            try line.encode(plugin.version, forKey: .version)
            try line.encode(plugin.abi, forKey: .abi)
            try line.encode(plugin.path, forKey: .path)
            try line.encodeIfPresent(plugin.sha256, forKey: .sha256)
            try line.encode(plugin.fetchers, forKey: .fetchers)
        case .fetching(let fetcher, let pair):
            try line.encode(Kind.fetching, forKey: .probe)
            try line.encode(fetcher, forKey: .fetcher)
            try line.encode(pair, forKey: .pair)
        case .fetched(let fetcher, let pair, let outcome):
            try line.encode(Kind.fetched, forKey: .probe)
            try line.encode(fetcher, forKey: .fetcher)
            try line.encode(pair, forKey: .pair)
            switch outcome {
            case .quote(let amount):
                try line.encode(true, forKey: .ok)
                try line.encode(amount, forKey: .amount)
            case .failed(let code, let error, let refused):
                try line.encode(false, forKey: .ok)
                try line.encode(code.rawValue, forKey: .code)
                try line.encode(error, forKey: .error)
                try line.encode(refused, forKey: .refused)
            }
        case .finding(let text):
            try line.encode(Kind.finding, forKey: .probe)
            try line.encode(text, forKey: .text)
        case .conformanceDone(let fetcher, let pair):
            try line.encode(Kind.conformanceDone, forKey: .probe)
            try line.encode(fetcher, forKey: .fetcher)
            try line.encode(pair, forKey: .pair)
        case .done(let lateCompletions, let strayProcesses):
            try line.encode(Kind.done, forKey: .probe)
            try line.encode(lateCompletions, forKey: .lateCompletions)
            try line.encode(strayProcesses, forKey: .strayProcesses)
        }
    }
}

extension ProbeEvent {
    /// The event as one line, without the newline. Compact JSON escapes every
    /// control character inside strings, so an error text with a newline in it
    /// still makes one line.
    var line: String {
        do {
            return String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
        } catch {
            // Strings, booleans and integers only: there is nothing JSON cannot hold.
            preconditionFailure("a probe event did not encode: \(error)")
        }
    }

    /// The event `line` is; nil when it is not one (not JSON, not an object,
    /// no or an unknown `"probe"` kind, a member missing or of the wrong type):
    /// output that is not the probe's.
    init?(line: some StringProtocol, decoder: JSONDecoder = JSONDecoder()) {
        guard let event = try? decoder.decode(ProbeEvent.self, from: Data(line.utf8)) else { return nil }
        self = event
    }
}
