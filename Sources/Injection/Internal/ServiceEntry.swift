/// What the container needs to know about a registration without knowing its service type.
protocol ServiceEntry: AnyObject, Sendable {
    /// "PriceFetcher(named 'file')", for dependency paths.
    var pathName: String { get }
    /// The type of the argument its factory takes; `nil` when it takes none.
    var argumentType: ArgumentType? { get }
    var scope: Scope { get }
    /// True for a graph-scope registration without an argument: its instance is shared
    /// within a resolution. (Kept apart from `scope`, whose comparison is no single compare.)
    var keepsGraphInstance: Bool { get }
    /// One line for ``Container/description``.
    var summary: String { get }
    /// Forgets a kept instance, if the entry's scope keeps one.
    func resetInstance()
}
