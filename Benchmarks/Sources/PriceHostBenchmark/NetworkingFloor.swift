/// The floor for a networked fetch: a Swift program that links FoundationNetworking
/// (where URLSession lives, on top of libcurl and its dependencies) and does nothing
/// else. Built here with swiftc because the package has no such target.
enum NetworkingFloor {
    static let source = """
        import Foundation
        import FoundationNetworking

        let session: URLSession.Type = URLSession.self
        print(session == session)

        """

    /// Compiles the floor into the scratch directory.
    /// - Returns: the command, or why there is none (no swiftc, or it failed): an extra row, not worth failing for.
    static func build(_ context: BenchmarkContext) throws -> Result<Command, BenchmarkError> {
        guard let compiler = Locations.onPath("swiftc") else {
            return .failure(BenchmarkError("no swiftc on PATH"))
        }
        let sourcePath = try context.scratch.write(source, to: "networking_floor.swift")
        let binary = context.scratch.path + "/networking-floor"
        let errors = context.scratch.uniquePath("swiftc", suffix: "err")
        Report.progress("network: compiling the FoundationNetworking floor with swiftc -O")
        let result = try Children.run(Command(compiler, ["-O", sourcePath, "-o", binary]), standardError: .file(errors),
                                          timeoutSeconds: 300)
        guard result.succeeded else {
            let first = ScratchDirectory.contents(of: errors).split(separator: "\n").first.map(String.init) ?? ""
            return .failure(BenchmarkError("swiftc \(result.endingDescription): \(first)"))
        }
        return .success(Command(binary))
    }
}
