import Glibc

// The end-to-end benchmark of issue 8: `bash Benchmarks/run [--quick] [--runs N] [--only CASES]`.
// What it measures, and how to read it, is in --help and BENCHMARKS.md.

// Generated plugins must not be writable by group or others, or the host refuses them.
umask(0o022)

do {
    let options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
    if options.wantsHelp {
        print(Options.help)
        exit(0)
    }
    exit(Benchmark.run(options))
} catch {
    Report.progress("\(error)")
    Report.standardError(Options.usage)
    exit(2)
}
