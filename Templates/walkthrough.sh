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

# A price service: GET /{ASSET}-{CURRENCY} answers {"price": "<decimal>"}; 404 otherwise.
cat > "$work/server.py" <<'PY'
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
class Price(BaseHTTPRequestHandler):
    def do_GET(self):
        body = b'{"price": "64000.50"}' if self.path == "/BTC-USD" else b""
        self.send_response(200 if body else 404)
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
(cd "$work/swift-plugin" && swift build -c release >/dev/null)
swift_plugin="$work/swift-plugin/.build/release/libSwiftTemplateProvider.so"

cat > "$work/plugins.json" <<JSON
{
  "pluginDirectories": ["plugins.d"],
  "providers": {"template": {"baseURL": "$url"}, "swift-template": {"baseURL": "$url"}}
}
JSON

for plugin in "$c_plugin" "$swift_plugin"; do
  echo "== conformance: $plugin"
  "$pricehost" check --plugin "$plugin" --config "$work/plugins.json"
done

echo "== drop both into the plugin directory and fetch"
cp "$c_plugin" "$swift_plugin" "$work/plugins.d/"
for provider in template swift-template; do
  line=$("$pricehost" fetch --config "$work/plugins.json" --provider "$provider" --asset BTC --format csv | tail -1)
  case "$line" in
    "BTC,USD,64000.5,$provider,"*) echo "ok: $line" ;;
    *) echo "walkthrough: $provider served '$line'" >&2; exit 1 ;;
  esac
done
echo "walkthrough passed"
