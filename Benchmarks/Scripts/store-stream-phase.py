#!/usr/bin/env python3
"""How many slow stream events the store's writer adds, counted by when they were sent after a batch began.

A round's p99 swings with the host; what the writer causes comes in the milliseconds after each of its batches
begins, and the host's noise falls anywhere. So: the slow events sent in a batch's first 20 ms, less a third of
those sent 40 to 100 ms after it began (the same span of time, away from the batch), per 100 batches.

Usage, from the repository (BENCHMARKS.md, "The writer paces a batch"):

    git apply Benchmarks/Scripts/store-stream-phase.patch    # a build that logs; never commit it
    swift build -c release && swift build -c release --package-path Benchmarks
    rm -f /tmp/batches.log /tmp/slow.*
    PH_BATCH_LOG=/tmp/batches.log PH_SLOW_LOG=/tmp/slow \\
        "$(swift build -c release --package-path Benchmarks --show-bin-path)/pricehost-benchmark" --only store-stream
    python3 Benchmarks/Scripts/store-stream-phase.py /tmp/batches.log /tmp/slow.*
    git apply -R Benchmarks/Scripts/store-stream-phase.patch

The patch makes serve's writer append "start end count" (CLOCK_MONOTONIC ns) per batch to $PH_BATCH_LOG, and the
benchmark's SSE client write, per reading thread, its timed range and sample count, then "sent latency" (ns) for each
event slower than 0.25 ms, to $PH_SLOW_LOG.<pid>.<time>. Rounds with the store off have no batches and are skipped.
"""
import bisect
import sys


def main(arguments):
    if len(arguments) < 2:
        sys.exit("usage: store-stream-phase.py BATCH_LOG SLOW_LOG...")
    with open(arguments[0]) as file:
        batches = sorted(tuple(map(int, line.split())) for line in file if line.strip())
    starts = [batch[0] for batch in batches]
    rounds = []
    for path in arguments[1:]:
        with open(path) as file:
            lines = file.read().split("\n")[1:]
        events = [tuple(map(int, line.split())) for line in lines if line.strip()]
        if not events:
            continue
        first, last = min(sent for sent, _ in events), max(sent for sent, _ in events)
        count = bisect.bisect_right(starts, last) - bisect.bisect_left(starts, first)
        if count:
            rounds.append((events, count))
    if not rounds:
        sys.exit("no recording round: no batch fell within any slow log's time")
    batch_count = sum(count for _, count in rounds)
    print(f"{len(rounds)} recording rounds, {batch_count} batches")
    for threshold_ms in (0.3, 0.4, 0.7):
        threshold = threshold_ms * 1_000_000
        near = far = slow = 0
        for events, _ in rounds:
            for sent, latency in events:
                if latency <= threshold:
                    continue
                index = bisect.bisect_right(starts, sent) - 1
                if index < 0:
                    continue
                slow += 1
                phase_ms = (sent - starts[index]) / 1_000_000
                if phase_ms < 20:
                    near += 1
                elif 40 <= phase_ms < 100:
                    far += 1
        added = (near - far / 3) * 100 / batch_count
        print(f"> {threshold_ms} ms: {slow} slow events, {near} in a batch's first 20 ms, "
              f"{far / 3:.0f} a 20 ms span away from it: {added:.0f} added per 100 batches")


if __name__ == "__main__":
    main(sys.argv[1:])
