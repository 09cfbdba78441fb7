/// The type of the argument a registration's factory takes, kept as an identity for the check
/// at resolve time and as a name for the error message.
struct ArgumentType: Sendable, Equatable {
    let id: ObjectIdentifier
    private let makeName: @Sendable () -> String

    /// The type's name: built on demand, as it is only needed for an error message.
    var name: String { makeName() }

    init<Argument>(_ type: Argument.Type) {
        id = ObjectIdentifier(type)
        makeName = { typeName(Argument.self) }
    }

    static func == (lhs: ArgumentType, rhs: ArgumentType) -> Bool {
        lhs.id == rhs.id
    }
}

/// An argument given to one resolve, with its static type.
struct GivenArgument {
    let type: ObjectIdentifier
    let typeName: @Sendable () -> String
    let value: Any

    init<Argument>(_ value: Argument) {
        type = ObjectIdentifier(Argument.self)
        // Only needed for an error message, so the name is built only then.
        typeName = { Injection.typeName(Argument.self) }
        self.value = value
    }
}
