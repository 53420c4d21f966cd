#!/usr/bin/env bash
# scripts/fuzz.sh: seeds, runs and minimizes the libFuzzer harnesses in
# fuzz/ (built by `make fuzz-build` into build/fuzz/).
#   fuzz.sh seeds            fresh seeds into build/fuzz/seeds/<harness>
#   fuzz.sh run SECONDS [HARNESS...]
#                            fuzz each harness (default: elf rewrite
#                            statsfile profile_json)
#                            SECONDS on one core (nice 19), then merge what
#                            it found into the corpus
#   fuzz.sh corpus [HARNESS...]
#                            rebuild the committed corpus from fresh seeds
#                            only (after the stats-file format changed:
#                            `corpus statsfile` keeps the ELF corpus)
# Each corpus is kept as fuzz/corpus/<harness>.tar.xz: its inputs (Go
# binaries of about 1 MB, stats files of about 80 KB, mostly zero rows)
# differ in a few bytes and compress 20- to 100-fold together. Crash
# reproducers are kept in fuzz/crashes/<harness>/ and replayed forever.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
. tests/lib.sh
B=$ROOT/build/fuzz
SEEDS=$B/seeds
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# Options every run of a harness gets: the input size bound, and a limit
# per allocation so that trusting a size field from the input is a crash.
harness_opts() {
    case $1 in
        elf) echo "-max_len=2500000 -malloc_limit_mb=512 -rss_limit_mb=2048 -timeout=30" ;;
        rewrite) echo "-max_len=2500000 -malloc_limit_mb=512 -rss_limit_mb=2048 -timeout=60" ;;
        statsfile) echo "-max_len=262144 -malloc_limit_mb=64 -rss_limit_mb=1024 -timeout=10" ;;
        profile_json) echo "-max_len=4194304 -malloc_limit_mb=64 -rss_limit_mb=1024 -timeout=10" ;;
    esac
}

# ELF seeds: the seed program built by three Go releases, with and without
# DWARF (-trimpath so the bytes do not depend on the checkout's path).
elf_seeds() {
    local d=$SEEDS/elf v
    rm -rf "$d"; mkdir -p "$d"
    for v in 1.19 1.22 1.24; do
        build_go $v fuzz/seedprog "$d/seed-go$v-stripped" -trimpath "-ldflags=-s -w"
        build_go $v fuzz/seedprog "$d/seed-go$v-dwarf" -trimpath
    done
}

# Stats-file seeds: real files written by instrumented runs of the seed
# program (two counter rows, so a file is ~100 KB), never built by hand, so
# they follow the format in format/gostat_format.h whatever it becomes.
# Goroutine sites' tables small enough for -max_len (the defaults take 2.7 MB).
SITES="--max-goroutine-sites 16 --max-live-goroutines 64"
statsfile_seeds() {
    local d=$SEEDS/statsfile v tmp
    rm -rf "$d"; mkdir -p "$d"
    tmp=$(mktemp -d)
    for v in 1.19 1.24; do
        build_go $v fuzz/seedprog "$tmp/p$v" -trimpath "-ldflags=-s -w"
        "$GOREWRITE" --max-threads 1 $SITES "$tmp/p$v" "$tmp/p$v.instr" >/dev/null
        mkdir -p "$tmp/s$v"
        GOSTAT_DIR=$tmp/s$v "$tmp/p$v.instr" >/dev/null 2>&1
        cp "$(stats_file_for "$tmp/s$v")" "$d/run-go$v"
    done
    # every call timed with its call paths (path and arc tables, symbols)
    "$GOREWRITE" --call-graph --max-threads 1 --max-paths 64 $SITES "$tmp/p1.24" "$tmp/paths.instr" >/dev/null
    mkdir -p "$tmp/paths"
    GOSTAT_DIR=$tmp/paths "$tmp/paths.instr" >/dev/null 2>&1
    cp "$(stats_file_for "$tmp/paths")" "$d/run-paths-go1.24"
    # traced calls: the trace section and its rings (about 50 KB)
    "$GOREWRITE" --trace 'main\.fib$' --trace-buffer 4K --only '^main\.' --max-threads 1 $SITES \
        "$tmp/p1.19" "$tmp/trace.instr" >/dev/null
    mkdir -p "$tmp/trace"
    GOSTAT_DIR=$tmp/trace "$tmp/trace.instr" >/dev/null 2>&1
    cp "$(stats_file_for "$tmp/trace")" "$d/run-trace-go1.19"
    rm -rf "$tmp"
    # deep call paths: a chain of 1000 nested calls (the most -max_len holds)
    local args=() i
    for i in 0 1 2 3 4 5 6 7 8 9; do args+=(--func "main.f$i:$((0x1000 + 0x100 * i)):200"); done
    "$ROOT/build/tests/mkstats" "$d/chain1000" --pid 4194305 --timing --tsc 1000:0:1001000:1000000 \
        --rows 2 --chain 1000 "${args[@]}"
}

# JSON seeds: what gostat --json prints for the stats-file seeds and for a
# crafted file with a chain of 2000 nested calls (deep paths, many arcs),
# and what gostat merge writes of them (the "processes" form).
profile_json_seeds() {
    local d=$SEEDS/profile_json s
    rm -rf "$d"; mkdir -p "$d"
    [ -d "$SEEDS/statsfile" ] || statsfile_seeds
    local args=() i
    for i in 0 1 2 3 4 5 6 7 8 9; do args+=(--func "main.f$i:$((0x1000 + 0x100 * i)):200"); done
    "$ROOT/build/tests/mkstats" "$d/chain.stats" --pid 4194305 --timing --tsc 1000:0:1001000:1000000 \
        --rows 2 --chain 2000 "${args[@]}"
    for s in "$SEEDS"/statsfile/* "$d/chain.stats"; do
        "$GOSTAT" --json "$s" >"$d/$(basename "$s").json"
    done
    rm "$d/chain.stats"
    "$GOSTAT" merge --force -o "$d/merged.json" "$d"/*.json >/dev/null
}
# The whole rewrite's seeds: each ELF seed padded with 0-3 zero bytes, one
# copy for each size mod 4, which picks the mode (fuzz/fuzz_rewrite.c).
rewrite_seeds() {
    [ -d "$SEEDS/elf" ] || elf_seeds
    local d=$SEEDS/rewrite f m size
    rm -rf "$d"; mkdir -p "$d"
    for f in "$SEEDS"/elf/*; do
        size=$(stat -c %s "$f")
        for m in 0 1 2 3; do
            cp "$f" "$d/$(basename "$f")-mode$m"
            truncate -s $((size + (m - size % 4 + 4) % 4)) "$d/$(basename "$f")-mode$m"
        done
    done
}
seeds_for() {
    case $1 in
        elf) elf_seeds ;;
        rewrite) rewrite_seeds ;;
        statsfile) statsfile_seeds ;;
        profile_json) profile_json_seeds ;;
    esac
}
# corpus_dir H: the committed corpus of harness H unpacked into a directory.
corpus_dir() {
    local d=$B/corpus/$1
    rm -rf "$d"; mkdir -p "$d"
    [ -f "fuzz/corpus/$1.tar.xz" ] && tar -xJf "fuzz/corpus/$1.tar.xz" -C "$d"
    echo "$d"
}

# store_corpus H DIR: DIR (minimized) becomes the committed corpus of H,
# packed reproducibly (sorted names, fixed owner and time).
store_corpus() {
    (cd "$2" && ls | LC_ALL=C sort | tar --owner=0 --group=0 --mtime=@0 -cf - -T - | xz -9e) \
        >"$ROOT/fuzz/corpus/$1.tar.xz"
}

# merge H OUT INPUTDIRS...: minimizes INPUTDIRS into the empty dir OUT.
merge() {
    local h=$1 out=$2
    shift 2
    rm -rf "$out"; mkdir -p "$out"
    # shellcheck disable=SC2046
    nice -n 19 "$B/fuzz_$h" -merge=1 $(harness_opts "$h") "$out" "$@" 2>"$B/merge-$h.log" ||
        { tail -20 "$B/merge-$h.log"; exit 1; }
}

run() {
    local secs=$1 h
    shift
    local hs=("$@")
    [ ${#hs[@]} -gt 0 ] || hs=(elf rewrite statsfile profile_json)
    for h in "${hs[@]}"; do seeds_for "$h"; done
    for h in "${hs[@]}"; do
        local corpus work=$B/work/$h
        corpus=$(corpus_dir "$h")
        mkdir -p "$work" "fuzz/crashes/$h"
        echo "fuzz.sh: fuzzing $h for ${secs}s (log: $B/fuzz-$h.log)"
        # shellcheck disable=SC2046
        nice -n 19 "$B/fuzz_$h" $(harness_opts "$h") -max_total_time="$secs" -print_final_stats=1 \
            -artifact_prefix="fuzz/crashes/$h/" "$work" "$corpus" "$SEEDS/$h" \
            >"$B/fuzz-$h.log" 2>&1 || echo "fuzz.sh: $h stopped with a finding; see $B/fuzz-$h.log"
        grep -E '^stat::(number_of_executed_units|new_units_added)' "$B/fuzz-$h.log" || true
        merge "$h" "$B/merged-$h" "$corpus" "$work" "$SEEDS/$h"
        store_corpus "$h" "$B/merged-$h"
    done
}

corpus() {
    local h hs=("$@")
    [ ${#hs[@]} -gt 0 ] || hs=(elf rewrite statsfile profile_json)
    for h in "${hs[@]}"; do seeds_for "$h"; done
    for h in "${hs[@]}"; do
        merge "$h" "$B/merged-$h" "$SEEDS/$h"
        store_corpus "$h" "$B/merged-$h"
    done
}

case ${1:-} in
    seeds) elf_seeds; statsfile_seeds; profile_json_seeds ;;
    run) shift; run "${1:-600}" ${2:+"${@:2}"} ;;
    corpus) shift; corpus "$@" ;;
    *) echo "usage: fuzz.sh seeds|run SECONDS|corpus" >&2; exit 1 ;;
esac
