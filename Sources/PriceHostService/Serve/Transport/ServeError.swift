/// `serve` could not start: the address cannot be listened on.
package struct ServeError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The address.
    package var address: ListenAddress
    /// The system's reason, with a hint when there is one.
    package var reason: String

    /// `cannot listen on 127.0.0.1:8480: Address already in use (…)`.
    package var description: String { "cannot listen on \(address): \(reason)" }
}
