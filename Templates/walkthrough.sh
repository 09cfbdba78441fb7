#!/usr/bin/env bash
# Follows PLUGINS.md as a new plugin author would, from a fresh directory
# outside the repository: `pricehost new-plugin` writes the C and the Swift
# template there, each builds with its one command (make; swift build -c
# release), and the walkthrough runs the
# conformance check on each, drops each into a plugin directory and fetches a
# quote from a server on 127.0.0.1. Exits non-zero at the first failure.
#
#   bash Templates/walkthrough.sh [PRICEHOST_BINARY]   (default: .build/debug/pricehost)
set -euo pipefail
umask 022
repo=$(cd "$(dirname "$0")/.." && pwd)
pricehost=${1:-$repo/.build/debug/pricehost}
work=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT

# A price service: GET /{ASSET}-{CURRENCY} answers {"price": "<decimal>"} (the
# templates); GET /v1/ticker?symbol=ASSET-CURRENCY answers PLUGINS.md's worked
# example (it wants the X-API-Key from its settings); 404 otherwise.
cat > "$work/server.py" <<'PY'
import json, sys
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
class Price(BaseHTTPRequestHandler):
    def do_GET(self):
        body, status = b"", 404
        if self.path == "/BTC-USD":
            body, status = b'{"price": "64000.50"}', 200
        elif self.path == "/v1/ticker?symbol=BTC-USD" and self.headers.get("X-API-Key") == "k1":
            now = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
            body, status = json.dumps({"symbol": "BTC-USD", "last": "64000.50", "time": now}).encode(), 200
        elif self.path.startswith("/v1/ticker"):
            body = b'{"error": "unknown symbol"}'
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
server = ThreadingHTTPServer(("127.0.0.1", 0), Price)
print(server.server_address[1], flush=True)
server.serve_forever()
PY
python3 "$work/server.py" > "$work/port" & server=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
url="http://127.0.0.1:$(cat "$work/port")"
mkdir -p "$work/plugins.d"

echo "== C: pricehost new-plugin writes the template with its names, make builds it"
(cd "$work" && "$pricehost" new-plugin template --language c --dir c-plugin)
(cd "$work/c-plugin" && make)
c_plugin="$work/c-plugin/libTemplateProvider.so"

echo "== Swift: pricehost new-plugin writes a package on this checkout's ProviderABI, swift build -c release builds it"
(cd "$work" && "$pricehost" new-plugin swift-template --language swift --dir swift-plugin)
build_swift() {  # DIR: swift build -c release, its output shown only when it fails
  (cd "$1" && swift build -c release > build.log 2>&1) || { cat "$1/build.log" >&2; exit 1; }
}
build_swift "$work/swift-plugin"
swift_plugin="$work/swift-plugin/.build/release/libSwiftTemplateProvider.so"

echo "== PLUGINS.md's worked Swift plugin: its code block in a package from new-plugin, built the same way"
(cd "$work" && "$pricehost" new-plugin example --language swift --dir example-plugin >/dev/null)
awk '/<!-- worked-example/ {found = 1; next} found && /^```swift/ {inside = 1; next} inside && /^```/ {exit} inside {print}' \
    "$repo/PLUGINS.md" > "$work/example-plugin/Sources/ExampleProvider/ExampleProvider.swift"
[ -s "$work/example-plugin/Sources/ExampleProvider/ExampleProvider.swift" ] || { echo "walkthrough: no worked example in PLUGINS.md" >&2; exit 1; }
build_swift "$work/example-plugin"
example_plugin="$work/example-plugin/.build/release/libExampleProvider.so"

cat > "$work/plugins.json" <<JSON
{
  "pluginDirectories": ["plugins.d"],
  "providers": {"template": {"baseURL": "$url"}, "swift-template": {"baseURL": "$url"},
                "example": {"baseURL": "$url", "apiKey": "k1", "maxAttempts": 1}}
}
JSON

for plugin in "$c_plugin" "$swift_plugin" "$example_plugin"; do
  echo "== conformance: $plugin"
  "$pricehost" check --plugin "$plugin" --config "$work/plugins.json"
done

echo "== drop them into the plugin directory and fetch"
cp "$c_plugin" "$swift_plugin" "$example_plugin" "$work/plugins.d/"
for provider in template swift-template example; do
  line=$("$pricehost" fetch --config "$work/plugins.json" --provider "$provider" --asset BTC --format csv | tail -1)
  case "$line" in
    "BTC,USD,64000.5,$provider,"*) echo "ok: $line" ;;
    *) echo "walkthrough: $provider served '$line'" >&2; exit 1 ;;
  esac
done
echo "== the worked example's errors are one line each"
status=0
error=$("$pricehost" fetch --config "$work/plugins.json" --provider example --asset DOGE 2>&1 >/dev/null) || status=$?
[ "$status" = 1 ] && [ "$error" = "pricehost: error: example: HTTP 404: unknown symbol (DOGE-USD)" ] \
  || { echo "walkthrough: example said '$error' (status $status)" >&2; exit 1; }
echo "ok: $error"
echo "walkthrough passed"
