extension ResolutionError {
    /// The kind of a ``ResolutionError``. New kinds may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Hashable, Sendable {
            case missingRegistration
            case dependencyCycle
            case argumentTypeMismatch
            case factoryFailed
            case typeMismatch
        }

        private let value: Value

        private init(_ value: Value) {
            self.value = value
        }

        /// Nothing is registered for the type and name, here or in an ancestor container.
        public static let missingRegistration = Code(.missingRegistration)
        /// A service depends, directly or through others, on itself.
        public static let dependencyCycle = Code(.dependencyCycle)
        /// The argument passed does not match what the registration takes: another type, or
        /// one given where none is taken, or none given where one is needed.
        public static let argumentTypeMismatch = Code(.argumentTypeMismatch)
        /// A factory threw; ``ResolutionError/underlying`` holds its error.
        public static let factoryFailed = Code(.factoryFailed)
        /// A type added with ``Registration/implements(_:name:)`` is not one the made
        /// instance conforms to.
        public static let typeMismatch = Code(.typeMismatch)

        /// The code's name, such as `missingRegistration`.
        public var description: String {
            value.rawValue
        }
    }
}
