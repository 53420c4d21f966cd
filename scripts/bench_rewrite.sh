#!/usr/bin/env bash
# scripts/bench_rewrite.sh (run by make bench, after scripts/bench.sh):
# how fast gorewrite rewrites large real programs, and its peak memory, next
# to LIEF 0.9 parsing the same file alone (the first reference point:
# BENCHMARKS.md, "Running the benchmarks").
# Median of 3 runs; peak RSS from GNU time. Prints a markdown table and
# appends it to build/bench/results.md.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=build/bench
mkdir -p "$OUT"
PROGS="/usr/lib/go-1.22/pkg/tool/linux_amd64/compile /usr/bin/restic
build/npm/node_modules/@esbuild/linux-x64/bin/esbuild
build/npm/node_modules/@typescript/native-preview-linux-x64/lib/tsgo
build/npm/node_modules/@bufbuild/buf-linux-x64/bin/buf /usr/bin/rclone"
cat >"$OUT/lief_parse.c" <<'C'
#include <LIEF/ELF.h>
int main(int argc, char **argv) { (void)argc; elf_binary_destroy(elf_parse(argv[1])); return 0; }
C
cc -O2 -o "$OUT/lief_parse" "$OUT/lief_parse.c" -lLIEF -lstdc++ -lm

# median3 CMD...: "seconds max_rss_kb" of the median-time run of three
median3() {
    local i
    for i in 1 2 3; do
        /usr/bin/time -f '%e %M' "$@" 2>&1 >/dev/null | tail -n 1
    done | sort -n | sed -n 2p
}

{
echo
echo "### Rewrite speed and memory (median of 3; peak RSS)"
echo
echo "| program | Go | size | functions instrumented / total | gorewrite | peak RSS (x input) | LIEF parse alone | LIEF peak RSS (x input) | output growth |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for p in $PROGS; do
    [ -x "$p" ] || { echo "bench_rewrite: $p missing (scripts/deps.sh)" >&2; exit 1; }
    size=$(stat -c %s "$p")
    read -r t rss < <(median3 bin/gorewrite "$p" "$OUT/rewrite.out")
    read -r lt lrss < <(median3 "$OUT/lief_parse" "$p")
    line=$(bin/gorewrite "$p" "$OUT/rewrite.out")
    osize=$(stat -c %s "$OUT/rewrite.out")
    python3 - "$p" "$size" "$osize" "$t" "$rss" "$lt" "$lrss" "$line" <<'PY'
import re, sys
p, size, osize, t, rss, lt, lrss, line = sys.argv[1:]
size, osize, rss, lrss = int(size), int(osize), int(rss) * 1024, int(lrss) * 1024
m = re.search(r"(\d+) functions instrumented(?: \(\d+ timed\))?, (\d+) skipped \((go[^)]*)\)", line)
ins, skip, gov = int(m.group(1)), int(m.group(2)), m.group(3)
name = p.rsplit("/", 1)[-1]
print(f"| {name} | {gov} | {size/1e6:.1f} MB | {ins} / {ins+skip} | {float(t):.2f} s | "
      f"{rss/1e6:.0f} MB ({rss/size:.1f}x) | {float(lt):.2f} s | {lrss/1e6:.0f} MB ({lrss/size:.1f}x) | "
      f"{100*(osize-size)/size:+.1f} % |")
PY
done
rm -f "$OUT/rewrite.out"
} | tee -a "$OUT/results.md"
