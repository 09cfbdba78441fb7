/// Why the benchmark itself could not run (as opposed to a target being missed,
/// which is a result). The description is what the user reads: it names what
/// failed and, where there is one, the command and what it wrote to stderr.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
