import Glibc

/// The generated plugins: the shipped peg plugin (Plugins/PegProvider/peg_provider.c),
/// compiled once per name with `-DPEG_PROVIDER_NAME=\"gen042\"`.
enum GeneratedPlugin {
    /// `gen001` ... : distinct provider names, in order.
    static func names(_ count: Int) -> [String] {
        (1...count).map { number in
            let digits = String(number)
            return "gen" + String(repeating: "0", count: max(0, 3 - digits.count)) + digits
        }
    }

    /// Compiles `source` once per name into `directory/libNAME.so`, two compilers at
    /// a time (the machine has two cores), and returns the libraries' paths in order.
    /// - Throws: ``BenchmarkError`` with the compiler's command and stderr if one fails.
    static func compile(_ names: [String], source: String, into directory: String, compiler: String,
                        includeDirectory: String, scratch: ScratchDirectory) throws -> [String] {
        var running: [(child: StartedChild, errors: String)] = []
        var libraries: [String] = []
        func finish(_ job: (child: StartedChild, errors: String)) throws {
            let result = job.child.waitForExit()
            guard result.succeeded else {
                let captured = Captured(standardOutput: "", standardError: ScratchDirectory.contents(of: job.errors))
                throw Timing.failure("compiling a generated plugin \(result.endingDescription)", job.child.command, captured)
            }
        }
        do {
            for name in names {
                if running.count == 2 { try finish(running.removeFirst()) }
                let library = "\(directory)/lib\(name).so"
                let command = Command(compiler, ["-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-fvisibility=hidden", "-DPEG_PROVIDER_NAME=\"\(name)\"",
                                                 "-I", includeDirectory, "-o", library, source])
                let errors = scratch.uniquePath("cc", suffix: "err")
                running.append((try Children.start(command, standardError: .file(errors), timeoutSeconds: 120), errors))
                libraries.append(library)
            }
            for job in running { try finish(job) }
            running.removeAll()
        } catch {
            // Leave no compiler behind: the ones still running are of no use now.
            for job in running {
                kill(job.child.pid, SIGKILL)
                _ = job.child.waitForExit()
            }
            throw error
        }
        return libraries
    }
}
