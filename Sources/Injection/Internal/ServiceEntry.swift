/// What the container needs to know about a registration without knowing its service type.
protocol ServiceEntry: AnyObject, Sendable {
    /// "PriceFetcher(named 'file')", for dependency paths.
    var pathName: String { get }
}
