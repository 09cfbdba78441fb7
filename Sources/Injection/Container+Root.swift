import Glibc
import Synchronization

/// The hook's progress: 0 not run, 1 running, 2 done.
private let registrationHookState = Atomic<Int>(0)
/// The thread running the hook, so that its own use of ``Container/main`` goes through.
private let registrationHookThread = Atomic<UInt>(0)
/// The container the property wrappers resolve from.
private let rootContainer = SpinLock(Container.mainContainer)

/// Registers the application's services the first time ``Container/main`` or
/// ``Container/root`` is used (Resolver's `ResolverRegistering`).
///
/// ```swift
/// extension Container: @retroactive ContainerRegistering {
///     public static func registerAllServices() {
///         main.register(Networking.self, scope: .singleton) { _ in HTTPNetworking() }
///     }
/// }
/// ```
///
/// (`@retroactive` because `Container` and the protocol both come from `Injection`; within
/// this package the attribute is not needed.)
public protocol ContainerRegistering {
    /// Adds the application's registrations, to ``Container/main`` usually. Runs once per
    /// process, before the first use of ``Container/main`` or ``Container/root`` returns;
    /// other threads that use them meanwhile wait.
    static func registerAllServices()
}

extension Container {
    static let mainContainer = Container()

    /// The application's container (Resolver's `Resolver.main`). Its first use runs
    /// ``ContainerRegistering/registerAllServices()`` when `Container` conforms.
    public static var main: Container {
        runRegistrationHookOnce()
        return mainContainer
    }

    /// The container ``Injected``, ``LazyInjected``, ``WeakLazyInjected`` and
    /// ``OptionalInjected`` resolve from: ``main`` unless replaced.
    ///
    /// A test swaps in a child that holds its mocks and puts the root back when done:
    ///
    /// ```swift
    /// let mock = Container(parent: .main)
    /// mock.register(Networking.self) { _ in SimulatedNetworking(answer: "1.00") }
    /// Container.root = mock
    /// defer { Container.root = .main }
    /// ```
    ///
    /// The root is one per process: tests that replace it must not run in parallel with
    /// tests that resolve through it (in Swift Testing, put them in one `.serialized` suite).
    public static var root: Container {
        get {
            runRegistrationHookOnce()
            return rootContainer.withLock { $0 }
        }
        set {
            rootContainer.withLock { $0 = newValue }
        }
    }

    @inline(__always)
    private static func runRegistrationHookOnce() {
        if registrationHookState.load(ordering: .acquiring) != 2 {
            runRegistrationHook()
        }
    }

    @inline(never)
    private static func runRegistrationHook() {
        let thread = UInt(pthread_self())
        if registrationHookState.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged {
            registrationHookThread.store(thread, ordering: .releasing)
            if let registering = (Container.self as Any.Type) as? any ContainerRegistering.Type {
                registering.registerAllServices()
            }
            registrationHookState.store(2, ordering: .releasing)
            return
        }
        // Another thread runs the hook (wait for it), or this one does and is inside it.
        while registrationHookState.load(ordering: .acquiring) == 1 {
            if registrationHookThread.load(ordering: .acquiring) == thread {
                return
            }
            sched_yield()
        }
    }
}
