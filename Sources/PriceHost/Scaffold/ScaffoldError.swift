/// Why `new-plugin` wrote nothing, or not everything.
struct ScaffoldError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The class of failure.
    enum Code: Sendable, Equatable {
        /// The target directory exists and is not empty (or is not a directory): the user's to change.
        case directoryInUse
        /// No header, `ProviderABI` and templates beside this `pricehost`: a broken install.
        case kitNotFound
        /// A template lacks a line the scaffold fills in: the installation's templates do not match this binary.
        case templateMismatch
        /// Reading a template or writing a file failed.
        case fileSystem
    }

    /// The class of failure.
    var code: Code
    /// One line naming the path and what to do.
    var description: String

    /// Creates an error.
    init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }
}
