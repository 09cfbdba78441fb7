#!/usr/bin/env python3
"""How many slow stream events the store's writer adds: those sent while a batch ran or just after it, beyond the
rate of slow events the rest of the time.

A round's p99 swings with the host; what the writer causes comes while its batches run and while the stream catches
up after them, and the host's noise falls anywhere. So, over the recording rounds: the slow events sent from a batch's
start to 15 ms after its end (each batch's own logged times), less what the rate of slow events outside those windows
predicts for them, per 100 batches.

Usage, from the repository (BENCHMARKS.md, "The writer paces a batch"):

    git apply Benchmarks/Scripts/store-stream-phase.patch    # a build that logs; never commit it
    rm -f /tmp/batches.log /tmp/slow.*
    PH_BATCH_LOG=/tmp/batches.log PH_SLOW_LOG=/tmp/slow bash Benchmarks/run --only store-stream
    python3 Benchmarks/Scripts/store-stream-phase.py /tmp/batches.log /tmp/slow.*
    git apply -R Benchmarks/Scripts/store-stream-phase.patch

(`Benchmarks/run` builds both packages under umask 022 and passes `PH_*` through to serve.) The patch makes serve's
writer append "start end count" (CLOCK_MONOTONIC ns) per batch to $PH_BATCH_LOG, and the benchmark's SSE client
write, per reading thread, its timed range and sample count, then "sent latency" (ns) for each event slower than
0.25 ms, to $PH_SLOW_LOG.<pid>.<time>. Rounds with the store off have no batches and are skipped.
"""
import bisect
import sys


TAIL_NS = 15_000_000


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
        within = batches[bisect.bisect_left(starts, first):bisect.bisect_right(starts, last)]
        if within:
            rounds.append((events, first, last, [(start, end + TAIL_NS) for start, end, _ in within]))
    if not rounds:
        sys.exit("no recording round: no batch fell within any slow log's time")
    batch_count = sum(len(windows) for _, _, _, windows in rounds)
    print(f"{len(rounds)} recording rounds, {batch_count} batches")
    for threshold_ms in (0.4, 0.7):
        threshold = threshold_ms * 1_000_000
        inside = outside = 0
        time_inside = time_outside = 0
        for events, first, last, windows in rounds:
            covered = sum(min(end, last) - max(start, first) for start, end in windows if end > first and start < last)
            time_inside += covered
            time_outside += (last - first) - covered
            window_starts = [start for start, _ in windows]
            for sent, latency in events:
                if latency <= threshold:
                    continue
                index = bisect.bisect_right(window_starts, sent) - 1
                if index >= 0 and sent <= windows[index][1]:
                    inside += 1
                else:
                    outside += 1
        expected = outside / time_outside * time_inside if time_outside else 0
        share = time_inside / (time_inside + time_outside)
        print(f"> {threshold_ms} ms: the batches and 15 ms after each cover {share:.1%} of the time and hold {inside} slow "
              f"events, {expected:.0f} at the rate outside them: {(inside - expected) * 100 / batch_count:.0f} added per 100 batches")


if __name__ == "__main__":
    main(sys.argv[1:])
