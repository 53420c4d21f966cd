#!/usr/bin/env bash
# scripts/go_toolchains.sh: Go toolchains that Debian 12 does not ship, for the
# tests: Go 1.15 (the last release with the stack ABI, pclntab magic
# 0xfffffffb) from bullseye, Go 1.25 (golang-1.25-go/-src, 1.25.x) from
# trixie-backports, Go 1.26 and 1.27 (newer than any installed toolchain;
# npm ships programs built with them) from sid. Each is unpacked
# into build/toolchains/ (never installed system-wide). The apt source is
# the machine's own (/etc/apt/sources.list.d/debian.sources) with the suite
# changed, in a private apt state under build/toolchains/apt: no repository
# host is written here. Idempotent; called by scripts/deps.sh.
# Result: build/toolchains/usr/lib/go-1.NN/bin/go (tests/lib.sh go_root).
# No Go 1.16, 1.17, 1.18 or 1.20: no suite of this archive carries them
# (checked 2026-11-21 for 1.16: bullseye, bullseye-updates and
# bullseye-security have 1.15 at most; bullseye-backports, buster and
# buster-backports are no longer in it; bookworm, bookworm-backports,
# trixie, sid and experimental have none). Programs built with them come
# from npm instead (scripts/npm_progs.sh: esbuild).
set -euo pipefail
cd "$(dirname "$0")/.."
DEST=$PWD/build/toolchains
# suite:release
TOOLCHAINS="bullseye:1.15 trixie-backports:1.25 sid:1.26 sid:1.27"

have() {
    [ -x "$DEST/usr/lib/go-$1/bin/go" ] && [ -f "$DEST/usr/share/go-$1/src/runtime/proc.go" ]
}

# fetch SUITE PACKAGES...: downloads and unpacks them into $DEST.
fetch() {
    local suite=$1 apt=$DEST/apt/$1
    shift
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs"
    # The first stanza of the system's source (the main archive), suite replaced.
    python3 - /etc/apt/sources.list.d/debian.sources "$apt/$suite.sources" "$suite" <<'PY'
import sys
src, dst, suite = sys.argv[1:]
stanza = open(src).read().strip().split("\n\n")[0].split("\n")
out = ["Suites: " + suite if l.startswith("Suites:") else l for l in stanza]
open(dst, "w").write("\n".join(out) + "\n")
PY
    local opts=(-o "Dir::Etc::sourcelist=$apt/$suite.sources" -o Dir::Etc::sourceparts=-
                -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
                -o Dir::State::status=/dev/null -o APT::Sandbox::User=root -q)
    apt-get "${opts[@]}" update >/dev/null
    rm -f "$apt/debs"/*.deb
    (cd "$apt/debs" && apt-get "${opts[@]}" download "$@" >/dev/null)
    local d
    for d in "$apt/debs"/*.deb; do
        dpkg -x "$d" "$DEST"
    done
}

for t in $TOOLCHAINS; do
    suite=${t%%:*} v=${t#*:}
    have "$v" && continue
    fetch "$suite" "golang-$v-go" "golang-$v-src"
    "$DEST/usr/lib/go-$v/bin/go" version
done
