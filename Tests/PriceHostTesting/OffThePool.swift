import Foundation

/// Runs `body`, which blocks (a child process, a build), on a thread of its own,
/// not on Swift concurrency's cooperative pool. That pool has as many threads as
/// cores (2 on CI's machine): tests that block it while `pricehost` runs or a
/// plugin builds starve every async test until they are done.
public func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try body() })
        }
    }
}
