#!/usr/bin/env bash
# scripts/npm_progs.sh: Go programs that ship inside npm packages, built with
# Go releases no Debian 12 toolchain has, for tests/programs/t_realprogs.sh and
# tests/rewriter/t_layout.sh:
#   build/npm:        esbuild (Go 1.26, no .go.buildinfo), tsgo (Go 1.26),
#                     buf (Go 1.27), esbuild 0.11.23 (Go 1.16.3);
#   build/npm/go117:  esbuild-linux-64 0.13.15 (Go 1.17.2)
#   build/npm/go118:  esbuild-linux-64 0.14.39 (Go 1.18.1)
#   build/npm/go120:  @esbuild/linux-x64 0.18.20 (Go 1.20.7)
# (no Debian suite carries Go 1.16-1.18 or 1.20); and, not a Go program,
#   build/npm/speedscope: speedscope 1.25.0, the flame graph viewer that
#                     scripts/speedscope_shot.sh opens in headless Chromium
#                     (its dist/release/index.html works offline). Each older esbuild gets a
# prefix of its own: the package names repeat, and one `npm install
# --no-save` into a prefix drops what an earlier one put there. Versions
# pinned; no install scripts run. Idempotent; called by scripts/deps.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
DEST=$PWD/build/npm
# prefix:executable:packages
SETS=".:@esbuild/linux-x64/bin/esbuild,@typescript/native-preview-linux-x64/lib/tsgo,@bufbuild/buf-linux-x64/bin/buf,esbuild-linux-64/bin/esbuild:@esbuild/linux-x64@0.28.2 @typescript/native-preview-linux-x64@7.0.0-dev.20260707.2 @bufbuild/buf-linux-x64@1.75.0 esbuild-linux-64@0.11.23
go117:esbuild-linux-64/bin/esbuild:esbuild-linux-64@0.13.15
go118:esbuild-linux-64/bin/esbuild:esbuild-linux-64@0.14.39
go120:@esbuild/linux-x64/bin/esbuild:@esbuild/linux-x64@0.18.20
speedscope:speedscope/bin/cli.mjs:speedscope@1.25.0"

installed() {
    local prefix=$1 bins=$2 b
    IFS=, read -r -a list <<<"$bins"
    for b in "${list[@]}"; do
        [ -x "$DEST/$prefix/node_modules/$b" ] || return 1
    done
}

while IFS=: read -r prefix bins pkgs; do
    installed "$prefix" "$bins" && continue
    command -v npm >/dev/null || { echo "npm_progs.sh: npm is not installed" >&2; exit 1; }
    mkdir -p "$DEST/$prefix"
    # shellcheck disable=SC2086
    npm install --prefix "$DEST/$prefix" --no-save --ignore-scripts --no-audit --no-fund \
        --loglevel=error $pkgs
done <<<"$SETS"
