import Dispatch
import PriceHostTesting
import Synchronization

/// The generated plugins: the shipped peg plugin (Plugins/PegProvider/peg_provider.c),
/// compiled once per name with `-DPEG_PROVIDER_NAME=\"gen042\"` by the tests' ``CPluginCompiler``.
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
    /// - Throws: ``BenchmarkError`` with the compiler's command and output if one fails.
    static func compile(_ names: [String], source: String, into directory: String, includeDirectory: String) throws -> [String] {
        let libraries = Mutex<[Int: String]>([:])
        let failure = Mutex<String?>(nil)
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for index in stride(from: worker, to: names.count, by: 2) where failure.withLock({ $0 == nil }) {
                do {
                    let library = try CPluginCompiler.compile(source: source, defines: ["PEG_PROVIDER_NAME=\"\(names[index])\""],
                                                              name: "lib\(names[index]).so", includeDirectory: includeDirectory,
                                                              into: directory)
                    libraries.withLock { $0[index] = library }
                } catch {
                    failure.withLock { $0 = $0 ?? "compiling the generated plugin \(names[index]) failed: \(error)" }
                }
            }
        }
        if let failure = failure.withLock({ $0 }) { throw BenchmarkError(failure) }
        return libraries.withLock { built in names.indices.compactMap { built[$0] } }
    }
}
