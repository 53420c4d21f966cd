#!/usr/bin/env bash
# t_fuzz_replay: replays the committed fuzzing corpus and every crash
# reproducer (fuzz/, `make fuzz`) through the libFuzzer harnesses (fuzz_rewrite:
# the whole rewrite of each ELF input), which are
# built with ASan and UBSan (`make fuzz-build`, part of `make check`):
# each input runs once (-runs=0, deterministic) and any memory error,
# undefined behaviour, leak, or allocation above the harness's limit fails
# the test. The stats-file reader also gets a stats file written by a real
# run now, every corruption tests/tools/mkstats makes and a chain of 4096
# nested calls, so the replay follows the current file format; the JSON
# reader (fuzz_profile_json) gets gostat --json of those.
. "$(dirname "$0")/../lib.sh"
require_tools

B=$ROOT/build/fuzz
MKSTATS=$ROOT/build/tests/mkstats
work_dir
for h in elf rewrite statsfile profile_json; do
    [ -x "$B/fuzz_$h" ] || { echo "FAIL: $B/fuzz_$h missing; run 'make fuzz-build'"; exit 1; }
done
export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# replay HARNESS OPTIONS DIR...: every file in DIRs, once; libFuzzer must
# report that it loaded all of them (but the empty ones: it leaves those
# out and runs the empty input itself before any other).
replay() {
    local h=$1 opts=$2 n loaded
    shift 2
    n=$(find "$@" -type f ! -empty | wc -l)
    # shellcheck disable=SC2086
    "$B/fuzz_$h" $opts -runs=0 "$@" >"$WORK/$h.log" 2>&1
    local rc=$?
    loaded=$(sed -n 's/^INFO: seed corpus: files: \([0-9]*\) .*/\1/p' "$WORK/$h.log")
    if [ "$loaded" != "$n" ]; then
        fail "$h: libFuzzer loaded ${loaded:-no} inputs of the $n given"
    elif [ $rc -eq 0 ] && grep -q "^#[0-9]*[[:space:]]*DONE" "$WORK/$h.log"; then
        echo "ok   $h: $n inputs replayed clean ($CRASHES crash reproducers among them)"
    else
        fail "$h: replay of $n inputs failed:"
        grep -E "ERROR|SUMMARY|runtime error|#[0-9]+ .* in " "$WORK/$h.log" | head -20
    fi
}

# copy_crashes HARNESS: every reproducer in fuzz/crashes/HARNESS/ (a
# folder kept in git by its .gitkeep) into the replay folder, counted in
# $CRASHES; a missing folder or a failed copy fails the test.
copy_crashes() {
    local d=$ROOT/fuzz/crashes/$1 f
    CRASHES=0
    if [ ! -d "$d" ]; then
        fail "$d does not exist: crash reproducers would be silently left out"
        return
    fi
    for f in "$d"/*; do
        [ -e "$f" ] || continue
        cp "$f" "$WORK/$1/crash-$(basename "$f")" || fail "cannot copy $f"
        CRASHES=$((CRASHES + 1))
    done
}

mkdir -p "$WORK/elf" "$WORK/rewrite" "$WORK/statsfile" "$WORK/profile_json"
tar -xJf "$ROOT/fuzz/corpus/elf.tar.xz" -C "$WORK/elf" || fail "cannot unpack fuzz/corpus/elf.tar.xz"
[ "$(ls "$WORK/elf" | wc -l)" -ge 6 ] || fail "the ELF corpus has fewer than 6 inputs"
copy_crashes elf
replay elf "-max_len=2500000 -malloc_limit_mb=512 -rss_limit_mb=2048" "$WORK/elf"

# the whole rewrite (fuzz_rewrite): its corpus and reproducers
tar -xJf "$ROOT/fuzz/corpus/rewrite.tar.xz" -C "$WORK/rewrite" || fail "cannot unpack fuzz/corpus/rewrite.tar.xz"
[ "$(ls "$WORK/rewrite" | wc -l)" -ge 6 ] || fail "the rewrite corpus has fewer than 6 inputs"
copy_crashes rewrite
replay rewrite "-max_len=2500000 -malloc_limit_mb=512 -rss_limit_mb=2048" "$WORK/rewrite"

tar -xJf "$ROOT/fuzz/corpus/statsfile.tar.xz" -C "$WORK/statsfile" || fail "cannot unpack fuzz/corpus/statsfile.tar.xz"
[ "$(ls "$WORK/statsfile" | wc -l)" -ge 2 ] || fail "the stats-file corpus has fewer than 2 inputs"
copy_crashes statsfile
# A fresh real file, and every corruption mkstats knows.
build_go 1.22 "$ROOT/fuzz/seedprog" "$WORK/seed" || exit 1
instrument "$WORK/seed" "$WORK/seed.instr" || exit 1
mkdir -p "$WORK/sd"
GOSTAT_DIR=$WORK/sd "$WORK/seed.instr" >/dev/null 2>&1
cp "$(stats_file_for "$WORK/sd")" "$WORK/statsfile/fresh-run"
# and one with call paths (--time-all: symbol table, path and arc tables)
"$GOREWRITE" --call-graph --max-threads 1 --max-paths 64 "$WORK/seed" "$WORK/seed.paths" >/dev/null 2>&1 ||
    fail "gorewrite --call-graph --max-paths 64"
mkdir -p "$WORK/sdp"
GOSTAT_DIR=$WORK/sdp "$WORK/seed.paths" >/dev/null 2>&1
cp "$(stats_file_for "$WORK/sdp")" "$WORK/statsfile/fresh-run-paths"
# (the kinds are read from mkstats' source, so new ones join automatically)
for kind in $(grep -o 'strcmp(kind, "[a-z-]*")' "$ROOT/tests/tools/mkstats.c" | cut -d'"' -f2); do
    "$MKSTATS" "$WORK/statsfile/mkstats-$kind" --pid 4194305 --func a.b:0x10:3 --func c.d:0x20:4:/src/c.go:9 --corrupt "$kind" ||
        fail "mkstats --corrupt $kind"
done
[ "$(ls "$WORK/statsfile" | grep -c '^mkstats-')" -ge 10 ] || fail "mkstats listed fewer than 10 corruptions"
# and a chain of 4096 nested calls (deep paths: every path output capped)
args=()
for i in 0 1 2 3 4 5 6 7 8 9; do args+=(--func "main.f$i:$((0x1000 + 0x100 * i)):410"); done
"$MKSTATS" "$WORK/statsfile/mkstats-chain" --pid 4194305 --timing --tsc 1000:0:1001000:1000000 --rows 2 \
    --chain 4096 "${args[@]}" || fail "mkstats --chain"
replay statsfile "-max_len=4194304 -malloc_limit_mb=64 -rss_limit_mb=1024" "$WORK/statsfile"

# The JSON reader: its corpus, its reproducers, and what gostat --json
# prints now of the fresh files and the chain (so the replay follows the
# current JSON form).
tar -xJf "$ROOT/fuzz/corpus/profile_json.tar.xz" -C "$WORK/profile_json" ||
    fail "cannot unpack fuzz/corpus/profile_json.tar.xz"
[ "$(ls "$WORK/profile_json" | wc -l)" -ge 3 ] || fail "the JSON corpus has fewer than 3 inputs"
copy_crashes profile_json
for f in fresh-run fresh-run-paths mkstats-chain; do
    "$GOSTAT" --json "$WORK/statsfile/$f" >"$WORK/profile_json/$f.json" || fail "gostat --json $f"
done
replay profile_json "-max_len=4194304 -malloc_limit_mb=64 -rss_limit_mb=1024" "$WORK/profile_json"

[ $fails -eq 0 ]
