#!/usr/bin/env bash
# t_stdlib40: 30 more standard-library test packages (40 with t_stdlib's
# 10), instrumented, with the checks of tests/programs/t_stdlib.sh (same tests pass
# and skip, every top-level test that ran counted exactly once per run),
# each with one of Go 1.15, 1.19, 1.22 (one release of each pclntab layout
# the tests build with) and 1.25 (one of the two releases most programs in
# production are built with), in turn from one package to the next, so
# that each release runs 7 or 8 of them; t_stdlib's 10 run with every
# other release, and tests/programs/t_testdata.sh runs every release. One
# release per package: what a release changes is in its runtime and tables,
# which every package built with it exercises; a second release per package
# would double make check's longest part for little.
# The 30 cases are split by release in two scripts so that make check's two
# jobs share them: this one runs 1.15 and 1.19, t_stdlib40_new.sh 1.22 and
# 1.25 (STDLIB40_PART=2). STDLIB_MATRIX="pkg@1.22 ..." overrides the list;
# STDLIB_ALL=1 runs every package with all four.
# (crypto/hmac is not in it: Go 1.15's has two tests, below t_stdlib's
# minimum of three that must run.)
. "$(dirname "$0")/../lib.sh"

PKGS40="net/http os/exec runtime/pprof encoding/gob
bufio encoding/base64 encoding/hex encoding/csv encoding/binary encoding/xml
unicode/utf8 unicode/utf16 path path/filepath text/template html/template
text/tabwriter hash/crc32 hash/fnv crypto/sha256 crypto/sha512 crypto/aes
compress/gzip archive/tar archive/zip container/heap container/ring math/bits
context net/url"

all=(1.15 1.19 1.22 1.25)
half=$((${#all[@]} / 2))
case ${STDLIB40_PART:-1} in
    1) versions=("${all[@]:0:half}") ;;
    2) versions=("${all[@]:half}") ;;
    *) echo "t_stdlib40: STDLIB40_PART must be 1 or 2" >&2; exit 1 ;;
esac
# package k with release k mod 4 (STDLIB_ALL=1: all four)
matrix=""
k=0
for p in $PKGS40; do
    for v in "${versions[@]}"; do
        [ -n "${STDLIB_ALL:-}" ] || [ "${all[$((k % ${#all[@]}))]}" = "$v" ] && matrix+="$p@$v "
    done
    k=$((k + 1))
done
STDLIB_MATRIX=${STDLIB_MATRIX:-$matrix} exec bash "$(dirname "$0")/t_stdlib.sh"
