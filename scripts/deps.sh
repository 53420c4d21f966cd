#!/usr/bin/env bash
# Installs everything gorewrite's build, tests and demo need on Debian 12.
# Idempotent: a second run only checks. Enables bookworm-backports and trixie
# in the machine's existing apt source (no new host is written) and pins
# trixie low so that only the packages named here come from it.
set -euo pipefail

SOURCES=/etc/apt/sources.list.d/debian.sources
BUILD_PKGS="build-essential pkg-config libzydis-dev libzycore-dev libdwarf-dev libelf-dev"
TEST_PKGS="python3 binutils gdb file valgrind clang-14 libclang-rt-14-dev xz-utils"
# liblief-dev: LIEF 0.9, the tests' independent reader of every output
# (tests/tools/lief_check, built by make tools), and make bench's reference
TEST_PKGS="$TEST_PKGS liblief-dev"
# gostat serve's tests: curl, and prometheus_client's strict OpenMetrics parser
TEST_PKGS="$TEST_PKGS curl python3-prometheus-client"
# the real clients of flame graphs and call graphs (tests/gostat/t_flamegraph_clients.sh):
# graphviz for `go tool pprof -svg`, headless Chromium for speedscope
# (scripts/speedscope_shot.sh; speedscope itself comes from npm_progs.sh)
# (fonts-liberation: the text in both pictures; only recommended by chromium)
TEST_PKGS="$TEST_PKGS graphviz chromium fonts-liberation fonts-dejavu-core"
# scripts/readme_pictures.sh: the call graph's SVG to PNG (rsvg-convert)
TEST_PKGS="$TEST_PKGS librsvg2-bin"
# scripts/stub_profile.py: where the stubs' time goes (perf's CPU-clock
# sampling, which works without hardware counters)
TEST_PKGS="$TEST_PKGS linux-perf"
# make bench-macro's service macro (scripts/bench_service.py): hey, the load
TEST_PKGS="$TEST_PKGS hey"
# gostat's commands: top (ncurses; tmux drives it in the tests), serve
# (libmicrohttpd), pprof (protobuf-c), merge/diff (jansson)
GOSTAT_PKGS="libncurses-dev tmux libmicrohttpd-dev libprotobuf-c-dev protobuf-c-compiler libjansson-dev"
# serve: gzip-compressed replies
GOSTAT_PKGS="$GOSTAT_PKGS zlib1g-dev"
GO_PKGS="golang-1.19-go golang-1.21-go golang-1.22-go golang-1.23-go golang-1.24-go"

need_root() {
    if [ "$(id -u)" != 0 ]; then
        echo "deps.sh: missing packages and not root; run as root: $*" >&2
        exit 1
    fi
}

all_installed() {
    local p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || return 1
    done
}

enable_suites() {
    [ -f "$SOURCES" ] || { echo "deps.sh: $SOURCES not found" >&2; exit 1; }
    # Add the suites to the first Suites: line of the main archive stanza.
    if ! grep -q 'bookworm-backports' "$SOURCES" || ! grep -qw 'trixie' "$SOURCES"; then
        python3 - "$SOURCES" <<'PY'
import sys
path = sys.argv[1]
lines = open(path).read().split("\n")
for i, l in enumerate(lines):
    if l.startswith("Suites:") and " bookworm" in l and "security" not in l:
        words = l.split()[1:]
        for s in ("bookworm-backports", "trixie"):
            if s not in words:
                words.append(s)
        lines[i] = "Suites: " + " ".join(words)
        break
open(path, "w").write("\n".join(lines))
PY
    fi
    cat > /etc/apt/preferences.d/gorewrite-trixie <<'PIN'
Package: *
Pin: release n=trixie
Pin-Priority: 100
PIN
}

PKGS="$BUILD_PKGS $TEST_PKGS $GOSTAT_PKGS $GO_PKGS"
# Steps that do not install Debian packages run every time (each is
# idempotent and quick when done); then the package check below.
extra_steps() {
    bash "$(dirname "$0")/go_toolchains.sh"   # Go 1.15, 1.25, 1.26, 1.27 into build/toolchains
    bash "$(dirname "$0")/npm_progs.sh"       # esbuild (Go 1.16-1.20, 1.26), tsgo, buf into build/npm
    bash "$(dirname "$0")/prometheus.sh"      # Prometheus 2.42 into build/prometheus
    # large Debian Go programs for tests/programs/t_realprogs.sh, and hugo
    # (0.111.3, cgo) for tests/programs/t_hugo.sh
    if ! all_installed rclone restic hugo; then
        need_root rclone restic hugo
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends rclone restic hugo
    fi
}
if all_installed $PKGS; then
    extra_steps
    exit 0
fi
need_root $PKGS
command -v python3 >/dev/null || { apt-get update -q; apt-get install -y -q python3; }
enable_suites
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends $BUILD_PKGS $TEST_PKGS $GOSTAT_PKGS
apt-get install -y -q --no-install-recommends golang-1.19-go
apt-get install -y -q --no-install-recommends -t bookworm-backports golang-1.21-go golang-1.22-go golang-1.23-go
apt-get install -y -q --no-install-recommends -t trixie golang-1.24-go
extra_steps
