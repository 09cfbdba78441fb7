import PriceHostCore

/// `pricehost new-plugin NAME --language c|swift [--dir DIR]`: writes a plugin
/// from the templates, with the names filled in, built against this
/// installation's header or `ProviderABI`.
struct NewPluginCommand {
    let invocation: Invocation
    /// The directory of the running binary, where the kit is looked for.
    let executableDirectory: String?
    let currentDirectory: String
    let output: @Sendable (String) -> Void
    let diagnostics: Diagnostics

    func run() -> ExitStatus {
        // The parser guarantees both for this command.
        guard let name = invocation.newPluginName, let language = invocation.language else { return .usage }
        let directory = FilePath.absolute(invocation.directory ?? name, relativeTo: currentDirectory)
        guard let kit = executableDirectory.flatMap(PluginKit.locate(executableDirectory:)) else {
            diagnostics.error("new-plugin: no plugin kit beside this pricehost (\(executableDirectory ?? "its directory is unknown")): "
                + "the header, ProviderABI and Templates are in a checkout's root or PREFIX/share/pricehost/sdk; reinstall with scripts/install.sh")
            return .configOrPlugin
        }
        let scaffold = PluginScaffold(name: name, language: language, kit: kit)
        do {
            try ScaffoldWriter.write(try scaffold.files(), into: directory)
        } catch {
            diagnostics.error(error.description)
            return error.code == .directoryInUse ? .usage : .configOrPlugin
        }
        let build = language == .c ? "make" : "swift build -c release"
        let built = language == .c ? "./\(scaffold.libraryName)" : "./.build/release/\(scaffold.libraryName)"
        output("wrote the \(language.rawValue) plugin '\(name)' in \(directory), built against \(kit.root)")
        output("next: cd \(directory) && \(build) && pricehost check --plugin \(built)")
        return .success
    }
}
