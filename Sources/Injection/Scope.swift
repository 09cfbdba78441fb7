/// How long an instance made by a registration's factory lives, and who shares it.
///
/// The default for every registration is ``graph``.
public enum Scope: Sendable, Hashable {
    /// A new instance on every resolve.
    case transient
    /// One instance per top-level resolution: every service resolved while building the
    /// object graph of one `resolve` call shares it. The default.
    ///
    /// A registration that takes an argument is made anew for every resolve in this scope,
    /// because two resolves in one graph may pass different arguments.
    case graph
    /// One instance per container that holds the registration, made lazily by the first
    /// resolve, exactly once even when several threads ask at the same moment.
    ///
    /// The instance belongs to the registering container and its factory resolves its
    /// dependencies there, even when a child container asks for it. The service type must be
    /// `Sendable` because the instance is shared across threads; registering a non-`Sendable`
    /// type in this scope stops the program. A factory that throws caches nothing: the next
    /// resolve runs it again.
    ///
    /// A dependency cycle through singletons is reported as an error on one thread; if two
    /// threads start the cycle from opposite ends at the same moment, each waits for the
    /// other's singleton instead.
    case singleton
    /// Shared while something else holds a strong reference to it, then made anew.
    ///
    /// Like ``singleton`` the instance belongs to the registering container and the type must
    /// be `Sendable`. Only class instances can be held weakly: a value-type instance is not
    /// kept, so for values this scope behaves as ``transient``.
    case weak
}
