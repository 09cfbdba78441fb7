// The wording of every error the container throws lives here, so the messages stay consistent.
extension ResolutionError {
    static func missingRegistration(
        typeName: String, name: String?, registeredNames: [String], hasUnnamed: Bool
    ) -> ResolutionError {
        let description: String
        switch name {
        case let name?:
            let others = (hasUnnamed ? ["(unnamed)"] : []) + registeredNames
            if others.isEmpty {
                description = """
                    no \(typeName) named '\(name)'; none is registered; register one with \
                    container.register(\(typeName).self, name: "\(name)") { … }
                    """
            } else {
                description = "no \(typeName) named '\(name)'; registered: \(others.joined(separator: ", "))"
            }
        case nil:
            if registeredNames.isEmpty {
                description = """
                    no \(typeName) registered; register one with \
                    container.register(\(typeName).self) { … }
                    """
            } else {
                description = """
                    no \(typeName) registered without a name; registered names: \
                    \(registeredNames.joined(separator: ", "))
                    """
            }
        }
        return ResolutionError(code: .missingRegistration, description: description)
    }

    static func dependencyCycle(path: [String]) -> ResolutionError {
        ResolutionError(
            code: .dependencyCycle,
            description: "dependency cycle: \(path.joined(separator: " -> "))"
        )
    }

    static func factoryFailed(registration: String, underlying: any Error) -> ResolutionError {
        ResolutionError(
            code: .factoryFailed,
            description: "factory for \(registration) failed: \(String(describing: underlying))",
            underlying: underlying
        )
    }

    /// A registration exists for the type and name, but none takes what was given.
    static func argumentMismatch(registration: String, taken: [ArgumentType?], given: String?) -> ResolutionError {
        let arguments = taken.compactMap { $0?.name }
        let takesNone = taken.contains { $0 == nil }
        guard let given else {
            return argumentMissing(registration: registration, expected: arguments.joined(separator: " or "))
        }
        if arguments.isEmpty {
            return argumentUnexpected(registration: registration, given: given)
        }
        return argumentTypeMismatch(
            registration: registration,
            expected: (arguments + (takesNone ? ["none"] : [])).joined(separator: " or "),
            given: given)
    }

    static func argumentMissing(registration: String, expected: String) -> ResolutionError {
        ResolutionError(
            code: .argumentTypeMismatch,
            description: """
                \(registration) takes an argument of type \(expected); \
                resolve it with resolve(_:name:argument:)
                """
        )
    }

    static func argumentUnexpected(registration: String, given: String) -> ResolutionError {
        ResolutionError(
            code: .argumentTypeMismatch,
            description: """
                \(registration) takes no argument, but was resolved with one of type \(given); \
                resolve it with resolve(_:name:)
                """
        )
    }

    static func argumentTypeMismatch(registration: String, expected: String, given: String) -> ResolutionError {
        ResolutionError(
            code: .argumentTypeMismatch,
            description: "\(registration) takes an argument of type \(expected), but was resolved with \(given)"
        )
    }

    static func typeMismatch(registration: String, instanceType: String, expected: String) -> ResolutionError {
        ResolutionError(
            code: .typeMismatch,
            description: """
                \(registration) made an instance of \(instanceType), which is not \(expected); \
                remove .implements(\(expected).self) or make \(instanceType) conform
                """
        )
    }
}
