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

    /// The identity of several arguments, told apart from one argument that is a tuple of
    /// the same types, and named as that tuple: "(String, Int)".
    static func list<First, Second, each Other>(
        _ first: First.Type, _ second: Second.Type, _ other: repeat (each Other).Type
    ) -> ArgumentType {
        ArgumentType(
            id: ObjectIdentifier(ArgumentList<First, Second, repeat each Other>.self),
            makeName: { typeName((First, Second, repeat each Other).self) })
    }

    private init(id: ObjectIdentifier, makeName: @escaping @Sendable () -> String) {
        self.id = id
        self.makeName = makeName
    }

    static func == (lhs: ArgumentType, rhs: ArgumentType) -> Bool {
        lhs.id == rhs.id
    }
}

/// An argument given to one resolve, with its static type.
struct GivenArgument {
    let typeName: @Sendable () -> String

    init<Argument>(_ value: Argument) {
        // Only needed for an error message, so the name is built only then.
        if let list = value as? any ArgumentListProtocol {
            typeName = list.typeName
        } else {
            typeName = { Injection.typeName(Argument.self) }
        }
    }
}

/// Several arguments given to one resolve (`resolve(_:name:arguments:_:...)`), as one value.
struct ArgumentList<First, Second, each Other>: ArgumentListProtocol {
    let first: First
    let second: Second
    let other: (repeat each Other)

    var typeName: @Sendable () -> String {
        { Injection.typeName((First, Second, repeat each Other).self) }
    }
}

protocol ArgumentListProtocol {
    var typeName: @Sendable () -> String { get }
}
