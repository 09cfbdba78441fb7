#!/usr/bin/env bash
# Installs pricehost under a prefix, or removes what it installed.
#
#   bash scripts/install.sh [--prefix DIR] [--build-dir DIR]   # default prefix /usr/local; builds release unless --build-dir
#   bash scripts/install.sh --uninstall [--prefix DIR]
#
# Layout:
#   PREFIX/bin/pricehost
#   PREFIX/lib/pricehost/plugins/lib*.so      found by the binary with no setting (../lib/pricehost/plugins)
#   PREFIX/etc/pricehost/plugins.json          example config (an existing one is kept)
#   PREFIX/etc/pricehost/markets.json          the median of five markets (examples/markets.json; kept likewise)
#   PREFIX/share/pricehost/prices.json         sample prices for the file provider
#   PREFIX/share/pricehost/sdk/                the plugin kit `pricehost new-plugin` builds against: the C header
#                                              (sdk/Sources/CProviderABI/include), the ProviderABI package, the templates
#   PREFIX/share/man/man1/pricehost.1          the man page (man pricehost)
#   PREFIX/share/bash-completion/completions/pricehost, PREFIX/share/zsh/site-functions/_pricehost,
#   PREFIX/share/fish/vendor_completions.d/pricehost.fish
#                                              tab completion, where each shell looks (docs/install.md)
#   PREFIX/lib/pricehost/install-manifest      what was installed, for --uninstall
# The man page and the completion scripts are printed by the pricehost being installed.
# Files are installed 0755/0644 with umask 022: pricehost refuses plugins others can write.
set -euo pipefail
umask 022
cd "$(dirname "$0")/.."

prefix=/usr/local
build_dir=""
uninstall=false
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix=${2:?--prefix needs a directory}; shift 2 ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    --build-dir) build_dir=${2:?--build-dir needs a directory}; shift 2 ;;
    --build-dir=*) build_dir=${1#--build-dir=}; shift ;;
    --uninstall) uninstall=true; shift ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown argument '$1'; see --help" >&2; exit 2 ;;
  esac
done
manifest="$prefix/lib/pricehost/install-manifest"

if $uninstall; then
  if [ ! -f "$manifest" ]; then
    echo "install.sh: nothing to uninstall: $manifest does not exist" >&2
    exit 1
  fi
  while IFS= read -r file; do
    rm -f -- "$file"
  done < "$manifest"
  rm -f -- "$manifest"
  [ -d "$prefix/share/pricehost/sdk" ] && find "$prefix/share/pricehost/sdk" -depth -type d -empty -delete
  for dir in lib/pricehost/plugins lib/pricehost etc/pricehost share/pricehost share/man/man1 share/man \
             share/bash-completion/completions share/bash-completion share/zsh/site-functions share/zsh \
             share/fish/vendor_completions.d share/fish; do
    rmdir -- "$prefix/$dir" 2>/dev/null || true
  done
  echo "removed pricehost from $prefix"
  exit 0
fi

if [ -z "$build_dir" ]; then
  swift build -c release
  build_dir=$(swift build -c release --show-bin-path)
fi
# The market plugins (issue 13); kraken is C, in Plugins/KrakenProvider.
markets="libKrakenProvider.so libBitstampProvider.so libGeminiProvider.so libBinanceProvider.so libCoinGeckoProvider.so"
for file in pricehost libFileProvider.so libPegProvider.so libCoinbaseProvider.so $markets; do
  [ -f "$build_dir/$file" ] || { echo "install.sh: $build_dir/$file is missing; build first" >&2; exit 1; }
done

install -d -m 0755 "$prefix/bin" "$prefix/lib/pricehost/plugins" "$prefix/etc/pricehost" "$prefix/share/pricehost"
installed=()
put() {  # MODE SOURCE TARGET
  install -m "$1" "$2" "$3"
  installed+=("$3")
}
put 0755 "$build_dir/pricehost" "$prefix/bin/pricehost"
for plugin in libFileProvider.so libPegProvider.so libCoinbaseProvider.so $markets; do
  put 0755 "$build_dir/$plugin" "$prefix/lib/pricehost/plugins/$plugin"
done
put 0644 prices.json "$prefix/share/pricehost/prices.json"
# What the binary being installed prints: the man page and the completion scripts, made from its own declarations.
generated() {  # TARGET ARGUMENTS...
  local target=$1
  shift
  install -d -m 0755 "$(dirname "$target")"
  if ! "$build_dir/pricehost" "$@" > "$target.tmp"; then
    rm -f "$target.tmp"
    echo "install.sh: '$build_dir/pricehost $*' failed; nothing more installed" >&2
    exit 1
  fi
  put 0644 "$target.tmp" "$target"
  rm -f "$target.tmp"
}
generated "$prefix/share/man/man1/pricehost.1" __manpage
generated "$prefix/share/bash-completion/completions/pricehost" completions bash
generated "$prefix/share/zsh/site-functions/_pricehost" completions zsh
generated "$prefix/share/fish/vendor_completions.d/pricehost.fish" completions fish
# The plugin kit, in the checkout's layout, so new-plugin finds the same paths in both.
sdk="$prefix/share/pricehost/sdk"
while IFS= read -r file; do
  install -d -m 0755 "$sdk/$(dirname "$file")"
  put 0644 "$file" "$sdk/$file"
done < <(find Sources/CProviderABI Sources/ProviderABI Templates/CProvider Templates/SwiftProvider -type f -not -path '*/.build/*' | sort)
cat > "$sdk/Package.swift.tmp" <<'SWIFT'
// swift-tools-version: 6.2
// pricehost's plugin kit as installed: the ProviderABI product a Swift plugin depends on.
import PackageDescription

let package = Package(
    name: "pricehost",
    products: [.library(name: "ProviderABI", targets: ["ProviderABI"])],
    targets: [
        .target(name: "CProviderABI"),
        .target(name: "ProviderABI", dependencies: ["CProviderABI"]),
    ],
    swiftLanguageModes: [.v6]
)
SWIFT
put 0644 "$sdk/Package.swift.tmp" "$sdk/Package.swift"
rm -f "$sdk/Package.swift.tmp"
config="$prefix/etc/pricehost/plugins.json"
if [ -e "$config" ]; then
  echo "keeping the existing $config"
else
  cat > "$config" <<'JSON'
{
  "plugins": ["libFileProvider.so", "libPegProvider.so", "libCoinbaseProvider.so"],
  "providers": {
    "file": {"path": "../../share/pricehost/prices.json"},
    "coinbase": {"baseURL": "https://api.coinbase.com", "timeoutSeconds": 10, "maxAttempts": 3}
  },
  "defaults": {"provider": "file", "currency": "USD"},
  "assets": {"USDC": {"provider": "peg"}}
}
JSON
  chmod 0644 "$config"
  installed+=("$config")
fi
markets_config="$prefix/etc/pricehost/markets.json"
if [ -e "$markets_config" ]; then
  echo "keeping the existing $markets_config"
else
  put 0644 examples/markets.json "$markets_config"
fi
printf '%s\n' "${installed[@]}" > "$manifest"
echo "installed pricehost in $prefix; try: $prefix/bin/pricehost fetch --config $config --asset BTC"
