/// `pricehost __manpage`: prints the man page (``ManPage``); `docs/pricehost.1` is its output.
struct ManPageCommand: SynchronousCommand {
    static let configuration = CommandConfiguration(
        name: "__manpage",
        summary: "print the man page, pricehost.1, made from the same declarations as --help",
        usage: [], isHidden: true)

    static let options: [Option<ManPageCommand>] = []

    func run(in context: CommandContext) -> ExitStatus {
        context.output(ManPage.text)
        return .success
    }
}
