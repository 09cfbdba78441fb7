#!/usr/bin/env bash
# Networked fetch as a whole process against a loopback server, next to curl
# fetching the same URL in the same run; then 20 assets whose server answers
# each after 200 ms. Prints medians; writes nothing outside a temp directory.
#
#   bash Benchmarks/fetch-vs-curl.sh [RUNS]     (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-30}
swift build -c release >/dev/null
bin=.build/release/pricehost
work=$(mktemp -d)
trap 'kill $fast $slow 2>/dev/null || true; rm -rf "$work"' EXIT

python3 Benchmarks/loopback_spot_server.py 0 >"$work/fast.port" & fast=$!
python3 Benchmarks/loopback_spot_server.py 200 >"$work/slow.port" & slow=$!
for _ in $(seq 50); do [ -s "$work/fast.port" ] && [ -s "$work/slow.port" ] && break; sleep 0.1; done
fast_port=$(cat "$work/fast.port"); slow_port=$(cat "$work/slow.port")

config() {  # PORT
  cat <<JSON
{"plugins": ["libCoinbaseProvider.so"],
 "providers": {"coinbase": {"baseURL": "http://127.0.0.1:$1", "maxConcurrentRequests": 20}},
 "defaults": {"provider": "coinbase"}}
JSON
}
config "$fast_port" >"$work/fast.json"
config "$slow_port" >"$work/slow.json"

median_ms() {  # COMMAND...: runs it $runs times, prints the median wall time in ms
  local times=()
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f\n", m/1000}'
}

"$bin" fetch --config "$work/fast.json" --asset BTC >/dev/null  # warm the page cache
url="http://127.0.0.1:$fast_port/v2/prices/BTC-USD/spot"
curl_ms=$(median_ms curl -s "$url")
fetch_ms=$(median_ms "$bin" fetch --config "$work/fast.json" --asset BTC)
assets=$(printf 'A%s,' $(seq 20)); assets=${assets%,}
floor_runs=$runs
runs=$(( runs < 5 ? runs : 5 ))
many_ms=$(median_ms "$bin" fetch --config "$work/slow.json" --asset "$assets")

# The floors: what a Swift process pays before doing anything, with Foundation
# alone and with FoundationNetworking linked (URLSession lives there).
printf 'import Foundation\nprint(Date().timeIntervalSince1970 > 0)\n' >"$work/foundation.swift"
printf 'import Foundation\nimport FoundationNetworking\nlet session: URLSession.Type = URLSession.self\nprint(session == session)\n' >"$work/networking.swift"
swiftc -O "$work/foundation.swift" -o "$work/foundation" 2>/dev/null
swiftc -O "$work/networking.swift" -o "$work/networking" 2>/dev/null
runs=$floor_runs
floor_ms=$(median_ms "$work/foundation")
networking_floor_ms=$(median_ms "$work/networking")
version_ms=$(median_ms "$bin" --version)

echo "runs per figure: median of $floor_runs (20-asset case: 5)"
echo "floor: hello world importing Foundation:     ${floor_ms} ms"
echo "floor: ... and FoundationNetworking:         ${networking_floor_ms} ms"
echo "pricehost --version:                         ${version_ms} ms"
echo "curl, one GET:                               ${curl_ms} ms"
echo "pricehost fetch --asset BTC, whole process:  ${fetch_ms} ms"
awk -v a="$fetch_ms" -v b="$curl_ms" 'BEGIN {printf "ratio pricehost / curl:                      %.2fx\n", a/b}'
echo "20 assets, server answers each after 200 ms: ${many_ms} ms (one after another: 4000 ms)"
