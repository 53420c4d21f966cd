# tests/realprogs/esbuild116.sh: sourced by tests/t_realprogs.sh. esbuild
# 0.11.23 (npm, built with Go 1.16.3: stack ABI, g loaded from TLS by every
# prologue, pclntab magic 0xfffffffa), instrumented timed and --count-only:
#   - gorewrite -v instruments the three TLS-g prologue forms (small, large
#     and huge frame checks) and nothing in any other form;
#   - both builds bundle and minify tests/realprogs/jsproj (esbuild.sh) and
#     minify each of its files from stdin (esbuild_transform.sh) exactly as
#     the original does;
#   - the timed stats are sane: min <= p50 <= p90 <= p99 <= max <= the wall
#     time of the runs, totals between calls x (min - 1 ns) and calls x
#     (max + 1 ns) (gostat rounds min and max to whole nanoseconds, each
#     by at most 1 ns, but sums the total from unrounded ticks: 2 calls of
#     37.6 ns show min 38, total 75), and
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
e116_orig=$NPM/esbuild-linux-64/bin/esbuild
e116_ok=1
e116_timed=$WORK/bin/esbuild116
e116_count=$WORK/bin/esbuild116.count
mkdir -p "$WORK/bin"
if ! "$GOREWRITE" -v "$e116_orig" "$e116_timed" >"$WORK/esbuild116.v" 2>&1 ||
    ! "$GOREWRITE" --count-only "$e116_orig" "$e116_count" >"$WORK/esbuild116.count.rewrite" 2>&1; then
    fail "esbuild116: not instrumented: $(tail -n 1 "$WORK/esbuild116.v") $(cat "$WORK/esbuild116.count.rewrite")"
    e116_ok=0
fi
if [ $e116_ok = 1 ]; then
    echo "  $(tail -n 1 "$WORK/esbuild116.v")"
    echo "  $(cat "$WORK/esbuild116.count.rewrite")"
    grep -q '(go1\.16\.[0-9]*)' "$WORK/esbuild116.v" || { fail "esbuild116: not reported as a Go 1.16 program"; e116_ok=0; }
    for form in small large huge; do
        n=$(grep -c "^count+time .*(TLS g, $form frame check" "$WORK/esbuild116.v")
        [ "$n" -gt 0 ] || { fail "esbuild116: no function instrumented in the TLS-g $form frame check form"; e116_ok=0; }
    done
    other=$(grep -E '^count(\+time)? ' "$WORK/esbuild116.v" | grep -vc '(TLS g, ')
    [ "$other" = 0 ] || { fail "esbuild116: $other functions instrumented in a form other than TLS g"; e116_ok=0; }
fi
if [ $e116_ok = 1 ]; then
    case_run esbuild116 "$e116_orig" "$e116_timed" "$RP/jsproj" esbuild
    case_run esbuild116-count "$e116_orig" "$e116_count" "$RP/jsproj" esbuild
    e116_start=$(date +%s%N)
    case_run esbuild116-transform "$e116_orig" "$e116_timed" "$RP/jsproj" esbuild_transform
    e116_wall=$(($(date +%s%N) - e116_start))
    case_run esbuild116-transform-count "$e116_orig" "$e116_count" "$RP/jsproj" esbuild_transform
    for r in esbuild116-transform esbuild116-transform-count; do
        for f in "$WORK/$r.instr/stat"/gostat.*; do
            gostat_json "$f" "$f.json" || fail "esbuild116: gostat --json $f"
        done
    done
    if python3 - "$WORK/esbuild116-transform.instr/stat" "$WORK/esbuild116-transform-count.instr/stat" \
        "$e116_wall" <<'PY'; then
import glob, json, re, sys
timed_dir, count_dir, wall = sys.argv[1], sys.argv[2], int(sys.argv[3])
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
        if None in q or q != sorted(q) or q[-1] > wall or f["timed_calls"] > f["calls"] or \
                not f["timed_calls"] * (q[0] - 1) <= f["total_ns"] <= f["timed_calls"] * (q[-1] + 1):
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
unwaited = re.compile(r"generateIsolatedHash|xxhash|\.hashWrite|Joiner\)?\.Done")
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
    print("ok   esbuild116: %d timed functions, sane times; %d esbuild functions called, same counts timed and count-only"
          % (ntimed, called))
sys.exit(1 if bad else 0)
PY
        :
    else
        fail "esbuild116: timed stats implausible or counts differ from the count-only run"
    fi
fi
