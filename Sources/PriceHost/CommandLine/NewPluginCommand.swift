import PriceHostCore

/// `pricehost new-plugin NAME --language c|swift [--dir DIR]`: writes a plugin
/// from the templates, with the names filled in, built against this
/// installation's header or `ProviderABI`.
struct NewPluginCommand: SynchronousCommand {
    /// `NAME`: the provider name of the plugin to write.
    var name: String?
    /// `--language`.
    var language: PluginScaffold.Language?
    /// `--dir`: where to write it; default `./NAME`.
    var directory: String?

    func run(in context: CommandContext) -> ExitStatus {
        let output = context.output, diagnostics = context.diagnostics
        // The kit is looked for beside the running binary.
        let executableDirectory = ExecutableLocation.directory
        // validate() guarantees both.
        guard let name, let language else { return .usage }
        let directory = FilePath.absolute(self.directory ?? name, relativeTo: FilePath.currentDirectory)
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
