#ifndef PRICEHOST_CEVENTPOLL_H
#define PRICEHOST_CEVENTPOLL_H

// epoll(7) and eventfd(2) for serve's event loops: Swift's Glibc module leaves
// <sys/epoll.h> and <sys/eventfd.h> out. Both are in libc: nothing is linked.
#include <sys/epoll.h>
#include <sys/eventfd.h>

#endif
