import Foundation
import Testing

// Seeded, bounded fuzzing shared by the test targets: a deterministic
// generator, a corpus mutator and the loop that reports a failing input with
// the seed and iteration that reproduce it. See docs/FUZZING.md.

/// What one input did.
public enum FuzzOutcome: Sendable {
    /// It parsed, and the value has the properties checked.
    case value
    /// It failed with the documented error, whose properties hold.
    case error
    /// Anything else: the test fails with this reason.
    case problem(String)
}

/// How a loop's inputs fared.
public struct FuzzTally: CustomStringConvertible, Sendable {
    public var values = 0
    public var errors = 0
    public var failures = 0

    public var total: Int { values + errors + failures }

    public var description: String { "\(values) value(s), \(errors) clean error(s), \(failures) failure(s)" }
}

/// A fuzz run's seed and count: fixed by default, or from `PRICEHOST_FUZZ_SEED`
/// (decimal or `0x` hex) and `PRICEHOST_FUZZ_ITERATIONS`; `PRICEHOST_FUZZ_TRACE=1`
/// prints each input to stderr before it runs, so a crash's input is the last one printed.
public struct FuzzRun: Sendable {
    public static let defaultSeed: UInt64 = 0x5EED_2026_1120_0001
    /// A single input slower than this is a failure: super-linear parsing is a denial of service.
    public static let slowInput: Duration = .seconds(2)
    /// At most this many failing inputs are recorded per loop; the rest are counted.
    public static let recordedFailures = 5

    public var seed: UInt64
    public var iterationCount: Int?
    public var trace: Bool

    struct SettingError: Error, CustomStringConvertible {
        public var description: String
    }

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        seed = Self.defaultSeed
        if let text = environment["PRICEHOST_FUZZ_SEED"], !text.isEmpty {
            let parsed = text.lowercased().hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
            guard let parsed else { throw SettingError(description: "PRICEHOST_FUZZ_SEED=\(text) is not a decimal or 0x-hex 64-bit number") }
            seed = parsed
        }
        if let text = environment["PRICEHOST_FUZZ_ITERATIONS"], !text.isEmpty {
            guard let count = Int(text), count > 0 else { throw SettingError(description: "PRICEHOST_FUZZ_ITERATIONS=\(text) is not a positive whole number") }
            iterationCount = count
        }
        trace = environment["PRICEHOST_FUZZ_TRACE"] == "1"
    }

    /// The iterations a loop runs: `PRICEHOST_FUZZ_ITERATIONS`, else its default.
    public func iterations(_ defaultCount: Int) -> Int {
        iterationCount ?? defaultCount
    }

    /// Runs `check` on the inputs `generate` makes; each iteration has its own
    /// generator (see ``SeededGenerator/forIteration(_:of:seed:)``).
    /// `target` names the loop, and also seeds it: renaming it changes the inputs.
    @discardableResult
    public func loop<Input>(_ target: String, iterations defaultCount: Int,
                     generate: (inout SeededGenerator, Int) -> Input,
                     describe: (Input) -> String,
                     check: (Input) -> FuzzOutcome,
                     sourceLocation: SourceLocation = #_sourceLocation) -> FuzzTally {
        let count = iterations(defaultCount)
        let suite = target.split(separator: "/").first.map(String.init) ?? target
        let clock = ContinuousClock()
        var tally = FuzzTally()
        for iteration in 0..<count {
            var random = SeededGenerator.forIteration(iteration, of: target, seed: seed)
            let input = generate(&random, iteration)
            if trace {
                FileHandle.standardError.write(Data("fuzz \(target) seed 0x\(String(seed, radix: 16, uppercase: true)) iteration \(iteration): \(describe(input))\n".utf8))
            }
            var outcome = FuzzOutcome.value
            let elapsed = clock.measure { outcome = check(input) }
            if case .value = outcome, elapsed > Self.slowInput { outcome = .problem("took \(elapsed), more than \(Self.slowInput)") }
            if case .error = outcome, elapsed > Self.slowInput { outcome = .problem("took \(elapsed), more than \(Self.slowInput)") }
            switch outcome {
            case .value: tally.values += 1
            case .error: tally.errors += 1
            case .problem(let reason):
                tally.failures += 1
                guard tally.failures <= Self.recordedFailures else { continue }
                let seedText = "0x" + String(seed, radix: 16, uppercase: true)
                Issue.record("""
                    fuzz \(target): \(reason)
                    seed \(seedText), iteration \(iteration); reproduce with \
                    PRICEHOST_FUZZ_SEED=\(seedText) PRICEHOST_FUZZ_ITERATIONS=\(iteration + 1) swift test --filter \(suite)
                    input: \(describe(input))
                    """, sourceLocation: sourceLocation)
            }
        }
        if tally.failures > Self.recordedFailures {
            Issue.record("fuzz \(target): \(tally.failures - Self.recordedFailures) more failing input(s) not shown (\(tally))", sourceLocation: sourceLocation)
        }
        return tally
    }
}

/// Makes inputs from a corpus: bit flips, interesting tokens, deletions,
/// truncation, duplicated slices, splices of two entries; one to four at once.
public struct Mutator: Sendable {
    public var corpus: [[UInt8]]
    public var tokens: [[UInt8]]
    /// Creates a mutator over `corpus`, inserting `tokens`.
    public init(corpus: [[UInt8]], tokens: [[UInt8]]) {
        self.corpus = corpus
        self.tokens = tokens
    }

    /// Inputs are cut to this length, so stacked insertions stay cheap.
    public static let maximumLength = 1 << 16

    public static let commonTokens: [[UInt8]] = [
        "{", "}", "[", "]", "\"", ",", ":", "-", "\\", "\\u", "\\ud800", "\\udc00", "\\ud83d\\ude00", "\\u0000",
        "1e999", "-1e-999", "0x", "0x1F", "NaN", "Infinity", "-0", ".5", "5.", "+1", "null", "true", "false",
        "\r\n", "\n", "\r", "\t", " ", "#", "=", "../", "%2F", "${", "$${", "é", "e\u{301}", "😀", "\u{2028}",
        String(repeating: "9", count: 400), String(repeating: "0", count: 200),
        String(repeating: "[", count: 1_000), String(repeating: "{\"a\":", count: 300), String(repeating: "]", count: 300),
    ].map { Array($0.utf8) } + [
        [0x00], [0xFF], [0xFE], [0x80], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xEF, 0xBB, 0xBF], [0x7F],
    ]

    public static let jsonTokens = commonTokens

    public static let numberTokens = commonTokens + ["0", "00", "1", ".", "e", "E", "1,000", "１", "٣", "_"].map { Array($0.utf8) }

    /// A mutation of a random corpus entry, at most ``maximumLength`` bytes.
    public func mutate(using random: inout SeededGenerator) -> [UInt8] {
        var bytes = random.pick(corpus)
        for _ in 0...random.below(4) {
            let position = random.below(bytes.count + 1)
            switch random.below(9) {
            case 0 where !bytes.isEmpty:
                bytes[random.below(bytes.count)] ^= 1 << UInt8(random.below(8))
            case 1 where !bytes.isEmpty:
                bytes[random.below(bytes.count)] = UInt8(truncatingIfNeeded: random.next())
            case 2, 3:
                bytes.insert(contentsOf: random.pick(tokens), at: position)
            case 4:
                bytes.removeSubrange(position..<min(bytes.count, position + 1 + random.below(16)))
            case 5:
                bytes.removeSubrange(position...)
            case 6:
                let start = random.below(bytes.count + 1)
                let slice = bytes[start..<min(bytes.count, start + 1 + random.below(64))]
                bytes.insert(contentsOf: Array(Array(repeating: Array(slice), count: 1 + random.below(3)).joined()), at: position)
            case 7:
                let other = random.pick(corpus)
                bytes = Array(bytes[..<position]) + other[random.below(other.count + 1)...]
            default:
                let end = min(bytes.count, position + random.below(8))
                bytes.replaceSubrange(position..<end, with: random.pick(tokens))
            }
        }
        if bytes.count > Self.maximumLength { bytes.removeSubrange(Self.maximumLength...) }
        return bytes
    }

    /// Up to `maximumLength` random bytes, half of them from `alphabet`.
    public static func randomBytes(using random: inout SeededGenerator, alphabet: [UInt8], maximumLength: Int = 256) -> [UInt8] {
        (0..<random.below(maximumLength + 1)).map { _ in
            random.chance(1, in: 2) ? random.pick(alphabet) : UInt8(truncatingIfNeeded: random.next())
        }
    }
}

/// Inputs as failure messages show them.
public enum FuzzText {
    /// At most this many bytes are shown; the seed and iteration reproduce the rest.
    public static let shownBytes = 2_048

    /// `N bytes`, then the bytes escaped (printable ASCII as is, `\xHH` otherwise) and as a Swift array literal.
    public static func describe(_ bytes: [UInt8]) -> String {
        let shown = bytes.prefix(shownBytes)
        let more = bytes.count > shownBytes ? " …(first \(shownBytes) of \(bytes.count) bytes shown)" : ""
        return """
            \(bytes.count) bytes
              escaped: "\(escaped(shown))"\(more)
              bytes: [\(shown.map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: ", "))]\(more)
            """
    }

    public static func escaped(_ bytes: some Sequence<UInt8>) -> String {
        var output = ""
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): output += "\\\""
            case UInt8(ascii: "\\"): output += "\\\\"
            case UInt8(ascii: "\n"): output += "\\n"
            case UInt8(ascii: "\r"): output += "\\r"
            case UInt8(ascii: "\t"): output += "\\t"
            case 0x20..<0x7F: output.unicodeScalars.append(Unicode.Scalar(byte))
            default: output += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return output
    }

    /// `text` quoted and escaped, at most ``shownBytes`` of it.
    public static func quoted(_ text: String) -> String {
        let bytes = Array(text.utf8)
        return "\"\(escaped(bytes.prefix(shownBytes)))\"" + (bytes.count > shownBytes ? "…" : "")
    }
}

/// A deterministic random number generator for the fuzz tests: SplitMix64
/// (Steele, Lea and Flood, 2014), 64 bits of state, full period.
///
/// The fuzz tests draw through ``below(_:)`` and ``pick(_:)`` rather than
/// `Int.random(in:using:)`, whose algorithm the standard library may change
/// between Swift versions: a seed must name the same inputs on every toolchain.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose whole sequence is fixed by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0..<bound`; `bound` must be positive. Slightly biased, which fuzzing does not mind.
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "below(_:) needs a positive bound")
        return Int(next() % UInt64(bound))
    }

    /// True with probability `numerator / denominator`.
    public mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        below(denominator) < numerator
    }

    /// One element of a non-empty array.
    public mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[below(elements.count)]
    }

    /// The generator for one iteration of one fuzz target: iteration `i` gets
    /// the same input whatever the iteration count, so a long campaign starts
    /// with the default run and a failure reproduces from its seed alone.
    public static func forIteration(_ iteration: Int, of target: String, seed: UInt64) -> SeededGenerator {
        // FNV-1a: a stable hash (String's hashValue is randomised per process).
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in target.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        var mixer = SeededGenerator(seed: seed ^ hash)
        _ = mixer.next()
        return SeededGenerator(seed: mixer.next() &+ UInt64(iteration) &* 0xD1B5_4A32_D192_ED03)
    }
}
