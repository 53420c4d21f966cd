#!/usr/bin/env bash
# scripts/prometheus.sh: Prometheus 2.42 and promtool (Debian 12's
# prometheus package) for tests/gostat/t_gostat_serve_*.sh, unpacked into
# build/prometheus and never installed: installing the package would start
# a system-wide Prometheus service. The .deb comes from the machine's own
# apt sources (no repository host is written here). Idempotent and quick
# when done; called by scripts/deps.sh.
# Result: build/prometheus/usr/bin/{prometheus,promtool}.
set -euo pipefail
cd "$(dirname "$0")/.."
DEST=$PWD/build/prometheus
VERSION=2.42.0

have() {
    [ -x "$DEST/usr/bin/prometheus" ] &&
        "$DEST/usr/bin/promtool" --version 2>/dev/null | grep -q "version $VERSION"
}

have && exit 0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
download() {
    (cd "$tmp" && apt-get -q -o APT::Sandbox::User=root download prometheus/bookworm >/dev/null)
}
# A machine whose package lists were never fetched has nothing to download.
download || { apt-get update -q >/dev/null && download; }
rm -rf "$DEST"
mkdir -p "$DEST"
dpkg -x "$tmp"/prometheus_*.deb "$DEST"
have || { echo "prometheus.sh: $DEST holds no Prometheus $VERSION" >&2; exit 1; }
"$DEST/usr/bin/promtool" --version | head -1
