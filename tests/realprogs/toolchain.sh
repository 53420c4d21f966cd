# tests/realprogs/toolchain.sh: sourced by tests/programs/t_realprogs.sh. Debian's
# stripped Go 1.22 compile, link and asm, instrumented, rebuild
# testdata/recursion and everything it imports (go build -a, through
# -toolexec toolexec.sh, a private build cache each); the package archives
# and the binary must be byte-identical to those the original tools build.
tc_start=$(date +%s)
tc_tools=$(go_root 1.22)/pkg/tool/linux_amd64
tc_ok=1
for t in compile link asm; do
    instr_of "go1.22-$t" "$tc_tools/$t" "$WORK/tools/$t" >/dev/null || tc_ok=0
done
for r in orig instr; do
    d=$tc_tools
    [ $r = instr ] && d=$WORK/tools
    rm -rf "$WORK/tc.$r"
    mkdir -p "$WORK/tc.$r/stat"
    (cd "$ROOT/testdata/recursion" && go_env 1.22 env GOCACHE="$WORK/tc.$r/cache" \
        GOSTAT_DIR="$WORK/tc.$r/stat" GR_TOOLDIR="$d" "$(go_bin 1.22)" build -a -work -p 2 \
        -toolexec "$RP/toolexec.sh" -o "$WORK/tc.$r/recursion" .) >"$WORK/tc.$r/out" 2>"$WORK/tc.$r/err"
    echo $? >"$WORK/tc.$r/rc"
    w=$(sed -n 's/^WORK=//p' "$WORK/tc.$r/err")
    if [ -z "$w" ] || [ ! -d "$w" ]; then
        echo "  toolchain $r: go build failed: $(head -5 "$WORK/tc.$r/err")"
        tc_ok=0
        continue
    fi
    (cd "$w" && find . -name '*.a' | LC_ALL=C sort | xargs md5sum) >"$WORK/tc.$r/archives"
    rm -rf "$w"
done
if [ "$(cat "$WORK/tc.orig/rc")" != 0 ] || [ "$(cat "$WORK/tc.instr/rc")" != 0 ]; then
    echo "  toolchain: go build exited $(cat "$WORK/tc.orig/rc") (original tools), $(cat "$WORK/tc.instr/rc") (instrumented)"
    tc_ok=0
fi
tc_n=$(wc -l <"$WORK/tc.orig/archives" 2>/dev/null || echo 0)
if [ "$tc_n" -lt 30 ] || ! cmp -s "$WORK/tc.orig/archives" "$WORK/tc.instr/archives"; then
    echo "  toolchain: package archives differ (or fewer than 30: $tc_n)"
    diff "$WORK/tc.orig/archives" "$WORK/tc.instr/archives" | head -10
    tc_ok=0
fi
if ! cmp -s "$WORK/tc.orig/recursion" "$WORK/tc.instr/recursion"; then
    echo "  toolchain: the linked binaries differ"
    tc_ok=0
fi
check_stats "$WORK/tc.instr/stat" || tc_ok=0
if [ $tc_ok = 1 ]; then
    echo "ok   toolchain (go1.22 compile/link/asm: $tc_n identical archives, identical binary, $STATS_FILES tool processes, $(elapsed_since "$tc_start")s)"
else
    fail "toolchain: the instrumented Go tools build something different"
fi
