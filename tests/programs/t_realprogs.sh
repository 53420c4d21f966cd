#!/usr/bin/env bash
# t_realprogs: real Go programs nobody here wrote, instrumented, must give
# byte-identical results offline:
#   - esbuild (npm, Go 1.26, no .go.buildinfo) bundles and minifies
#     tests/realprogs/jsproj; so do esbuild 0.11.23 (npm, Go 1.16.3),
#     0.13.15 (Go 1.17.2), 0.14.39 (Go 1.18.1) and 0.18.20 (Go 1.20.7),
#     timed and --count-only, with exact call counts
#     (tests/realprogs/esbuild_old.sh); tsgo (npm, Go 1.26) type-checks and compiles
#     it; buf (npm, Go 1.27, 46 MB) formats, lints and builds
#     tests/realprogs/proto;
#   - rclone (Debian, 54 MB) and restic (Debian) copy, checksum, back up
#     and restore a generated directory tree;
#   - Debian's stripped Go 1.22 compile, link and asm, used through
#     `go build -a -toolexec`, rebuild testdata/recursion and every package
#     it imports: the archives and the binary must equal those the
#     original tools build.
# Each program runs twice, original and instrumented, on identical copies
# of its input (tests/realprogs/<name>.sh is the workload): the original
# must exit 0 and print something or write files; stdout, stderr,
# exit status and the resulting directory trees must be identical, and
# every process of the instrumented run must leave a stats file in which
# main.main was called exactly once.
# Environment: REALPROGS="esbuild rclone" restricts the list.

. "$(dirname "$0")/../lib.sh"
require_tools

NPM=$ROOT/build/npm/node_modules
RP=$ROOT/tests/realprogs
work_dir

# make_data DIR: a deterministic tree of 120 files (about 4 MB), with
# duplicates and a few *.log files.
make_data() {
    python3 - "$1" <<'PY'
import os, random, sys
root = sys.argv[1]
rnd = random.Random(20261121)
for i in range(120):
    d = os.path.join(root, "d%02d" % (i % 7), "s%d" % (i % 3))
    os.makedirs(d, exist_ok=True)
    ext = ".log" if i % 17 == 0 else ".bin" if i % 2 else ".txt"
    n = rnd.randrange(1, 70000)
    data = bytes(rnd.getrandbits(8) for _ in range(n)) if ext == ".bin" else \
        ("line %d of file %d\n" % (n, i) * (n // 20 + 1)).encode()
    with open(os.path.join(d, "f%03d%s" % (i, ext)), "wb") as f:
        f.write(data)
with open(os.path.join(root, "dup.txt"), "wb") as f:
    f.write(b"same\n")
PY
}

# check_stats DIR: every stats file in DIR has main.main called once.
check_stats() {
    local d=$1 f n=0 bad=0
    for f in "$d"/gostat.*; do
        [ -e "$f" ] || continue
        n=$((n + 1))
        if ! gostat_json "$f" "$WORK/stats.json"; then
            bad=1
            continue
        fi
        printf 'main.main 1\n' >"$WORK/expect.main"
        check_counts "$WORK/stats.json" "$WORK/expect.main" || { echo "  in $f"; bad=1; }
    done
    if [ $n -eq 0 ]; then
        echo "  no stats file in $d"
        return 1
    fi
    STATS_FILES=$n
    return $bad
}

# case_run NAME ORIG INSTR SRCDIR [SCRIPT]: runs tests/realprogs/SCRIPT.sh
# (default NAME.sh) with ORIG in a copy of SRCDIR and with INSTR in another;
# compares everything. The instrumented run's stats files stay in
# $WORK/NAME.instr/stat.
case_run() {
    local name=$1 orig=$2 instr=$3 src=$4 script=${5:-$1} r prog start
    start=$(date +%s)
    for r in orig instr; do
        prog=$orig
        [ $r = instr ] && prog=$instr
        rm -rf "$WORK/$name.$r"
        mkdir -p "$WORK/$name.$r/stat" "$WORK/$name.$r/tree"
        cp -r "$src/." "$WORK/$name.$r/tree/"
        (cd "$WORK/$name.$r/tree" && GOSTAT_DIR=$WORK/$name.$r/stat timeout -k 10 "$RUN_TIMEOUT" \
            sh "$RP/$script.sh" "$prog" </dev/null >../out 2>../err; echo $? >../rc)
    done
    local ok=1 what
    # The original must succeed and do something: two equal failures (a
    # workload that cannot run here) would otherwise pass.
    if [ "$(cat "$WORK/$name.orig/rc")" != 0 ]; then
        echo "  $name: the original exited $(cat "$WORK/$name.orig/rc"), want 0:"
        tail -n 5 "$WORK/$name.orig/err" | sed 's/^/    ! /'
        ok=0
    fi
    if [ ! -s "$WORK/$name.orig/out" ] && diff -rq "$src" "$WORK/$name.orig/tree" >/dev/null; then
        echo "  $name: the original printed nothing and changed no file"
        ok=0
    fi
    for what in out err rc; do
        if ! cmp -s "$WORK/$name.orig/$what" "$WORK/$name.instr/$what"; then
            echo "  $name: $what differs"
            diff -u "$WORK/$name.orig/$what" "$WORK/$name.instr/$what" | head -20
            ok=0
        fi
    done
    if ! diff -r "$WORK/$name.orig/tree" "$WORK/$name.instr/tree" >"$WORK/tree.diff"; then
        echo "  $name: the resulting files differ"
        head -20 "$WORK/tree.diff"
        ok=0
    fi
    if [ -n "$(ls -A "$WORK/$name.orig/stat")" ]; then
        echo "  $name: the original wrote stats files"
        ok=0
    fi
    check_stats "$WORK/$name.instr/stat" || ok=0
    if [ $ok = 1 ]; then
        echo "ok   $name (exit $(cat "$WORK/$name.orig/rc"), $STATS_FILES processes, $(elapsed_since "$start")s)"
    else
        fail "$name: the instrumented program behaves differently"
    fi
}

# instr_of NAME ORIG [OUT]: instruments ORIG (into OUT, default
# $WORK/bin/NAME) and prints the instrumented path; the summary line is
# kept in $WORK/NAME.rewrite.
instr_of() {
    local name=$1 orig=$2 out=${3:-$WORK/bin/$1}
    mkdir -p "$(dirname "$out")"
    if [ ! -x "$orig" ]; then
        echo "instr_of: $orig is not installed (scripts/deps.sh)" >&2
        return 1
    fi
    "$GOREWRITE" "$orig" "$out" >"$WORK/$name.rewrite" 2>&1 || {
        cat "$WORK/$name.rewrite" >&2
        return 1
    }
    echo "  $(cat "$WORK/$name.rewrite")" >&2
    echo "$out"
}

make_data "$WORK/data.src/data"
selected=${REALPROGS:-"esbuild esbuild116 esbuild117 esbuild118 esbuild120 tsgo buf rclone restic toolchain"}

for name in $selected; do
    case $name in
        esbuild)
            o=$NPM/@esbuild/linux-x64/bin/esbuild
            i=$(instr_of esbuild "$o") && case_run esbuild "$o" "$i" "$RP/jsproj" || fail "esbuild: not instrumented" ;;
        tsgo)
            # tsgo finds its lib.*.d.ts beside the executable
            o=$NPM/@typescript/native-preview-linux-x64/lib/tsgo
            i=$(instr_of tsgo "$o" "$(dirname "$o")/tsgo.gorewrite-test") &&
                case_run tsgo "$o" "$i" "$RP/jsproj" || fail "tsgo: not instrumented"
            rm -f "$(dirname "$o")/tsgo.gorewrite-test" ;;
        buf)
            o=$NPM/@bufbuild/buf-linux-x64/bin/buf
            mkdir -p "$WORK/buf.src/out" && cp -r "$RP/proto" "$WORK/buf.src/"
            i=$(instr_of buf "$o") && case_run buf "$o" "$i" "$WORK/buf.src" || fail "buf: not instrumented" ;;
        rclone | restic)
            o=/usr/bin/$name
            i=$(instr_of "$name" "$o") && case_run "$name" "$o" "$i" "$WORK/data.src" || fail "$name: not instrumented" ;;
        toolchain)
            . "$RP/toolchain.sh" ;;
        esbuild116)
            eo_name=$name eo_go=1.16 eo_orig=$NPM/esbuild-linux-64/bin/esbuild
            . "$RP/esbuild_old.sh" ;;
        esbuild117 | esbuild118)
            eo_name=$name eo_go=1.${name#esbuild1} eo_orig=$ROOT/build/npm/go${name#esbuild}/node_modules/esbuild-linux-64/bin/esbuild
            . "$RP/esbuild_old.sh" ;;
        esbuild120)
            eo_name=$name eo_go=1.20 eo_orig=$ROOT/build/npm/go120/node_modules/@esbuild/linux-x64/bin/esbuild
            . "$RP/esbuild_old.sh" ;;
        *) fail "unknown program $name" ;;
    esac
done

[ $fails -eq 0 ]
