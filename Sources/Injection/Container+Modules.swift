extension Container {
    /// Lets each module register its services here, in the order given.
    ///
    /// A later module's registration for the same type and name replaces an earlier one.
    public func install(_ modules: any Module...) {
        install(modules)
    }

    /// Lets each module register its services here, in the order of the array.
    ///
    /// A later module's registration for the same type and name replaces an earlier one.
    public func install(_ modules: [any Module]) {
        for module in modules {
            module.register(into: self)
        }
    }
}
