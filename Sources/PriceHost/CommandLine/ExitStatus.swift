/// The documented exit statuses of `pricehost`.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Everything asked for was done.
    case success = 0
    /// A fetch failed: the provider could not answer (every asset, when several were asked); `history` had
    /// nothing to answer with (no price, no quotes, no store file) or could not read the store.
    case fetchFailed = 1
    /// The command line is wrong: unknown command or option, bad asset code, unknown provider, a `history`
    /// option the store refuses; or it asks for the quote store the config turns off.
    case usage = 2
    /// The config file or a plugin is wrong, or `check` found a problem; or the quote store cannot be had
    /// (no libsqlite3, a store path that is a directory or cannot be made; for `watch --record`, a file it cannot
    /// write, or quotes printed that it could not keep).
    case configOrPlugin = 3
    /// Several assets were asked and some, not all, failed: the successes are printed.
    case partial = 4
    /// `serve` cannot listen: the address is in use, not this machine's, or needs privileges.
    case listenFailed = 5

    /// What `--help` says of it, in a few words.
    var summary: String {
        switch self {
        case .success: "success"
        case .fetchFailed: "fetch failed"
        case .usage: "usage error"
        case .configOrPlugin: "config or plugin error"
        case .partial: "some of several assets failed"
        case .listenFailed: "serve cannot listen (address in use, …)"
        }
    }

    /// What the man page says of it.
    var meaning: String {
        switch self {
        case .success: "success; a plugin that failed to load but was not needed is only a warning (check is the strict command)"
        case .fetchFailed: "the fetch failed (every asset, when several were asked); history found no price, no quotes or no quote store to read, or could not read it"
        case .usage: "usage error: an unknown command or option, a bad code, --provider naming a provider no plugin provides, no provider configured; "
            + "a history option the store refuses (a time that is not ISO 8601, --from after --to, an unknown --interval, a window past the retention); "
            + "history or watch --record with the quote store turned off"
        case .configOrPlugin: "config or plugin error: no config, a malformed or invalid one, a default or asset naming a provider nothing provides; check found a problem; "
            + "the quote store cannot be had (no libsqlite3; a store path that is a directory; for watch --record, a path that cannot be made, a file it cannot write, or quotes printed that it could not keep)"
        case .partial: "several assets were asked and some, not all, failed; the successes are printed"
        case .listenFailed: "serve cannot listen on its address: in use, not this machine's, or a privileged port"
        }
    }

    /// The status that is no case: `check` ended by a signal, after killing its probes.
    static let signalled = (status: "128+N", summary: "check ended by signal N, after killing its probes",
                            meaning: "check was ended by signal N (SIGTERM 143, SIGINT 130, SIGHUP 129) after killing its probes and everything they started")
}
