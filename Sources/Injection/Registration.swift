/// A registration just made, as `Container.register` returns it.
///
/// Use it to let the same factory serve other types with ``implements(_:name:)``.
public struct Registration<Service>: Sendable {
    let container: Container
    let entry: Entry<Service>

    /// Makes this registration also answer for `type` under `name`, in the same container.
    ///
    /// Both types share one instance within the registration's scope: resolving either in one
    /// graph, or either of a singleton, yields the same object. The instance is converted with
    /// a conditional cast at resolve time; if it is not a `type`, resolving `type` throws
    /// ``ResolutionError`` with code ``ResolutionError/Code/typeMismatch``.
    ///
    /// - Returns: This registration, to chain further calls.
    @discardableResult
    public func implements<Other>(_ type: Other.Type, name: String? = nil) -> Registration<Service> {
        let source = entry
        // Transient here: the instance is cached, if at all, under the source registration.
        let forwarding = Entry<Other>(name: name, scope: .transient, argument: source.argument, cache: nil, make: {
            resolution, owner, argument in
            let instance = try resolution.checkedInstance(of: source, owner: owner, argument: argument)
            guard let converted = instance as? Other else {
                throw ResolutionError.typeMismatch(
                    registration: source.displayName,
                    instanceType: typeName(Swift.type(of: instance as Any)),
                    expected: typeName(Other.self))
            }
            return converted
        })
        container.add(forwarding, name: name)
        return self
    }
}
