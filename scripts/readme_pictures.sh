#!/usr/bin/env bash
# scripts/readme_pictures.sh: the README's flame graph and call graph of a
# real program, Debian's gofmt (Go 1.22), instrumented with --call-graph and
# run on four packages of Go's own source. The commands are those of
# tests/gostat/t_callgraph_clients.sh: `gostat folded` (time, the paths through
# main.processFile) into speedscope in headless Chromium
# (scripts/speedscope_shot.sh), and `gostat pprof` into
# `go tool pprof -svg` (graphviz), drawn to PNG by rsvg-convert.
# Writes docs/flamegraph-gofmt.png and docs/callgraph-gofmt.png.
# Needs `make all` and scripts/deps.sh (and npm_progs.sh for speedscope).
set -euo pipefail
cd "$(dirname "$0")/.."
. tests/lib.sh
GO=1.22
GOFMT=$(go_root $GO)/bin/gofmt
SRC=$(go_root $GO)/src/go
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bin/gorewrite --call-graph "$GOFMT" "$tmp/gofmt"
mkdir "$tmp/stats" "$tmp/home"
GOSTAT_DIR=$tmp/stats "$tmp/gofmt" -l "$SRC/ast" "$SRC/printer" "$SRC/build" "$SRC/types" >/dev/null
stats=$(stats_file_for "$tmp/stats")
bin/gostat --callers 'main\.processFile$' "$stats"

# The flame graph: self time per path, the paths through processFile (the
# work per file; the rest is the runtime's idle and GC goroutines).
bin/gostat folded -o "$tmp/gofmt.folded" "$stats"
grep ';main\.processFile' "$tmp/gofmt.folded" >"$tmp/processFile.folded"
bash scripts/speedscope_shot.sh "$tmp/processFile.folded" docs/flamegraph-gofmt.png

# The call graph: time, the functions under processFile with at least 2 %
# of it.
bin/gostat pprof -o "$tmp/gofmt.pb.gz" "$stats"
HOME=$tmp/home go_env $GO "$(go_bin $GO)" tool pprof -svg -sample_index=time \
    -focus='^main\.processFile$' -nodefraction=0.02 -edgefraction=0.01 \
    -output "$tmp/gofmt.svg" "$tmp/gofmt.pb.gz"
rsvg-convert --zoom=1 --background-color=white -o docs/callgraph-gofmt.png "$tmp/gofmt.svg"
ls -l docs/flamegraph-gofmt.png docs/callgraph-gofmt.png
