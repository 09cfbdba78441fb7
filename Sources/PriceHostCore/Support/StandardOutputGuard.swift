import Glibc

/// Keeps plugins off the data channel.
enum StandardOutputGuard {
    /// Moves the data channel off file descriptor 1: pricehost's data goes to a
    /// duplicate of the original stdout, and descriptor 1 is pointed at stderr.
    /// A plugin that prints, to stdout or by `printf`, then lands among the
    /// diagnostics and can never forge a data line. Runs once, on first use of
    /// `LineOutput.standardOutput`; the app touches it before loading any plugin.
    static func moveDataChannelOffDescriptorOne() -> Int32 {
        let data = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
        guard data >= 0 else { return STDOUT_FILENO }
        _ = dup2(STDERR_FILENO, STDOUT_FILENO)
        return data
    }
}
