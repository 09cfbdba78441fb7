import FoundationEssentials
import PriceHostCore
import ProviderABI

extension FeedGroup {
    /// The tasks that live as long as `link`: its reader, its application ping, its lifetime timer.
    func startTasks(for link: FeedLink) -> [Task<Void, Never>] {
        var tasks = [Task(executorPreference: runner.taskExecutor) { await self.read(link) }]
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

    /// Reads `link`'s messages until it ends. A price or a heartbeat is a sign of life, and the
    /// first one makes the connection live; an acknowledgement, a reply or a pong is not.
    private func read(_ link: FeedLink) async {
        var sequences: [String: Int64] = [:]
        var announced = false
        var end = "the connection ended"
        for await event in link.connection.events {
            switch event {
            case .text(let text):
                let (replies, alive) = handle(text, on: link, sequences: &sequences)
                if alive {
                    noteMessage()
                    if !announced {
                        announced = true
                        continuation.yield(.live(link))
                    }
                }
                for reply in replies {
                    try? await link.connection.send(text: reply)
                }
            case .binary, .pong:
                break
            case .closed(let code, let reason):
                end = "the venue closed the connection (\(code.rawValue)\(reason.isEmpty ? "" : " \(reason)"))"
            case .protocolError(let error):
                end = "the venue broke the WebSocket protocol: \(error)"
            }
        }
        continuation.yield(.ended(link, end))
    }

    /// What the plugin reads in one message, acted on; returns the replies to send, and whether
    /// the message was a price or a heartbeat (a repeated price included: the venue is alive).
    private func handle(_ text: String, on link: FeedLink, sequences: inout [String: Int64]) -> (replies: [String], alive: Bool) {
        runner.countMessage()
        var replies: [String] = []
        var dropQuotes = false
        var alive = false
        for event in runner.stream.read(text, pairs: link.pairs) {
            switch event {
            case .quote(let asset, let currency, let amount, let milliseconds, let bid, let ask):
                alive = true
                guard !dropQuotes else { continue }
                runner.offer(asset: asset, currency: currency, amount: amount, timestampMilliseconds: milliseconds,
                             bid: bid, ask: ask, source: .stream, pairs: link.pairs.requests)
            case .heartbeat:
                alive = true
            case .sequence(let number, let scope):
                if let last = sequences[scope] {
                    if number > last &+ 1 { runner.countGap(scope: scope, expected: last &+ 1, got: number) }
                    if number <= last {
                        dropQuotes = true
                        continue
                    }
                }
                sequences[scope] = number
            case .error(let message):
                continuation.yield(.venueError(link, message))
            case .reconnect(let reason):
                continuation.yield(.handover(link, "the venue asked for a reconnect (\(reason))"))
            case .reply(let reply):
                replies.append(reply)
            }
        }
        return (replies, alive)
    }
}
