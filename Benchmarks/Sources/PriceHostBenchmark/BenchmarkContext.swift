/// What every case needs: the options, where things are, and a scratch directory.
struct BenchmarkContext: Sendable {
    let options: Options
    let locations: Locations
    let scratch: ScratchDirectory

    var runs: Int { options.runs }

    /// The fetch of the startup case, also measured for memory: the shipped config,
    /// the file provider, no network.
    var fileFetch: Command {
        Command(locations.pricehost, ["fetch", "--provider", "file", "--asset", "BTC", "--config", locations.pluginsConfig])
    }

    /// Warms `command` up and checks that its stdout has a line starting `BTC-`
    /// (the quote, as the text format prints it).
    func warmUpFetchOfBTC(_ command: Command) throws -> Captured {
        let captured = try Timing.warmUp(command, scratch: scratch)
        guard captured.lines.contains(where: { $0.hasPrefix("BTC-") }) else {
            throw Timing.failure("the warm-up run of this command printed no BTC quote", command, captured)
        }
        return captured
    }

    /// Says so under the section when a warm-up wrote to stderr (a warning about a
    /// plugin, say): the timed runs then do that work too.
    func noteStandardError(of label: String, _ captured: Captured) {
        guard let first = captured.standardError.split(separator: "\n").first else { return }
        Report.note("note: the warm-up of \(label) wrote to stderr: \(first)")
    }
}
