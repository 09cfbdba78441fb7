/// The documented exit statuses of `pricehost`.
public enum ExitStatus: Int32, Sendable {
    /// Everything asked for was done.
    case success = 0
    /// A fetch failed: the provider could not answer (every asset, when several were asked).
    case fetchFailed = 1
    /// The command line is wrong: unknown command or option, bad asset code, unknown provider.
    case usage = 2
    /// The config file or a plugin is wrong, or `check` found a problem.
    case configOrPlugin = 3
    /// Several assets were asked and some, not all, failed: the successes are printed.
    case partial = 4
    /// `serve` cannot listen: the address is in use, not this machine's, or needs privileges.
    case listenFailed = 5
}
