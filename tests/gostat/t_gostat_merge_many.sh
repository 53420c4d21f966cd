#!/usr/bin/env bash
# t_gostat_merge_many: gostat merge over 2,002 stats files (tests/tools/
# mkstats; a CI step's short-lived processes) holds the result and one
# input, not all inputs: exact sums over every file, and a peak RSS under
# 200 MB (the goal for 2,000 files; the result needs ~10 MB, the merge that
# kept every input used ~1.9 GB on these files: docs/benchmarks/history.md).
#
# File n (pid 1000+n, n = 1..2002) holds functions pkgK.FuncI (I =
# 0..1999, K = I mod 50) with n + I calls each, and one function only.pN
# of its own with 1 call:
#   pkgK.FuncI: sum n + I over n = 2002 * 2003 / 2 + 2002 * I
#   total_calls: 2000 * 2005003 + 2002 * (0 + .. + 1999) + 2002
cd "$(dirname "$0")/../.."
. tests/assert.sh
require_tools

files=2002
funcs=2000
python3 - "$MKSTATS" "$dir" $files $funcs <<'EOF' || fail "mkstats"
import subprocess, sys
mkstats, out, files, funcs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
for n in range(1, files + 1):
    args = [mkstats, "%s/gostat.cli.%d" % (out, 1000 + n), "--pid", str(1000 + n),
            "--build-id", "b1", "--exe", "/usr/bin/cli", "--go-version", "go1.22.5"]
    for i in range(funcs):
        args += ["--func", "pkg%d.Func%d:0x%x:%d:/src/f%d.go:%d" % (i % 50, i, 0x1000 + 16 * i, n + i, i % 50, i + 1)]
    args += ["--func", "only.p%d:0x%x:1" % (n, 0x1000 + 16 * funcs)]
    subprocess.run(args, check=True)
EOF
expect "files crafted" $files "$(ls "$dir" | grep -c '^gostat\.cli\.')"

m=$dir/merged.json
/usr/bin/time -v "$GOSTAT" merge --dir "$dir" -o "$m" >"$dir/out" 2>"$dir/time" || fail "merge --dir: exit $?"
expect "merge summary" \
    "merged 2002 processes: 8012006002 calls, 4002 of 4002 functions called, into $m" \
    "$(cat "$dir/out")"
rss_kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/time")
echo "gostat merge --dir of $files files: peak RSS ${rss_kb} kB"
[ -n "$rss_kb" ] && [ "$rss_kb" -le 204800 ] || fail "merge --dir: peak RSS ${rss_kb:-?} kB over 200 MB"

python3 - "$m" $files $funcs <<'EOF' >"$dir/check" || fail "merged JSON check"
import json, sys
d = json.load(open(sys.argv[1]))
files, funcs = int(sys.argv[2]), int(sys.argv[3])
f = {x["name"]: x for x in d["functions"]}
bad = []
for i in range(funcs):
    x = f.get("pkg%d.Func%d" % (i % 50, i))
    want = files * (files + 1) // 2 + files * i
    if not x or x["calls"] != want or x["file"] != "/src/f%d.go" % (i % 50) or x["line"] != i + 1:
        bad.append("pkg%d.Func%d" % (i % 50, i))
for n in range(1, files + 1):
    if f.get("only.p%d" % n, {}).get("calls") != 1:
        bad.append("only.p%d" % n)
print(len(d["functions"]), d["total_calls"], len(d["processes"]),
      sorted(p["pid"] for p in d["processes"]) == list(range(1001, 1001 + files)), bad[:5])
EOF
expect "merged sums" "4002 8012006002 2002 True []" "$(cat "$dir/check")"

# Naming the files gives the same result as --dir (each read on its own too).
"$GOSTAT" merge "$dir"/gostat.cli.* >"$dir/files.json" 2>"$dir/err" || fail "merge FILES: exit $?"
cmp -s "$m" "$dir/files.json" || fail "merge FILES differs from merge --dir"

finish t_gostat_merge_many
