/// A group of registrations with a hook for after they are all made (Swinject's `Assembly`).
/// ``Module`` is the same idea without the hook.
public protocol Assembly {
    /// Adds this assembly's registrations to `container`.
    func assemble(container: Container)
    /// Called once every assembly given to the ``Assembler`` at the same time is assembled.
    func loaded(resolver: any Resolver)
}

extension Assembly {
    /// Does nothing.
    public func loaded(resolver: any Resolver) {}
}

/// Applies assemblies to a container (Swinject's `Assembler`).
///
/// ```swift
/// let assembler = Assembler([NetworkingAssembly(), FetchersAssembly()])
/// let fetcher = try assembler.resolver.resolve(PriceFetcher.self, name: "coinbase/BTC")
/// ```
public final class Assembler: Sendable {
    /// The container the assemblies registered into.
    public let container: Container

    /// The container, as a resolver.
    public var resolver: any Resolver { container }

    /// Makes an assembler over `container` (a new one by default) and applies `assemblies`.
    public init(_ assemblies: [any Assembly] = [], container: Container = Container()) {
        self.container = container
        apply(assemblies: assemblies)
    }

    /// Makes an assembler whose container is a child of `parent`'s, and applies `assemblies`.
    public convenience init(_ assemblies: [any Assembly], parent: Assembler) {
        self.init(assemblies, container: Container(parent: parent.container, defaultScope: parent.container.defaultScope))
    }

    /// Applies one assembly: assembles it, then calls its `loaded`.
    public func apply(assembly: any Assembly) {
        apply(assemblies: [assembly])
    }

    /// Assembles each assembly in order, then calls each one's `loaded`.
    public func apply(assemblies: [any Assembly]) {
        for assembly in assemblies {
            assembly.assemble(container: container)
        }
        for assembly in assemblies {
            assembly.loaded(resolver: container)
        }
    }
}
