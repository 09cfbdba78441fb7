/// A Lua script run atomically inside Redis, called by its SHA-1 with `EVALSHA`.
/// The client loads every script with `SCRIPT LOAD` when it connects and keeps the
/// SHA-1 Redis answers; a Redis that forgot it (restarted, `SCRIPT FLUSH`) answers
/// `NOSCRIPT`, and the call is sent again as `EVAL` with the source, which loads it.
struct RedisScript: Sendable, Hashable {
    /// What the script is for, and how the client files its SHA-1.
    package let name: String
    /// The Lua source.
    package let source: String

    init(_ name: String, _ source: String) {
        self.name = name
        self.source = source
    }

    /// The scripts the fleet uses.
    static let all = [acquire, store, release, renew, takeToken, holdLease, relay, repair]

    /// KEYS: lease. ARGV: token, ms. The feed's lease (`SET NX PX`, renewed by its holder):
    /// 1 renewed (ours), 2 taken (it was free), 0 another instance holds it.
    static let holdLease = RedisScript("holdLease", """
        local holder = redis.call('GET', KEYS[1])
        if holder == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
        if not holder then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 2 end
        return 0
        """)

    /// KEYS: lease, the fleet's counter, the pair's kept events. ARGV: token, payload, channel,
    /// events kept, ms kept. Only the lease's holder relays: numbers the event, keeps it, publishes
    /// it; returns its number, or 0 when the lease is not the caller's.
    static let relay = RedisScript("relay", """
        if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
        local sequence = redis.call('INCR', KEYS[2])
        local event = sequence .. ' ' .. ARGV[2]
        redis.call('RPUSH', KEYS[3], event)
        redis.call('LTRIM', KEYS[3], -tonumber(ARGV[4]), -1)
        redis.call('PEXPIRE', KEYS[3], ARGV[5])
        redis.call('PUBLISH', ARGV[3], event)
        return sequence
        """)

    /// KEYS: the fleet's keys to check, then the epoch. ARGV: what each must hold (`list`, `set`,
    /// `string`, or `counter`: a string of digits), then the time in ms. Deletes each key that holds
    /// something else, for the fleet to write again, and returns the keys it deleted. A counter
    /// deleted starts again from 1, so the epoch becomes the time given: ids never repeat.
    static let repair = RedisScript("repair", """
        local deleted = {}
        for index = 1, #KEYS - 1 do
          local kind = redis.call('TYPE', KEYS[index])
          kind = type(kind) == 'table' and kind.ok or kind
          local wanted = ARGV[index] == 'counter' and 'string' or ARGV[index]
          local bad = kind ~= 'none' and kind ~= wanted
          if not bad and kind == 'string' and ARGV[index] == 'counter' then
            bad = string.match(redis.call('GET', KEYS[index]), '^%d+$') == nil
          end
          if bad then
            redis.call('DEL', KEYS[index])
            deleted[#deleted + 1] = KEYS[index]
            if ARGV[index] == 'counter' then redis.call('SET', KEYS[#KEYS], ARGV[#ARGV]) end
          end
        end
        return deleted
        """)

    /// KEYS: value, lock. ARGV: lock token, lock ms, "1" to ignore the value (it was corrupt).
    /// `{1, value, pttl}` when a value is there; else `{2}` when the lock was taken (fetch it);
    /// else `{3}` (another instance fetches: wait). A key of the wrong type is deleted.
    static let acquire = RedisScript("acquire", """
        local kind = redis.call('TYPE', KEYS[1])
        kind = type(kind) == 'table' and kind.ok or kind
        if kind == 'string' and ARGV[3] ~= '1' then
          return {1, redis.call('GET', KEYS[1]), redis.call('PTTL', KEYS[1])}
        end
        if kind ~= 'string' and kind ~= 'none' then redis.call('DEL', KEYS[1]) end
        if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then return {2} end
        return {3}
        """)

    /// KEYS: value, lock. ARGV: value, ms to keep it, lock token. Stores, then releases the lock if it is still ours.
    package static let store = RedisScript("store", """
        redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
        if redis.call('GET', KEYS[2]) == ARGV[3] then redis.call('DEL', KEYS[2]) end
        return 1
        """)

    /// KEYS: lock. ARGV: lock token. Releases the lock if it is still ours.
    package static let release = RedisScript("release", """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
        return 0
        """)

    /// KEYS: lock. ARGV: lock token, ms. Extends the lock while its holder still fetches.
    static let renew = RedisScript("renew", """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
        return 0
        """)

    /// KEYS: bucket. ARGV: tokens per second, burst. A token bucket on Redis's clock,
    /// shared by the fleet: takes one token and returns the milliseconds to wait for it
    /// (0: go now). Tokens are reserved in arrival order, as the local bucket does.
    /// A bucket that is not a hash of numbers (bad data) starts again full.
    static let takeToken = RedisScript("takeToken", """
        local rate = tonumber(ARGV[1])
        local burst = tonumber(ARGV[2])
        local clock = redis.call('TIME')
        local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
        local kind = redis.call('TYPE', KEYS[1])
        kind = type(kind) == 'table' and kind.ok or kind
        local tokens, at = nil, nil
        if kind == 'hash' then
          local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
          tokens = tonumber(state[1])
          at = tonumber(state[2])
        elseif kind ~= 'none' then
          redis.call('DEL', KEYS[1])
        end
        if tokens == nil or at == nil or tokens ~= tokens or tokens > burst or at > now then
          tokens = burst
          at = now
        end
        tokens = math.min(burst, tokens + (now - at) / 1000 * rate) - 1
        redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
        redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate * 1000) + 1000)
        if tokens >= 0 then return 0 end
        return math.ceil(-tokens / rate * 1000)
        """)
}
