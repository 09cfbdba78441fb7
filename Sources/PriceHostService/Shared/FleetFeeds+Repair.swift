import PriceHostCore
import ProviderABI

extension FleetFeeds {
    /// What the fleet keeps in one of its keys, as the `repair` script checks it.
    enum KeyKind: String {
        case list, set, string
        /// A string of digits: the fleet's counter.
        case counter
    }

    /// How long an instance whose keys Redis refuses, and that could not repair them, streams alone.
    static let aloneAfterRefusal: Duration = .seconds(60)

    /// Redis refused a relay or lease call with `message`. Counted in `pricehost_redis_errors_total`;
    /// then every one of `keys` that does not hold what the fleet keeps there is deleted, for the fleet
    /// to write again (a counter deleted starts a new epoch, learnt here at once), and logged once per
    /// key a minute. Returns whether a key was repaired; when none was, the caller tries once more
    /// (another instance may have repaired it meanwhile), then calls ``streamAlone(_:refused:message:key:)``.
    func repair(_ provider: String, refused what: String, message: String, keys: [(key: String, kind: KeyKind)]) async -> Bool {
        metrics.redisFailed()
        let now = String(nowMilliseconds())
        let calls: [RedisCall] = [.script(.repair, keys: keys.map(\.key) + [FleetFeedCodec.epochKey], arguments: keys.map(\.kind.rawValue) + [now]),
                                  .command(["GET", FleetFeedCodec.epochKey])]
        var deleted: [String] = []
        if let replies = try? await client.perform(calls), replies.count == 2 {
            if case .array(let keys?) = replies[0] { deleted = keys.compactMap(\.text) } else { metrics.redisFailed() }
            learnEpoch(from: replies[1])
        }
        if deleted.contains(where: faultyKeys.shouldReport) {
            diagnostics.warning("shared: redis refused \(what) (\(ProviderText.oneLine(message, limit: 200))); "
                + "deleted \(deleted.joined(separator: ", ")), which held the wrong type or value; the fleet writes it again")
        }
        return !deleted.isEmpty
    }

    /// One tick's replies to `SADD` of the pairs (`nil` when there were none to add) and to the lease:
    /// a refusal is repaired; two ticks running with a refusal and nothing to repair (the first time,
    /// another instance may have repaired it meanwhile) and this instance streams alone. Returns
    /// whether the tick goes on.
    func repairRefusals(_ provider: String, pairs: RESPValue?, lease: RESPValue) async -> Bool {
        var refusal: (what: String, message: String, key: String)?
        if case .error(let message)? = pairs {
            let what = "adding to \(provider)'s pairs", key = FleetFeedCodec.pairsKey(provider: provider)
            if await !repair(provider, refused: what, message: message, keys: [(key, .set)]) { refusal = (what, message, key) }
        }
        if case .integer = lease {} else {
            let message = if case .error(let text) = lease { text } else { "an answer that is not a number" }
            let what = "\(provider)'s feed lease", key = FleetFeedCodec.leaseKey(provider: provider)
            if await !repair(provider, refused: what, message: message, keys: [(key, .string)]) { refusal = refusal ?? (what, message, key) }
        }
        let again = state.withLock { state -> Bool in
            defer { state.feeds[provider]?.refused = refusal != nil }
            return state.feeds[provider]?.refused == true
        }
        guard let refusal else { return true }
        if again { streamAlone(provider, refused: refusal.what, message: refusal.message, key: refusal.key) }
        return false
    }

    /// Redis refused a call on `key` twice and nothing could be repaired: this instance streams
    /// `provider` alone for ``aloneAfterRefusal``, as when Redis is down, then tries the fleet again.
    func streamAlone(_ provider: String, refused what: String, message: String, key: String) {
        state.withLock { $0.feeds[provider]?.refusedUntil = clock.now + Self.aloneAfterRefusal }
        guard faultyKeys.shouldReport(key) else { return }
        diagnostics.warning("shared: redis refused \(what) (\(ProviderText.oneLine(message, limit: 200))) and no key of the wrong type was found; "
            + "streaming \(provider) from this instance's own connection for \(Durations.seconds(Self.aloneAfterRefusal)) s")
    }

    /// Whether `provider` streams alone because Redis refused its keys.
    func isRefused(_ provider: String) -> Bool {
        let now = clock.now
        return state.withLock { state in state.feeds[provider]?.refusedUntil.map { now < $0 } ?? false }
    }
}
