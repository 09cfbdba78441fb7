/// A part of a running command with a lifetime of its own: serve's listener, its feeds,
/// the fleet's Redis client, watch's probes. A ``ServiceGroup`` starts services in
/// order and stops them in the reverse order.
///
/// Unlike swift-service-lifecycle's `run()`, which lasts as long as the service,
/// ``run()`` here returns once the service works (its threads started): the group can
/// then start the next one, which may depend on it. The service's lifetime is the group's.
package protocol Service: Sendable {
    /// What logs and errors call it: "the listener", "the feeds".
    var name: String { get }

    /// Starts the service; returns once it works.
    /// - Throws: ``ServiceError`` when it cannot start (its reason is one line).
    func run() async throws(ServiceError)

    /// Stops what ``run()`` started and waits until its threads, connections and children have ended.
    /// Called once, and only after ``run()`` returned.
    func shutdown() async
}

extension Service {
    package func run() async throws(ServiceError) {}
}

/// Why a service could not start: one line, naming what failed.
package struct ServiceError: Error, Equatable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}

/// A service made of two closures, for parts whose start is already done (made by an
/// initializer) or which need only a stop step.
package struct ServiceStep: Service {
    package let name: String
    private let start: @Sendable () async throws(ServiceError) -> Void
    private let stop: @Sendable () async -> Void

    package init(_ name: String, run start: @escaping @Sendable () async throws(ServiceError) -> Void = {},
                 shutdown stop: @escaping @Sendable () async -> Void) {
        self.name = name
        self.start = start
        self.stop = stop
    }

    package func run() async throws(ServiceError) { try await start() }

    package func shutdown() async { await stop() }
}
