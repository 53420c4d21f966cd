#!/usr/bin/env bash
# make bench-macro: runs the macro benchmarks named as arguments, in order
# (default: all three), each writing build/bench/NAME.md:
#   gofmt     go build -a cmd/gofmt, the compiler instrumented (bench_macro.py)
#   service   testdata/service under hey's load (bench_service.py)
#   accuracy  the default's estimated totals against --time-all's on the
#             gofmt build's compile (bench_accuracy.py)
# MACRO_ROUNDS sets the interleaved rounds of each; MACRO_SELECTION=1 adds
# the modes that instrument only the program's own packages
# (docs/selection.md) to gofmt and service.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=${MACRO_ROUNDS:-5}
selection=()
[ -n "${MACRO_SELECTION:-}" ] && selection=(--selection)
[ $# -gt 0 ] || set -- gofmt service accuracy
for name in "$@"; do
    case $name in
        gofmt) python3 scripts/bench_macro.py --rounds "$rounds" "${selection[@]}" ;;
        service) python3 scripts/bench_service.py --rounds "$rounds" "${selection[@]}" ;;
        accuracy) python3 scripts/bench_accuracy.py --rounds "$rounds" ;;
        *) echo "bench_macros.sh: unknown macro '$name' (gofmt, service, accuracy)" >&2; exit 1 ;;
    esac
done
