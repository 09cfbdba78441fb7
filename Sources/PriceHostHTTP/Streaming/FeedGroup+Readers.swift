import FoundationEssentials
import PriceHostCore
import ProviderABI

extension FeedGroup {
    /// The tasks that live as long as `link`: its application ping, its lifetime timer. (Its
    /// messages are read on the connection's thread, by its ``FeedReader``.)
    func startTasks(for link: FeedLink) -> [Task<Void, Never>] {
        var tasks: [Task<Void, Never>] = []
        if let ping = runner.stream.ping {
            tasks.append(Task(executorPreference: runner.taskExecutor) {
                while !Task.isCancelled {
                    try? await self.runner.clock.sleep(for: ping.interval)
                    guard !Task.isCancelled else { return }
                    try? await link.connection.send(text: ping.message)
                }
            })
        }
        if let lifetime = runner.policy.stream.lifetime ?? runner.stream.maximumConnectionLifetime {
            // Start the hand-over early enough for the new connection to go live first.
            let early = min(.seconds(60), lifetime / 10)
            tasks.append(Task(executorPreference: runner.taskExecutor) {
                try? await self.runner.clock.sleep(for: lifetime - early)
                guard !Task.isCancelled else { return }
                self.continuation.yield(.handover(link, "the connection reached its lifetime of \(Durations.seconds(lifetime)) s"))
            })
        }
        return tasks
    }
}
