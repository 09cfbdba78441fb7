#!/usr/bin/env python3
"""The store benchmark's yardstick: the rows `pricehost __store-bench ingest` wrote, inserted again by
Python's sqlite3 module, as a plain SQLite program would insert them.

    python3 Benchmarks/Scripts/store-ingest.py --rows-from OURS.db --path NEW.db [--batch 10000]

Reads the tables' CREATE statements and every row of `quotes` from OURS.db (in the order they were
recorded: ingest gives each quote its own millisecond), makes NEW.db with the same tables, in WAL mode
with synchronous=NORMAL as the store's writer does, and inserts the same rows with the store's own
`INSERT OR IGNORE`, `executemany` in one transaction per batch of --batch rows (the writer's batch at
100,000 quotes/s: 100 ms of them). The clock runs from the first BEGIN to the last COMMIT; reading the
rows into memory comes before it, as generating the quotes comes before ingest's. Prints one JSON line.
`Benchmarks/run --only store` runs it; it needs nothing but python3.
"""
import argparse, json, os, resource, sqlite3, sys, time

# StoreSchema.insertQuote, to the letter.
INSERT = "INSERT OR IGNORE INTO quotes(series, ts, lag, amount, source) VALUES(?1, ?2, ?3, ?4, ?5)"


def cpu_seconds() -> float:
    """User and system time of this process so far: less moved by other work on the cores than the wall clock."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows-from", required=True, help="a store `__store-bench ingest` wrote")
    parser.add_argument("--path", required=True, help="the new database (must not exist)")
    parser.add_argument("--batch", type=int, default=10_000, help="rows per transaction (default 10,000)")
    options = parser.parse_args()
    if os.path.exists(options.path):
        print(f"store-ingest.py: {options.path} exists; give the path of a new file", file=sys.stderr)
        return 2

    source = sqlite3.connect(f"file:{options.rows_from}?mode=ro", uri=True)
    tables = [sql for (sql,) in source.execute("SELECT sql FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    series = source.execute("SELECT id, asset, currency, origin FROM series ORDER BY id").fetchall()
    rows = source.execute("SELECT series, ts, lag, amount, source FROM quotes ORDER BY ts, series").fetchall()
    source.close()
    if not rows:
        print(f"store-ingest.py: {options.rows_from} holds no quotes", file=sys.stderr)
        return 1

    # isolation_level=None: the module opens no transaction of its own; each batch is BEGIN ... COMMIT here.
    target = sqlite3.connect(options.path, isolation_level=None)
    mode = target.execute("PRAGMA journal_mode=WAL").fetchone()[0]
    target.execute("PRAGMA synchronous=NORMAL")
    target.execute("BEGIN IMMEDIATE")
    for sql in tables:
        target.execute(sql)
    target.executemany("INSERT INTO series(id, asset, currency, origin) VALUES(?1, ?2, ?3, ?4)", series)
    target.execute("COMMIT")

    cpu_at_start = cpu_seconds()
    started = time.perf_counter()
    for start in range(0, len(rows), options.batch):
        target.execute("BEGIN IMMEDIATE")
        target.executemany(INSERT, rows[start:start + options.batch])
        target.execute("COMMIT")
    seconds = time.perf_counter() - started
    cpu = cpu_seconds() - cpu_at_start

    written = target.execute("SELECT count(*) FROM quotes").fetchone()[0]
    target.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    target.close()
    on_disk = sum(os.path.getsize(path) for path in (options.path, options.path + "-wal") if os.path.exists(path))
    print(json.dumps({
        "mode": "python", "quotes": len(rows), "written": written, "batch": options.batch, "seconds": seconds,
        "quotesPerSecond": round(len(rows) / seconds), "cpuSeconds": cpu, "journalMode": mode, "fileBytes": on_disk,
        "sqlite": sqlite3.sqlite_version, "python": sys.version.split()[0],
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
