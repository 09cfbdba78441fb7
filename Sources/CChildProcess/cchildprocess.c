#define _GNU_SOURCE
#include <sys/prctl.h>
#include "cchildprocess.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int cchild_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int cchild_add_chdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int cchild_add_closefrom(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int cchild_wait_exited(pid_t pid) {
    siginfo_t info;
    for (;;) {
        memset(&info, 0, sizeof info);
        if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) == 0) return 0;
        if (errno != EINTR) return -1;
    }
}

int cchild_has_exited(pid_t pid) {
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT | WNOHANG) != 0) return -1;
    return info.si_pid == pid ? 1 : 0;
}

int cchild_die_with_parent(pid_t parent) {
    if (parent <= 0) parent = getppid();
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
    // Ended before the request: reparented to init or a subreaper, and no signal will come.
    return getppid() != parent ? 1 : 0;
}
