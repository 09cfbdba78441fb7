// Build and run: gcc -O2 -pthread Benchmarks/Scripts/stream-floor.c -o /tmp/stream-floor && (ulimit -n 8192; /tmp/stream-floor)
// The floor of the stream benchmark's 1,000-client case on this machine: two sender threads (as serve has
// two stream writers for 1,000 clients) write a 450-byte event to 500 loopback TCP sockets each, 200 events
// a second; two epoll threads read them (as the benchmark's clients do) and record each event's latency
// (CLOCK_MONOTONIC when the event was due to the recv). No pricehost: what the kernel and the cores give for
// the same sends and reads, with nothing else to do (BENCHMARKS.md, "The floor under the 1,000-client bar").
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <errno.h>

enum { CLIENTS = 1000, EVENTS = 600, SIZE = 450, THREADS = 2, WRITERS = 2 };
static int servers[CLIENTS], clients[CLIENTS];
static double samples[CLIENTS * EVENTS];
static volatile long count;
static volatile int done;
static int64_t stamps[EVENTS];

static int64_t now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1000000000LL + t.tv_nsec; }

/* Each client's message in progress: a recv may end inside one, so messages are put together per socket. */
static char held[CLIENTS][SIZE];
static int heldBytes[CLIENTS];
static volatile long shortSends, badIDs;

static void *reader(void *arg) {
    int index = (int)(intptr_t)arg;
    int ep = epoll_create1(0);
    for (int i = index; i < CLIENTS; i += THREADS) {
        struct epoll_event e = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
        epoll_ctl(ep, EPOLL_CTL_ADD, clients[i], &e);
    }
    struct epoll_event events[256];
    while (!done) {
        int n = epoll_wait(ep, events, 256, 100);
        for (int k = 0; k < n; k++) {
            int i = (int)events[k].data.u32;
            ssize_t got;
            while ((got = recv(clients[i], held[i] + heldBytes[i], SIZE - heldBytes[i], MSG_DONTWAIT)) > 0) {
                heldBytes[i] += (int)got;
                if (heldBytes[i] < SIZE) continue;
                heldBytes[i] = 0;
                int id; memcpy(&id, held[i], sizeof id);
                if (id < 0 || id >= EVENTS) { __sync_fetch_and_add(&badIDs, 1); continue; }
                long slot = __sync_fetch_and_add(&count, 1);
                if (slot < CLIENTS * EVENTS) samples[slot] = (now() - stamps[id]) / 1e6;
            }
        }
    }
    return NULL;
}

struct part { int from, to, id; };
static pthread_barrier_t start, end;
static volatile int current;
static void *writer(void *arg) {
    struct part *p = arg;
    char message[SIZE];
    memset(message, 'x', SIZE);
    for (;;) {
        pthread_barrier_wait(&start);
        if (done) return NULL;
        int id = current;
        memcpy(message, &id, sizeof id);
        for (int i = p->from; i < p->to; i++) {
            /* A short send would split the framing: blocking sends, counted when they come short. */
            if (send(servers[i], message, SIZE, MSG_NOSIGNAL) != SIZE) __sync_fetch_and_add(&shortSends, 1);
        }
        pthread_barrier_wait(&end);
    }
}

static int compare(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return x < y ? -1 : x > y; }

int main(void) {
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    bind(listener, (struct sockaddr *)&address, sizeof address);
    socklen_t length = sizeof address;
    getsockname(listener, (struct sockaddr *)&address, &length);
    listen(listener, 1024);
    int one = 1;
    for (int i = 0; i < CLIENTS; i++) {
        clients[i] = socket(AF_INET, SOCK_STREAM, 0);
        if (connect(clients[i], (struct sockaddr *)&address, sizeof address) != 0) { perror("connect"); return 1; }
        servers[i] = accept(listener, NULL, NULL);
        setsockopt(servers[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    pthread_t readers[THREADS], writers[WRITERS];
    for (int t = 0; t < THREADS; t++) pthread_create(&readers[t], NULL, reader, (void *)(intptr_t)t);
    pthread_barrier_init(&start, NULL, WRITERS + 1);
    pthread_barrier_init(&end, NULL, WRITERS + 1);
    struct part parts[WRITERS];
    for (int w = 0; w < WRITERS; w++) {
        parts[w] = (struct part){.from = w * CLIENTS / WRITERS, .to = (w + 1) * CLIENTS / WRITERS, .id = w};
        pthread_create(&writers[w], NULL, writer, &parts[w]);
    }
    int64_t begin = now();
    for (int e = 0; e < EVENTS; e++) {
        int64_t due = begin + (int64_t)e * 5000000;
        while (now() < due) { struct timespec s = {0, 100000}; nanosleep(&s, NULL); }
        stamps[e] = now();
        current = e;
        pthread_barrier_wait(&start);
        pthread_barrier_wait(&end);
    }
    usleep(500000);
    done = 1;
    pthread_barrier_wait(&start);
    for (int t = 0; t < THREADS; t++) pthread_join(readers[t], NULL);
    long n = count < CLIENTS * EVENTS ? count : CLIENTS * EVENTS;
    if (n == 0) { fprintf(stderr, "no event was received\n"); return 1; }
    if (shortSends || badIDs) fprintf(stderr, "%ld short sends, %ld messages out of frame\n", shortSends, badIDs);
    qsort(samples, n, sizeof(double), compare);
    printf("samples %ld of %d; p50 %.2f p90 %.2f p99 %.2f max %.2f ms\n", n, CLIENTS * EVENTS,
           samples[n / 2], samples[n * 9 / 10], samples[n * 99 / 100], samples[n - 1]);
    return 0;
}
