import PriceHostCore

extension FleetFeeds {
    /// The fleet's epoch read from Redis now (`SET NX`, then `GET`: the first instance sets it), and
    /// learnt; bounded by the client's command timeout. For a resume on an instance whose feed loop
    /// has not run yet (no /v1/stream client so far), and at start.
    @discardableResult
    package func loadFleetEpoch() async -> UInt64? {
        let now = String(nowMilliseconds())
        if let replies = try? await client.perform([.command(["SET", FleetFeedCodec.epochKey, now, "NX"]), .command(["GET", FleetFeedCodec.epochKey])]),
           replies.count == 2 {
            learnEpoch(from: replies[1])
        }
        return fleetEpoch
    }

    /// Learns the epoch as soon as Redis answers (every ``tick`` until then), so that ids given by
    /// other instances are known here before any client of this one asks; cancelled by ``stop()``.
    func learnEpochAtStart() {
        let task = Task { [weak self] in
            while !Task.isCancelled {
                guard let self, await self.loadFleetEpoch() == nil else { return }
                try? await clock.sleep(for: Self.tick)
            }
        }
        state.withLock { $0.startup = task }
    }

    /// The fleet's epoch, from the replies to `SET NX` and `GET` of its key: set by the first instance,
    /// read by every other, and made anew if Redis lost it (a restart without persistence restarts the
    /// counter too, so a new epoch keeps ids from repeating). A new epoch forgets what was delivered.
    func learnEpoch(from reply: RESPValue) {
        guard let text = reply.text, let value = UInt64(text) else { return }
        let changed = epoch.withLock { epoch in
            defer { epoch = value }
            return epoch != nil && epoch != value
        }
        if changed {
            state.withLock { state in
                for provider in state.feeds.keys { state.feeds[provider]?.delivered = [:] }
            }
        }
    }
}
