#ifndef PRICEHOST_BENCHMARK_CEPOLL_H
#define PRICEHOST_BENCHMARK_CEPOLL_H

#include <sys/epoll.h>

#endif
