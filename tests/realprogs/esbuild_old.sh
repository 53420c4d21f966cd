# tests/realprogs/esbuild_old.sh: sourced by tests/programs/t_realprogs.sh with
# eo_name (esbuild116, esbuild117, ...), eo_orig (the npm binary) and eo_go
# (its Go release: 1.16, 1.17, 1.18, 1.20). esbuild builds from npm with Go
# releases no Debian suite carries (0.11.23: go1.16.3, stack ABI, g loaded
# from TLS by every prologue, pclntab magic 0xfffffffa; 0.13.15: go1.17.2,
# the first register-ABI release; 0.14.39: go1.18.1, pclntab 0xfffffff0;
# @esbuild/linux-x64 0.18.20: go1.20.7, pclntab 0xfffffff1; all stripped,
# so their layout comes from the table, cross-checked with the binary's
# type descriptors and rt0_go), instrumented timed and --count-only:
#   - gorewrite -v names the release; with Go 1.16 it instruments the
#     three TLS-g prologue forms (small, large and huge frame checks) and
#     nothing in any other form; with the register ABI, small and large
#     frame checks;
#   - both builds bundle and minify tests/realprogs/jsproj (esbuild.sh) and
#     minify each of its files from stdin (esbuild_transform.sh) exactly as
#     the original does;
#   - the timed stats are sane: min <= p50 <= p90 <= p99 <= max <= the wall
#     time of the runs, totals between calls x min and calls x max (each
#     call's time rounded to whole ns: +-1 ns per call; two calls of 31.5
#     ns show min = max = 31 and total 63), and
#     transformImpl (which waits for the parse and print goroutines) takes
#     at least as long as the longest parse and print of its process;
#   - every function of esbuild's own code (github.com/evanw/esbuild/...,
#     main.*) has the same call count, summed over the processes of the
#     transform workload (run with one P), in the timed and the count-only
#     run. (Runtime and standard library counts vary from run to run: GC,
#     sync.Pool, map seeds, scheduling.) Left out: the functions of the
#     hashing goroutine esbuild starts and never waits for
#     (generateIsolatedHash, xxhash, hashWrite*, Joiner.Done): with one P it runs only if main is
#     preempted before exiting, which a loaded machine can make happen.
#     Also left out: the pointer-receiver sort methods ((*T).Less, (*T).Swap;
#     wrappers without a stack check, counted since functions without one
#     are): the order of what they sort varies from run to run (two
#     count-only runs gave 243 and 250 calls of
#     (*DeferredTopLevelSymbolArray).Less), so their counts do too.
eo_orig=$eo_orig
eo_ok=1
eo_timed=$WORK/bin/$eo_name
eo_count=$WORK/bin/$eo_name.count
mkdir -p "$WORK/bin"
if ! "$GOREWRITE" -v "$eo_orig" "$eo_timed" >"$WORK/$eo_name.v" 2>&1 ||
    ! "$GOREWRITE" --count-only "$eo_orig" "$eo_count" >"$WORK/$eo_name.count.rewrite" 2>&1; then
    fail "$eo_name: not instrumented: $(tail -n 1 "$WORK/$eo_name.v") $(cat "$WORK/$eo_name.count.rewrite")"
    eo_ok=0
fi
if [ $eo_ok = 1 ]; then
    echo "  $(tail -n 1 "$WORK/$eo_name.v")"
    echo "  $(cat "$WORK/$eo_name.count.rewrite")"
    grep -q "(go${eo_go//./\\.}\\.[0-9]*)" "$WORK/$eo_name.v" || { fail "$eo_name: not reported as a Go $eo_go program"; eo_ok=0; }
    if [ "$eo_go" = 1.16 ]; then
        forms="TLS g, small frame check|TLS g, large frame check|TLS g, huge frame check"
        # functions without a stack check take g from TLS too (no "TLS g" form to report)
        other=$(grep -E '^count(\+time)? ' "$WORK/$eo_name.v" | grep -v '(TLS g, ' | grep -vc '(no stack check; ')
        [ "$other" = 0 ] || { fail "$eo_name: $other functions instrumented in a form other than TLS g"; eo_ok=0; }
    else
        forms="(small frame check|(large frame check"
    fi
    IFS='|' read -r -a formlist <<<"$forms"
    for form in "${formlist[@]}"; do
        n=$(grep -c "^count+time .*$form" "$WORK/$eo_name.v")
        [ "$n" -gt 0 ] || { fail "$eo_name: no function instrumented in the $form form"; eo_ok=0; }
    done
    grep -q '^count .*(no stack check; ' "$WORK/$eo_name.v" ||
        { fail "$eo_name: no function without a stack check counted"; eo_ok=0; }
fi
if [ $eo_ok = 1 ]; then
    case_run $eo_name "$eo_orig" "$eo_timed" "$RP/jsproj" esbuild
    case_run $eo_name-count "$eo_orig" "$eo_count" "$RP/jsproj" esbuild
    eo_start=$(date +%s%N)
    case_run $eo_name-transform "$eo_orig" "$eo_timed" "$RP/jsproj" esbuild_transform
    eo_wall=$(($(date +%s%N) - eo_start))
    case_run $eo_name-transform-count "$eo_orig" "$eo_count" "$RP/jsproj" esbuild_transform
    for r in $eo_name-transform $eo_name-transform-count; do
        for f in "$WORK/$r.instr/stat"/gostat.*; do
            gostat_json "$f" "$f.json" || fail "$eo_name: gostat --json $f"
        done
    done
    if python3 - "$WORK/$eo_name-transform.instr/stat" "$WORK/$eo_name-transform-count.instr/stat" \
        "$eo_wall" "$eo_name" <<'PY'; then
import glob, json, re, sys
timed_dir, count_dir, wall, name = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
bad = []
def load(d):
    return [json.load(open(p)) for p in sorted(glob.glob(d + "/gostat.*.json"))]
timed, count = load(timed_dir), load(count_dir)
if len(timed) != 4 or len(count) != 4:
    bad.append("want 4 processes each (one per source file), got %d timed, %d count-only" % (len(timed), len(count)))
ntimed = 0
for d in timed:
    by = {f["name"]: f for f in d["functions"]}
    for f in d["functions"]:
        if not f["timed_calls"]:
            continue
        ntimed += 1
        q = [f[k] for k in ("min_ns", "p50_ns", "p90_ns", "p99_ns", "max_ns")]
        # a sampled function's total is an estimate, mean x calls (the default mode)
        n = f["calls"] if f.get("time_estimated") else f["timed_calls"]
        if None in q or q != sorted(q) or q[-1] > wall or f["timed_calls"] > f["calls"] or \
                not n * (q[0] - 1) <= f["total_ns"] <= n * (q[-1] + 1):
            bad.append("pid %d %s: implausible times %r (timed %d of %d calls, total %d ns, wall %d ns)"
                       % (d["pid"], f["name"], q, f["timed_calls"], f["calls"], f["total_ns"], wall))
    api = by.get("github.com/evanw/esbuild/pkg/api.transformImpl")
    if not api or api["calls"] != 1 or api["timed_calls"] != 1 or api["total_ns"] <= 0:
        bad.append("pid %d: transformImpl not timed once: %r" % (d["pid"], api))
        continue
    for inner in ("github.com/evanw/esbuild/internal/js_parser.Parse",
                  "github.com/evanw/esbuild/internal/js_printer.Print"):
        g = by.get(inner)
        if not g or not g["timed_calls"] or g["max_ns"] > api["total_ns"]:
            bad.append("pid %d: %s %r, transformImpl took %d ns" % (d["pid"], inner, g and g["max_ns"], api["total_ns"]))
if ntimed < 4 * 300:
    bad.append("only %d timed functions with calls in 4 processes" % ntimed)
own = re.compile(r"^(github\.com/evanw/esbuild/|main\.)")
unwaited = re.compile(r"generateIsolatedHash|xxhash|\.hashWrite|Joiner\)?\.Done|\)\.(Less|Swap)$")
def sums(ds):
    c = {}
    for d in ds:
        for f in d["functions"]:
            if own.match(f["name"]) and not unwaited.search(f["name"]):
                c[f["name"]] = c.get(f["name"], 0) + f["calls"]
    return c
a, b = sums(timed), sums(count)
called = sum(1 for n in a if a[n])
if called < 300:
    bad.append("only %d of esbuild's own functions called" % called)
for n in sorted(set(a) | set(b)):
    if a.get(n) != b.get(n):
        bad.append("%s: %r calls timed, %r count-only" % (n, a.get(n), b.get(n)))
for x in bad[:20]:
    print("  " + x)
if not bad:
    print("ok   %s: %d timed functions, sane times; %d esbuild functions called, same counts timed and count-only"
          % (name, ntimed, called))
sys.exit(1 if bad else 0)
PY
        :
    else
        fail "$eo_name: timed stats implausible or counts differ from the count-only run"
    fi
fi
