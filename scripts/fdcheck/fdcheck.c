// fdcheck: an LD_PRELOAD shim that fails a run on a descriptor closed twice.
//
// A descriptor has one owner, and only the owner closes it. A second close usually fails
// quietly with EBADF, but now and then the number has been handed meanwhile to another
// socket, pipe or file of the same process, and that one dies under its owner. This shim
// makes both halves visible:
//   * a close() that fails with EBADF (the visible half of a double close);
//   * a read, write, recv, send, accept, shutdown, poll or epoll call that finds its
//     descriptor closed (EBADF, or POLLNVAL from poll): a use of a closed number.
// Each event is logged with the thread, the current backtrace, and the backtrace of the last
// successful close of that number (usually the culprit). The log of a process is made only
// when it has something to report: FDCHECK_LOG is a path in which %p becomes the pid.
// The process's /proc/self/maps follows each event, so that addresses resolve with
// `addr2line -f -C -e MODULE OFFSET`.
//
// FDCHECK_PROGRAMS, a colon-separated list of executable names (e.g.
// "pricehostPackageTests.xctest:pricehost"), limits the check to those programs: others the
// run starts (the toolchain, Python, redis-server) close descriptors in their own ways.
//
// Build: cc -O1 -g -shared -fPIC -o fdcheck.so fdcheck.c -ldl -lpthread
// scripts/fdcheck/run builds it and runs the suite under it.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define TRACKED 8192   // descriptor numbers whose last close is remembered
#define DEPTH 32       // frames per backtrace
#define MAX_EVENTS 100 // events logged per process; the rest are only counted

typedef struct {
    void *frames[DEPTH];
    int depth;
    pid_t thread;
    double when;
} closing_t;

static closing_t last_close[TRACKED];
static atomic_flag slot_busy[TRACKED];
static atomic_int enabled;          // 1 once the constructor decided this program is checked
static atomic_int events;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static int log_descriptor = -1;
static __thread int inside;         // no checks while the shim itself runs

static int (*real_close)(int);
static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_readv)(int, const struct iovec *, int);
static ssize_t (*real_writev)(int, const struct iovec *, int);
static ssize_t (*real_recv)(int, void *, size_t, int);
static ssize_t (*real_send)(int, const void *, size_t, int);
static ssize_t (*real_recvfrom)(int, void *, size_t, int, struct sockaddr *, socklen_t *);
static ssize_t (*real_sendto)(int, const void *, size_t, int, const struct sockaddr *, socklen_t);
static ssize_t (*real_recvmsg)(int, struct msghdr *, int);
static ssize_t (*real_sendmsg)(int, const struct msghdr *, int);
static int (*real_accept)(int, struct sockaddr *, socklen_t *);
static int (*real_accept4)(int, struct sockaddr *, socklen_t *, int);
static int (*real_shutdown)(int, int);
static int (*real_poll)(struct pollfd *, nfds_t, int);
static int (*real_epoll_ctl)(int, int, int, struct epoll_event *);
static int (*real_epoll_wait)(int, struct epoll_event *, int, int);

#define RESOLVE(name) real_##name = dlsym(RTLD_NEXT, #name)

static double now_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static pid_t thread_id(void) { return (pid_t)syscall(SYS_gettid); }

/// Whether this program is one FDCHECK_PROGRAMS names (all are, without it).
static int program_is_checked(void) {
    const char *programs = getenv("FDCHECK_PROGRAMS");
    if (!programs || !*programs) return 1;
    char exe[4096];
    ssize_t length = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (length <= 0) return 0;
    exe[length] = 0;
    const char *name = strrchr(exe, '/');
    name = name ? name + 1 : exe;
    size_t name_length = strlen(name);
    for (const char *entry = programs; *entry;) {
        const char *end = strchr(entry, ':');
        size_t entry_length = end ? (size_t)(end - entry) : strlen(entry);
        if (entry_length == name_length && strncmp(entry, name, name_length) == 0) return 1;
        if (!end) break;
        entry = end + 1;
    }
    return 0;
}

__attribute__((constructor)) static void fdcheck_start(void) {
    RESOLVE(close); RESOLVE(read); RESOLVE(write); RESOLVE(readv); RESOLVE(writev);
    RESOLVE(recv); RESOLVE(send); RESOLVE(recvfrom); RESOLVE(sendto); RESOLVE(recvmsg); RESOLVE(sendmsg);
    RESOLVE(accept); RESOLVE(accept4); RESOLVE(shutdown); RESOLVE(poll); RESOLVE(epoll_ctl); RESOLVE(epoll_wait);
    // backtrace() loads libgcc_s on its first call: do that now, not inside a wrapper.
    void *warm[2];
    backtrace(warm, 2);
    atomic_store(&enabled, program_is_checked());
}

/// Formats into the log, opening it on the first event.
static void log_text(const char *format, ...) {
    char text[1024];
    va_list arguments;
    va_start(arguments, format);
    int length = vsnprintf(text, sizeof text, format, arguments);
    va_end(arguments);
    if (length <= 0) return;
    if (length >= (int)sizeof text) length = sizeof text - 1;
    if (real_write) real_write(log_descriptor, text, (size_t)length);
}

static int open_log(void) {
    if (log_descriptor >= 0) return 1;
    const char *pattern = getenv("FDCHECK_LOG");
    char path[4096];
    if (!pattern || !*pattern) {
        log_descriptor = 2;
        return 1;
    }
    size_t out = 0;
    for (const char *c = pattern; *c && out < sizeof path - 16; c++) {
        if (c[0] == '%' && c[1] == 'p') {
            out += (size_t)snprintf(path + out, sizeof path - out, "%d", (int)getpid());
            c++;
        } else {
            path[out++] = *c;
        }
    }
    path[out] = 0;
    int opened = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (opened < 0) {
        log_descriptor = 2;
    } else {
        // Far from the numbers the program uses: the log must not take the number just closed.
        log_descriptor = fcntl(opened, F_DUPFD_CLOEXEC, 900);
        if (log_descriptor < 0) log_descriptor = opened; else real_close(opened);
    }
    char exe[1024];
    ssize_t length = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[length > 0 ? length : 0] = 0;
    log_text("# fdcheck log of pid %d, %s\n", (int)getpid(), exe);
    return 1;
}

static void log_frames(void *const *frames, int depth) {
    char **symbols = backtrace_symbols(frames, depth);
    for (int index = 0; index < depth; index++) {
        log_text("    #%-2d %p %s\n", index, frames[index], symbols ? symbols[index] : "");
    }
    free(symbols);
}

static void log_maps(void) {
    int maps = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (maps < 0) return;
    log_text("## maps\n");
    char buffer[4096];
    ssize_t count;
    while ((count = real_read(maps, buffer, sizeof buffer)) > 0) real_write(log_descriptor, buffer, (size_t)count);
    real_close(maps);
    log_text("## end maps\n");
}

/// Logs an event about `descriptor`: what happened, where, and the number's last close.
static void report(const char *what, int descriptor) {
    int count = atomic_fetch_add(&events, 1) + 1;
    if (count > MAX_EVENTS) return;
    inside = 1;
    void *frames[DEPTH];
    int depth = backtrace(frames, DEPTH);
    pthread_mutex_lock(&log_lock);
    open_log();
    log_text("### EVENT %d: %s on descriptor %d, thread %d, at %.6f s\n", count, what, descriptor, (int)thread_id(), now_seconds());
    log_frames(frames, depth);
    if (descriptor >= 0 && descriptor < TRACKED) {
        while (atomic_flag_test_and_set(&slot_busy[descriptor])) {}
        closing_t closing = last_close[descriptor];
        atomic_flag_clear(&slot_busy[descriptor]);
        if (closing.depth > 0) {
            log_text("  its last close: thread %d, at %.6f s\n", (int)closing.thread, closing.when);
            log_frames(closing.frames, closing.depth);
        } else {
            log_text("  its last close: none seen\n");
        }
    }
    log_maps();
    pthread_mutex_unlock(&log_lock);
    inside = 0;
}

static int checking(int descriptor) { return descriptor >= 0 && atomic_load(&enabled) && !inside; }

int close(int descriptor) {
    if (!real_close) RESOLVE(close);
    if (!checking(descriptor)) return real_close(descriptor);
    closing_t closing = {0};
    if (descriptor < TRACKED) {
        inside = 1;
        closing.depth = backtrace(closing.frames, DEPTH);
        inside = 0;
        closing.thread = thread_id();
        closing.when = now_seconds();
    }
    int result = real_close(descriptor);
    int code = errno;
    if (result == 0 && descriptor < TRACKED) {
        while (atomic_flag_test_and_set(&slot_busy[descriptor])) {}
        last_close[descriptor] = closing;
        atomic_flag_clear(&slot_busy[descriptor]);
    } else if (result < 0 && code == EBADF) {
        report("close() failed with EBADF (closed twice?)", descriptor);
    }
    errno = code;
    return result;
}

/// Reports a call on `descriptor` that failed with EBADF, keeping errno.
static void check_use(const char *call, int descriptor, long result) {
    if (result >= 0 || !checking(descriptor)) return;
    int code = errno;
    if (code == EBADF) {
        char what[96];
        snprintf(what, sizeof what, "%s() failed with EBADF (a use of a closed descriptor)", call);
        report(what, descriptor);
    }
    errno = code;
}

#define WRAP(type, name, params, args, descriptor)            \
    type name params {                                        \
        if (!real_##name) RESOLVE(name);                      \
        type result = real_##name args;                       \
        check_use(#name, descriptor, (long)result);           \
        return result;                                        \
    }

WRAP(ssize_t, read, (int fd, void *buffer, size_t count), (fd, buffer, count), fd)
WRAP(ssize_t, write, (int fd, const void *buffer, size_t count), (fd, buffer, count), fd)
WRAP(ssize_t, readv, (int fd, const struct iovec *vector, int count), (fd, vector, count), fd)
WRAP(ssize_t, writev, (int fd, const struct iovec *vector, int count), (fd, vector, count), fd)
WRAP(ssize_t, recv, (int fd, void *buffer, size_t count, int flags), (fd, buffer, count, flags), fd)
WRAP(ssize_t, send, (int fd, const void *buffer, size_t count, int flags), (fd, buffer, count, flags), fd)
WRAP(ssize_t, recvfrom, (int fd, void *buffer, size_t count, int flags, struct sockaddr *from, socklen_t *length),
     (fd, buffer, count, flags, from, length), fd)
WRAP(ssize_t, sendto, (int fd, const void *buffer, size_t count, int flags, const struct sockaddr *to, socklen_t length),
     (fd, buffer, count, flags, to, length), fd)
WRAP(ssize_t, recvmsg, (int fd, struct msghdr *message, int flags), (fd, message, flags), fd)
WRAP(ssize_t, sendmsg, (int fd, const struct msghdr *message, int flags), (fd, message, flags), fd)
WRAP(int, accept, (int fd, struct sockaddr *address, socklen_t *length), (fd, address, length), fd)
WRAP(int, accept4, (int fd, struct sockaddr *address, socklen_t *length, int flags), (fd, address, length, flags), fd)
WRAP(int, shutdown, (int fd, int how), (fd, how), fd)
WRAP(int, epoll_wait, (int fd, struct epoll_event *list, int count, int timeout), (fd, list, count, timeout), fd)

int epoll_ctl(int epoll, int operation, int fd, struct epoll_event *event) {
    if (!real_epoll_ctl) RESOLVE(epoll_ctl);
    int result = real_epoll_ctl(epoll, operation, fd, event);
    if (result < 0 && errno == EBADF) {
        // Either number may be the closed one.
        int code = errno;
        int bad = fcntl(epoll, F_GETFD) < 0 ? epoll : fd;
        errno = code;
        check_use("epoll_ctl", bad, result);
    }
    return result;
}

int poll(struct pollfd *descriptors, nfds_t count, int timeout) {
    if (!real_poll) RESOLVE(poll);
    int result = real_poll(descriptors, count, timeout);
    if (result > 0 && atomic_load(&enabled) && !inside) {
        int code = errno;
        for (nfds_t index = 0; index < count; index++) {
            if (descriptors[index].fd >= 0 && (descriptors[index].revents & POLLNVAL)) {
                report("poll() returned POLLNVAL (a use of a closed descriptor)", descriptors[index].fd);
            }
        }
        errno = code;
    }
    return result;
}
