#!/usr/bin/env bash
# scripts/npm_progs.sh: Go programs that ship inside npm packages, built with
# Go releases newer than any Debian 12 toolchain, for tests/t_realprogs.sh:
# esbuild (Go 1.26, no .go.buildinfo), tsgo (Go 1.26), buf (Go 1.27);
# and esbuild 0.11.23 (Go 1.16.3, older than any Go in Debian's archive).
# Installed with npm into build/npm (versions pinned; no install scripts
# run). Idempotent; called by scripts/deps.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
DEST=$PWD/build/npm
PKGS="@esbuild/linux-x64@0.28.2 @typescript/native-preview-linux-x64@7.0.0-dev.20260707.2 @bufbuild/buf-linux-x64@1.75.0 esbuild-linux-64@0.11.23"
M=$DEST/node_modules
if [ -x "$M/@esbuild/linux-x64/bin/esbuild" ] && [ -x "$M/@typescript/native-preview-linux-x64/lib/tsgo" ] &&
    [ -x "$M/@bufbuild/buf-linux-x64/bin/buf" ] && [ -x "$M/esbuild-linux-64/bin/esbuild" ]; then
    exit 0
fi
command -v npm >/dev/null || { echo "npm_progs.sh: npm is not installed" >&2; exit 1; }
mkdir -p "$DEST"
# shellcheck disable=SC2086
npm install --prefix "$DEST" --no-save --ignore-scripts --no-audit --no-fund --loglevel=error $PKGS
