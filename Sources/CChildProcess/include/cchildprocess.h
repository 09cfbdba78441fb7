// What Swift's Glibc module leaves out of process spawning: the GNU extensions
// (pipe2, posix_spawn_file_actions_addchdir_np) and reading siginfo_t's pid.
#ifndef CCHILDPROCESS_H
#define CCHILDPROCESS_H

#include <spawn.h>
#include <sys/types.h>

/// pipe2(fds, O_CLOEXEC): both ends close on exec, so a child spawned by another
/// thread at the same moment never inherits them.
int cchild_pipe_cloexec(int fds[2]);

/// posix_spawn_file_actions_addchdir_np (glibc 2.29 and later).
int cchild_add_chdir(posix_spawn_file_actions_t *actions, const char *path);

/// posix_spawn_file_actions_addclosefrom_np (glibc 2.34 and later): the child
/// closes every descriptor from `lowest` up, so it inherits none that this
/// process opened without close-on-exec (a listening socket, a client's connection).
int cchild_add_closefrom(posix_spawn_file_actions_t *actions, int lowest);

/// Waits until `pid` has exited without reaping it (waitid with WNOWAIT), so its
/// pid stays reserved; retries on EINTR. Returns 0, or -1 with errno set.
int cchild_wait_exited(pid_t pid);

/// 1 when `pid` has exited (not reaped), 0 when it still runs, -1 on error.
int cchild_has_exited(pid_t pid);

/// Asks the kernel to SIGKILL this process when its parent ends (PR_SET_PDEATHSIG), even
/// when the parent is killed with SIGKILL. "Parent" is the thread that spawned this
/// process: the parent must spawn it from a thread that lives until it has reaped it.
/// `parent` is the pid the parent gave (0: the parent now), so that a parent that ended
/// before the request is seen. Returns 0, 1 when the parent has already ended (this process
/// was reparented), or -1.
int cchild_die_with_parent(pid_t parent);

#endif
