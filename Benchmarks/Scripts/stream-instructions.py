#!/usr/bin/env python3
"""Instructions per ticker of `pricehost serve` streaming Coinbase tickers to one SSE client.

Runs release `pricehost serve` under `valgrind --tool=callgrind` twice, sending N1 and
then N2 tickers (the stream benchmark's Coinbase `ticker` message, from a WebSocket venue
here, to one client of /v1/stream?asset=BTC), and prints (total(N2) - total(N1)) / (N2 - N1):
the instructions one ticker costs from the venue's frame to the SSE write, start-up and
shutdown cancelled out. Instruction counts do not depend on the machine's load, so this is
the figure to compare while the cores are shared; wall-clock bars stay in Benchmarks/run.

    python3 Benchmarks/Scripts/stream-instructions.py [--n1 2000] [--n2 12000] [--keep DIR]

Needs `swift build -c release` first (umask 022), and valgrind. The callgrind files are
kept in --keep DIR (default: a temporary directory, printed) for callgrind_annotate.
"""
import argparse, base64, hashlib, json, os, re, socket, subprocess, sys, tempfile, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RELEASE = os.path.join(ROOT, ".build", "release")
SHIM = ""
GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
TIME = "2026-11-27T12:00:00.283114Z"
TEMPLATE = ('{"type":"ticker","sequence":%d,"product_id":"BTC-USD","price":"64000.%08d","open_24h":"63210.45",'
            '"volume_24h":"8123.45678901","low_24h":"62980.00","high_24h":"64512.77","volume_30d":"301245.98765432",'
            '"best_bid":"64000.09","best_bid_size":"0.41002311","best_ask":"64000.10","best_ask_size":"0.02011870",'
            '"side":"buy","time":"' + TIME + '","trade_id":%d,"last_size":"0.00512000"}')


def build_shim(workdir: str) -> str:
    """valgrind 3.19 writes into the mask passed to sigsuspend, and dispatch_main (serve's main
    thread parks there) passes one in read-only memory: valgrind then dies of SIGSEGV. The shim
    hands the kernel a writable copy."""
    source, library = os.path.join(workdir, "sigsuspend-shim.c"), os.path.join(workdir, "sigsuspend-shim.so")
    with open(source, "w") as f:
        f.write("#define _GNU_SOURCE\n#include <signal.h>\n#include <unistd.h>\n#include <sys/syscall.h>\n"
                "int sigsuspend(const sigset_t *mask) { sigset_t copy = *mask; return (int)syscall(SYS_rt_sigsuspend, &copy, 8); }\n")
    subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", library, source], check=True)
    return library


def frame(payload: bytes) -> bytes:
    n = len(payload)
    head = bytes([0x81, n]) if n < 126 else bytes([0x81, 126, n >> 8, n & 0xFF])
    return head + payload


def ticker(number: int) -> bytes:
    return frame((TEMPLATE % (100_000_000_000 + number, number + 1, 1_000_000_000 + number)).encode())


def read_until(sock, marker: bytes) -> bytes:
    data = b""
    while marker not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise SystemExit("connection ended early")
        data += chunk
    return data


def run(tickers: int, out: str, workdir: str) -> int:
    venue = socket.socket()
    venue.bind(("127.0.0.1", 0))
    venue.listen(1)
    config = os.path.join(workdir, "serve.json")
    with open(config, "w") as f:
        json.dump({"plugins": [os.path.join(RELEASE, "libCoinbaseProvider.so")],
                   "providers": {"coinbase": {"baseURL": "http://127.0.0.1:9", "maxAttempts": 1, "timeoutSeconds": 5,
                                              "stream": True, "streamURL": "ws://127.0.0.1:%d/" % venue.getsockname()[1],
                                              "staleAfterSeconds": 600}},
                   "defaults": {"provider": "coinbase"}}, f)
    errors = open(os.path.join(workdir, "serve.err"), "w+")
    serve = subprocess.Popen(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                              os.path.join(RELEASE, "pricehost"), "serve", "--listen", "127.0.0.1:0", "--config", config],
                             stderr=errors, env=dict(os.environ, PRICEHOST_LOG="warning", LD_PRELOAD=SHIM))
    port = None
    for _ in range(6000):
        errors.seek(0)
        found = re.search(r"serving on http://127\.0\.0\.1:(\d+)", errors.read())
        if found:
            port = int(found.group(1))
            break
        time.sleep(0.02)
    if port is None:
        serve.kill()
        raise SystemExit("serve did not start; see " + errors.name)
    client = socket.create_connection(("127.0.0.1", port))
    client.sendall(b"GET /v1/stream?asset=BTC HTTP/1.1\r\nHost: x\r\n\r\n")
    feed, _ = venue.accept()
    head = read_until(feed, b"\r\n\r\n").decode()
    key = re.search(r"(?i)sec-websocket-key: *(\S+)", head).group(1).encode()
    accept = base64.b64encode(hashlib.sha1(key + GUID).digest()).decode()
    feed.sendall(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Accept: %s\r\n\r\n" % accept).encode())
    feed.settimeout(60)
    feed.recv(65536)  # the masked subscribe
    feed.sendall(frame(b'{"type":"subscriptions","channels":[{"name":"ticker","product_ids":["BTC-USD"]}]}'))
    # Ticker 0 until the client has an event, so it is subscribed.
    feed.sendall(ticker(0))
    seen = read_until(client, b"data:")
    # The last ticker's amount as the event writes it (trailing zeros cut), with its closing quote.
    last = ('"amount":"' + ("64000.%08d" % (tickers + 1)).rstrip("0") + '"').encode()
    done = threading.Event()

    def read_client():
        tail = seen
        client.settimeout(900)
        while last not in tail:
            chunk = client.recv(1 << 20)
            if not chunk:
                return
            tail = tail[-200:] + chunk
        done.set()

    reader = threading.Thread(target=read_client)
    reader.start()
    batch = 128
    for start in range(1, tickers + 1, batch):
        feed.sendall(b"".join(ticker(n) for n in range(start, min(tickers, start + batch - 1) + 1)))
    reader.join()
    if not done.is_set():
        raise SystemExit("the SSE stream ended before the last ticker")
    serve.terminate()
    serve.wait(120)
    client.close()
    feed.close()
    venue.close()
    with open(out) as f:
        for line in f:
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    raise SystemExit("no totals in " + out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n1", type=int, default=2000)
    parser.add_argument("--n2", type=int, default=12000)
    parser.add_argument("--keep")
    options = parser.parse_args()
    workdir = options.keep or tempfile.mkdtemp(prefix="stream-instructions.")
    os.makedirs(workdir, exist_ok=True)
    global SHIM
    SHIM = build_shim(workdir)
    first = run(options.n1, os.path.join(workdir, "callgrind.%d" % options.n1), workdir)
    second = run(options.n2, os.path.join(workdir, "callgrind.%d" % options.n2), workdir)
    per = (second - first) / (options.n2 - options.n1)
    print("instructions: %d tickers %d, %d tickers %d; per ticker %.0f (callgrind files in %s)"
          % (options.n1, first, options.n2, second, per, workdir))


if __name__ == "__main__":
    main()
