#!/usr/bin/env bash
# t_copy_module: gorewrite --engine copy moves the chosen functions into a
# second Go module (docs/architecture.md, "The copy engine's module"), and
# the runtime takes it as its own, with every Go of the tests:
#  - -v: the 17 functions of package main that are compiled code with a
#    normal funcID (testdata/copymodule) are in the module, and the
#    moduledata layout gorewrite uses equals the DWARF of
#    runtime.moduledata in the same build, member by member;
#  - the copy-engine build prints exactly what the original prints:
#    runtime.Callers/CallersFrames and FuncForPC name the same functions,
#    files and lines, a nil dereference in a copied method panics and is
#    recovered, stacks grow and move under GC, a tight loop in a copied
#    function is preempted asynchronously with one P (the start-up's
#    moduledataverify1 throws on a bad table, so running at all checks it);
#  - its unrecovered panic (exit status 2) has the original's traceback:
#    function lines, file lines and +0x offsets equal, only argument
#    words and the pc= of the signal line masked, and that pc lies in the
#    copy (the new segment), not in the original;
#  - its own runtime/pprof CPU profile has main.busy, the loop it runs,
#    as the top function outside the runtime, with at least half the
#    samples under it, and under 1 % of at least 100 samples in
#    runtime._ExternalCode (the infrastructure functions that
#    --only keeps, runtime.execute and the like, still have trampolines);
#  - all of it again for a PIE (-buildmode=pie; both run with ASLR off,
#    so that the original's fault gives the load bias, and the copy's
#    fault pc less it lies in the copy); Go 1.15's PIE is refused by name
#    (exit status 2).
# Go 1.25, 1.26 and 1.27 ($GO_VERSIONS_NEWER) run the exe's checks but
# the profile, and the newest its PIE too (a run is about 2 s, its profile
# 3 s more): 1.26 and 1.27 have layouts of their own (epclntab; the
# typedesc and itab fields) and new runtime code reading them (the GC's
# stack-object lookup, typelinksinit, itabsinit), each run proves one;
# 1.25 has 1.23-1.24's layout and, on amd64, 1.24's module code, so its
# run is the DWARF's word on the layout and little more. sigprof is the
# same in 1.24-1.27 and a PIE relocates the layout's words, so a profile
# or a second newer PIE would repeat what 1.24's and the newest's prove.
# Then Go 1.22's compiler, rewritten with --engine copy (every function it
# can take), builds the standard library and a program with go build -a:
# archives and binary identical to the original compiler's.
# Environment: GOVERS="1.22 1.26" restricts the Go versions; NO_COMPILER=1
# leaves out the compiler.
. "$(dirname "$0")/../lib.sh"
require_tools

work_dir
DIR=$ROOT/testdata/copymodule
PPROF_GO=$(go_bin 1.22)

# mask FILE: the run's output with each frame's argument words and the
# signal line's pc= masked.
mask() {
    sed -E -e 's/^([^\t ][^ ]*)\([^()]*\)$/\1(...)/' -e 's/ pc=0x[0-9a-f]+\]/ pc=?]/' "$1"
}

# dwarf_layout BIN: "name offset" of runtime.moduledata's members, and its
# size, from BIN's DWARF.
dwarf_layout() {
    readelf --debug-dump=info "$1" 2>/dev/null | awk '
        /DW_TAG_/ { if (s && !/DW_TAG_member/) exit }
        /DW_AT_name.*: runtime\.moduledata$/ { s = 1; next }
        s && /DW_AT_byte_size/ && !size { size = $NF; print "size", size }
        s && /DW_AT_name/ { n = $NF }
        s && /DW_AT_data_member_location/ { print n, $NF }'
}

# layout_agrees V: each "name offset" pair of -v's layout line is a member
# of the DWARF's at that offset.
layout_agrees() {
    local line pairs name off
    line=$(grep 'runtime.firstmoduledata at' "$WORK/v.$1") || return 1
    pairs=$(sed 's/.*: //' <<<"$line" | tr ' ' '\n' | paste -d' ' - -)
    [ -n "$pairs" ] || return 1
    while read -r name off; do
        grep -qx "$name $off" "$WORK/dwarf.$1" || { echo "  go$1: $name at $off, DWARF says $(grep "^$name " "$WORK/dwarf.$1")"; return 1; }
    done <<<"$pairs"
}

# in_new_text BIN PC BIAS: PC less BIAS lies in BIN's .gorewrite.text.
in_new_text() {
    local a s pc=$(($2 - $3))
    read -r a s < <(readelf -SW "$1" | awk '$2 == ".gorewrite.text" { print $4, $6 }')
    [ -n "$a" ] && [ $pc -ge $((0x$a)) ] && [ $pc -lt $((0x$a + 0x$s)) ]
}

# fault_pc FILE: the pc= of the signal line in FILE.
fault_pc() {
    sed -n 's/.* pc=\(0x[0-9a-f]*\)\]$/\1/p' "$1"
}

# check_release V VARIANT [noprofile]: the checks above for Go V, exe or
# pie; noprofile leaves out the CPU profile.
check_release() {
    local v=$1 variant=$2 profile=${3:-profile} bin=$WORK/copymodule.$1.$2 ok=1 n pc top cum bias=0 flags=()
    [ "$variant" = pie ] && flags=(-buildmode=pie)
    build_go "$v" "$DIR" "$bin" "${flags[@]}" || { fail "go$v $variant: build"; return; }
    "$GOREWRITE" -v --engine copy --only '^main\.' "$bin" "$bin.copy" >"$WORK/v.$v" 2>&1
    local rc=$?
    if [ "$variant $v" = "pie 1.15" ]; then
        if [ $rc = 2 ] && grep -q 'copy engine takes a PIE of Go 1.18 or later only' "$WORK/v.$v"; then
            echo "ok   go$v pie: refused by name"
        else
            fail "go$v pie: exit status $rc, want 2: $(tail -1 "$WORK/v.$v")"
        fi
        return
    fi
    [ $rc = 0 ] || { fail "go$v $variant: gorewrite --engine copy: $(tail -1 "$WORK/v.$v")"; return; }
    n=$(sed -n 's/^gorewrite: copy engine: \([0-9]*\) functions copied.*/\1/p' "$WORK/v.$v")
    [ "$n" = 17 ] || { echo "  go$v $variant: $n functions copied, want 17"; ok=0; }
    for f in 'main.(*point).move' main.grow main.spin main.busy main.main; do
        grep -qF " $f: in the copy engine's module" "$WORK/v.$v" || { echo "  go$v $variant: $f not copied"; ok=0; }
    done
    dwarf_layout "$bin" >"$WORK/dwarf.$v"
    layout_agrees "$v" || { echo "  go$v $variant: moduledata layout differs from the DWARF's"; ok=0; }
    GOSTAT_DIR=$WORK GOSTAT_QUIET=1 setarch -R "$bin" >"$WORK/out.orig" 2>"$WORK/err.orig"
    echo $? >"$WORK/rc.orig"
    GOSTAT_DIR=$WORK GOSTAT_QUIET=1 setarch -R "$bin.copy" >"$WORK/out.copy" 2>"$WORK/err.copy"
    echo $? >"$WORK/rc.copy"
    [ "$(cat "$WORK/rc.orig") $(cat "$WORK/rc.copy")" = "2 2" ] ||
        { echo "  go$v $variant: exit status $(cat "$WORK/rc.copy"), original $(cat "$WORK/rc.orig"), want 2"; ok=0; }
    grep -q '^preempt: preempted$' "$WORK/out.orig" || { echo "  go$v $variant: the original was not preempted"; ok=0; }
    diff -u --label original --label copy "$WORK/out.orig" "$WORK/out.copy" >"$WORK/d" ||
        { echo "  go$v $variant: output differs"; head -20 "$WORK/d"; ok=0; }
    diff -u --label original --label copy <(mask "$WORK/err.orig") <(mask "$WORK/err.copy") >"$WORK/d" ||
        { echo "  go$v $variant: traceback differs"; head -20 "$WORK/d"; ok=0; }
    # the original's fault pc less main.(*point).move's link-time entry and
    # the fault's offset in it (its traceback line's +0x, none: 0) is the
    # load bias
    if [ "$variant" = pie ]; then
        local entry off
        pc=$(fault_pc "$WORK/err.orig")
        entry=0x$(sed -n 's/^skip  *0x\([0-9a-f]*\) main\.(\*point)\.move: .*/\1/p' "$WORK/v.$v")
        off=$(grep -A1 '^main\.(\*point)\.move(' "$WORK/err.orig" | sed -n 's/.* +\(0x[0-9a-f]*\)$/\1/p')
        bias=$((${pc:-0} - entry - ${off:-0}))
    fi
    pc=$(fault_pc "$WORK/err.copy")
    in_new_text "$bin.copy" "${pc:-0}" "$bias" || { echo "  go$v $variant: the fault's pc ${pc:-none} is not in the copy"; ok=0; }
    if [ "$profile" = noprofile ]; then
        if [ $ok = 1 ]; then
            echo "ok   go$v $variant: 17 copies; layout as DWARF's; output and traceback as the original's"
        else
            fail "go$v $variant (above)"
        fi
        return
    fi
    GOSTAT_DIR=$WORK GOSTAT_QUIET=1 "$bin.copy" "$WORK/cpu.$v" >/dev/null 2>&1
    go_env 1.22 "$PPROF_GO" tool pprof -top "$WORK/cpu.$v" >"$WORK/top.$v" 2>/dev/null
    top=$(awk '$1 ~ /s$/ && $2 ~ /%$/ && $6 !~ /^runtime\./ { print $6; exit }' "$WORK/top.$v")
    cum=$(awk '$6 == "main.busy" { sub(/%/, "", $5); print int($5) }' "$WORK/top.$v")
    [ "$top" = main.busy ] && [ "${cum:-0}" -ge 50 ] ||
        { echo "  go$v $variant: the profile's top function is '$top' (main.busy ${cum:-0}% cumulative), want main.busy >= 50%"; cat "$WORK/top.$v"; ok=0; }
    local ms ext
    ms=$(sed -n 's/.*Total samples = \([0-9.]*\)\(m*\)s.*/\1 \2/p' "$WORK/top.$v" |
        awk '{ print int($2 == "m" ? $1 : $1 * 1000) }')
    ext=$(awk '$6 == "runtime._ExternalCode" { v = $1; m = v ~ /ms$/; sub(/m?s$/, "", v); print int(m ? v : v * 1000) }' "$WORK/top.$v")
    if [ "${ms:-0}" -lt 1000 ]; then
        echo "  go$v $variant: the profile holds ${ms:-0} ms of samples, want at least 100 samples"; ok=0
    elif [ $((${ext:-0} * 100)) -ge "$ms" ]; then
        echo "  go$v $variant: ${ext} of ${ms} ms in _ExternalCode, want under 1 %"; ok=0
    fi
    if [ $ok = 1 ]; then
        echo "ok   go$v $variant: 17 copies; layout as DWARF's; output, traceback and profile as the original's"
    else
        fail "go$v $variant (above)"
    fi
}

# The compiler and its standard library build, as tests/realprogs/toolchain.sh.
check_compiler() {
    local tools=$(go_root 1.22)/pkg/tool/linux_amd64 r d w n
    mkdir -p "$WORK/tools"
    cp "$tools/link" "$tools/asm" "$WORK/tools/"
    "$GOREWRITE" -v --engine copy "$tools/compile" "$WORK/tools/compile" >"$WORK/v.compile" 2>&1 ||
        { fail "compile: gorewrite --engine copy: $(tail -1 "$WORK/v.compile")"; return; }
    n=$(sed -n 's/^gorewrite: copy engine: \([0-9]*\) functions copied.*/\1/p' "$WORK/v.compile")
    for r in orig copy; do
        d=$tools
        [ $r = copy ] && d=$WORK/tools
        (cd "$ROOT/testdata/recursion" && go_env 1.22 env GOCACHE="$WORK/cache.$r" GOSTAT_DIR="$WORK" \
            GOSTAT_QUIET=1 GR_TOOLDIR="$d" "$(go_bin 1.22)" build -a -work -p 2 \
            -toolexec "$ROOT/tests/realprogs/toolexec.sh" -o "$WORK/rec.$r" .) >/dev/null 2>"$WORK/tc.$r" ||
            { fail "compile: go build with the $r compiler: $(head -3 "$WORK/tc.$r")"; return; }
        w=$(sed -n 's/^WORK=//p' "$WORK/tc.$r")
        (cd "$w" && find . -name '*.a' | LC_ALL=C sort | xargs md5sum) >"$WORK/archives.$r"
        rm -rf "$w"
    done
    local na
    na=$(wc -l <"$WORK/archives.orig")
    if [ "${n:-0}" -gt 10000 ] && [ "$na" -ge 30 ] && cmp -s "$WORK/archives.orig" "$WORK/archives.copy" &&
        cmp -s "$WORK/rec.orig" "$WORK/rec.copy"; then
        echo "ok   go1.22 compile with $n copied functions: $na identical archives, identical binary"
    else
        fail "compile ($n copies): archives or binary differ ($na archives)"
        diff "$WORK/archives.orig" "$WORK/archives.copy" | head -5
    fi
}

for v in $(releases $GO_VERSIONS); do
    check_release "$v" exe
    check_release "$v" pie
done
for v in $(releases $GO_VERSIONS_NEWER); do
    check_release "$v" exe noprofile
    [ "$v" != "${GO_VERSIONS_NEWER##* }" ] || check_release "$v" pie noprofile
done
[ "${NO_COMPILER:-0}" = 1 ] || check_compiler
[ $fails -eq 0 ]
