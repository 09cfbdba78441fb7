// SwinjectAutoregistration's resolve operator, `try r ~> Networking.self`. The standard
// library declares `~>` already (DefaultPrecedence), so these are overloads of it.

/// Resolves the unnamed `Service`: `try container ~> Networking.self`.
///
/// - Throws: ``ResolutionError``, as ``Resolver/resolve(_:name:)`` does.
public func ~> <Service>(resolver: some Resolver, type: Service.Type) throws -> Service {
    try resolver.resolve(type, name: nil)
}

/// Resolves `Service` under a name: `try container ~> (PriceFetcher.self, name: "coinbase/BTC")`.
public func ~> <Service>(resolver: some Resolver, service: (Service.Type, name: String)) throws -> Service {
    try resolver.resolve(service.0, name: service.name)
}

/// Resolves `Service` with an argument: `try container ~> (PriceFetcher.self, argument: "ETH")`.
public func ~> <Service, Argument>(resolver: some Resolver, service: (Service.Type, argument: Argument)) throws -> Service {
    try resolver.resolve(service.0, name: nil, argument: service.argument)
}

/// Resolves `Service` under a name with an argument.
public func ~> <Service, Argument>(
    resolver: some Resolver, service: (Service.Type, name: String, argument: Argument)
) throws -> Service {
    try resolver.resolve(service.0, name: service.name, argument: service.argument)
}

/// Resolves `Service` with two arguments: `try r ~> (Quote.self, arguments: ("ETH", 2))`.
public func ~> <Service, First, Second>(
    resolver: some Resolver, service: (Service.Type, arguments: (First, Second))
) throws -> Service {
    try resolver.resolve(service.0, name: nil, arguments: service.arguments.0, service.arguments.1)
}

/// Resolves `Service` with three arguments.
public func ~> <Service, First, Second, Third>(
    resolver: some Resolver, service: (Service.Type, arguments: (First, Second, Third))
) throws -> Service {
    try resolver.resolve(service.0, name: nil, arguments: service.arguments.0, service.arguments.1, service.arguments.2)
}
