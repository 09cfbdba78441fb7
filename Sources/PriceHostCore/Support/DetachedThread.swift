import Glibc

/// Starts threads of our own (a connection's blocking reads must not hold one of
/// Swift concurrency's few cooperative threads).
package enum DetachedThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Runs `body` on a new detached thread with a `stackBytes` stack; false when the system refused one.
    @discardableResult
    package static func start(stackBytes: Int = 512 * 1024, _ body: @escaping @Sendable () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, stackBytes)
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, &attributes, { context in
            guard let context else { return nil }
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        if started != 0 { Unmanaged<Body>.fromOpaque(context).release() }
        return started == 0
    }

    /// Runs blocking `body` on a thread of its own, off Swift concurrency's pool, and returns its value
    /// (on the caller's thread, when no thread could be made).
    package static func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            if !start({ continuation.resume(returning: body()) }) { continuation.resume(returning: body()) }
        }
    }
}
