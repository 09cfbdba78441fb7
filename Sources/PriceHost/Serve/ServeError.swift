/// `serve` could not start: the address cannot be listened on.
struct ServeError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The address.
    var address: ListenAddress
    /// The system's reason, with a hint when there is one.
    var reason: String

    /// `cannot listen on 127.0.0.1:8480: Address already in use (…)`.
    var description: String { "cannot listen on \(address): \(reason)" }
}
