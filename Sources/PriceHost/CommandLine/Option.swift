/// What the help says about one `--name`, and how the parser reads it: the part
/// of an ``Option`` that does not depend on the command that stores it.
struct OptionSpec: Sendable, Equatable {
    /// `--config`.
    var name: String
    /// What its value is called under OPTIONS (`PATH`); nil for a flag, which takes no value.
    var valueName: String?
    /// What its value is called in a usage line, when that says more (`CODE[,CODE...]`).
    var synopsisValue: String?
    /// Its entry under OPTIONS, one line or several; nil when its usage line says it all.
    var help: String?
    /// May be given more than once, each value adding to the last (`--asset`).
    var isRepeatable = false
    /// What the man page says of it when `help` is nil (its usage line says enough for `--help`).
    var manual: String?
    /// What a shell's tab completion offers for its value.
    var completion: ValueCompletion = .nothing

    /// True for an option that takes no value.
    var isFlag: Bool { valueName == nil }

    /// `--config PATH`, as under OPTIONS.
    var label: String { valueName.map { "\(name) \($0)" } ?? name }

    /// `--listen HOST:PORT (default 127.0.0.1:8480)`, as in a usage line.
    var synopsis: String { (synopsisValue ?? valueName).map { "\(name) \($0)" } ?? name }

    /// Its entry in the man page: its `help`, else its `manual`.
    var description: String { help ?? manual ?? "" }
}

/// What a shell's tab completion (``CompletionScript``) offers for an option's value or a positional argument.
enum ValueCompletion: Sendable, Equatable {
    /// Nothing: the user types it (`--asset`, `--ticks`).
    case nothing
    /// One of these words (`--format`: the formats the command supports).
    case choices([String])
    /// A file name.
    case file
    /// A directory name.
    case directory
    /// Provider names from the config in effect, as `pricehost __complete providers` prints them; a
    /// comma-separated list is completed after its last comma.
    case providers
}

/// One `--name` a command takes, declared once: what the help says about it
/// (``OptionSpec``) and how its value is checked and stored in the command (`Root`).
struct Option<Root>: Sendable {
    /// Its name and help.
    let spec: OptionSpec
    /// Checks the value (`""` for a flag) and stores it; a wrong value is a ``UsageError`` naming it.
    let apply: @Sendable (inout Root, String) throws(UsageError) -> Void

    /// An option that takes a value.
    /// - Parameters:
    ///   - manual: what the man page says of it when `help` is nil.
    ///   - completes: what tab completion offers for its value.
    init(_ name: String, value: String, synopsis: String? = nil, help: String?, manual: String? = nil, repeatable: Bool = false,
         completes: ValueCompletion = .nothing, apply: @escaping @Sendable (inout Root, String) throws(UsageError) -> Void) {
        self.init(spec: OptionSpec(name: name, valueName: value, synopsisValue: synopsis, help: help, isRepeatable: repeatable,
                                   manual: manual, completion: completes),
                  apply: apply)
    }

    init(spec: OptionSpec, apply: @escaping @Sendable (inout Root, String) throws(UsageError) -> Void) {
        self.spec = spec
        self.apply = apply
    }

    /// An option that takes no value and sets `property`.
    static func flag(_ name: String, help: String?, _ property: WritableKeyPath<Root, Bool> & Sendable) -> Option {
        Option(spec: OptionSpec(name: name, help: help)) { root, _ in root[keyPath: property] = true }
    }

    /// The same option, stored in the `group` of a command that embeds it (an ``OptionSpec`` shared by several commands).
    func stored<Command>(in group: WritableKeyPath<Command, Root> & Sendable) -> Option<Command> {
        let apply = self.apply
        return Option<Command>(spec: spec) { command, value throws(UsageError) in try apply(&command[keyPath: group], value) }
    }
}

/// A command's one positional argument (`new-plugin NAME`): stored as given; its `validate()` checks it.
struct Argument<Root>: Sendable {
    /// `NAME`.
    let valueName: String
    /// What tab completion offers for it.
    var completion: ValueCompletion = .nothing
    /// Stores it.
    let apply: @Sendable (inout Root, String) -> Void
}
