#!/usr/bin/env bash
# scripts/old_go.sh: Go 1.15 (the last release with the stack ABI, pclntab
# magic 0xfffffffb) for the tests, from Debian bullseye, unpacked into
# build/toolchains/ (never installed system-wide). The apt source is the
# machine's own (/etc/apt/sources.list.d/debian.sources), with the suite
# changed to bullseye, in a private apt state under build/toolchains/apt:
# no repository host is written here. Idempotent; called by scripts/deps.sh.
# Result: build/toolchains/usr/lib/go-1.15/bin/go (tests/lib.sh go_root).
set -euo pipefail
cd "$(dirname "$0")/.."
DEST=$PWD/build/toolchains
GO=$DEST/usr/lib/go-1.15/bin/go
SUITE=bullseye
PKGS="golang-1.15-go golang-1.15-src"

if [ -x "$GO" ] && [ -f "$DEST/usr/share/go-1.15/src/runtime/proc.go" ]; then
    exit 0
fi
APT=$DEST/apt
mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial" "$APT/debs"
# The first stanza of the system's source (the main archive), suite replaced.
python3 - /etc/apt/sources.list.d/debian.sources "$APT/bullseye.sources" "$SUITE" <<'PY'
import sys
src, dst, suite = sys.argv[1:]
stanza = open(src).read().strip().split("\n\n")[0].split("\n")
out = ["Suites: " + suite if l.startswith("Suites:") else l for l in stanza]
open(dst, "w").write("\n".join(out) + "\n")
PY
opts=(-o "Dir::Etc::sourcelist=$APT/bullseye.sources" -o Dir::Etc::sourceparts=- \
      -o "Dir::State::Lists=$APT/lists" -o "Dir::Cache=$APT/cache" \
      -o Dir::State::status=/dev/null -o APT::Sandbox::User=root -q)
apt-get "${opts[@]}" update >/dev/null
rm -f "$APT/debs"/*.deb
(cd "$APT/debs" && apt-get "${opts[@]}" download $PKGS >/dev/null)
for d in "$APT/debs"/*.deb; do
    dpkg -x "$d" "$DEST"
done
"$GO" version
