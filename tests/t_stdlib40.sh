#!/usr/bin/env bash
# t_stdlib40: 30 more standard-library test packages (40 with t_stdlib's
# 10), instrumented, with the checks of tests/t_stdlib.sh (same tests pass
# and skip, every top-level test that ran counted exactly once per run).
# To stay within make check's time budget each package runs with one
# toolchain, the toolchains taking turns, so every release of the tests
# runs five of them; t_stdlib runs its 10 with every toolchain.
# (net/http runs with 1.21: in GOPATH mode, which the tests use, newer
# test binaries get Go 1.20's GODEBUG defaults and some of their own tests
# fail, originals included.) STDLIB_MATRIX="pkg@1.22 ..." overrides the list.
MATRIX="net/http@1.21 os/exec@1.24 runtime/pprof@1.23 encoding/gob@1.15
bufio@1.19 encoding/base64@1.21 encoding/hex@1.22 encoding/csv@1.23
encoding/binary@1.24 encoding/xml@1.15 unicode/utf8@1.19 path@1.22
path/filepath@1.22 text/template@1.23 html/template@1.24 text/tabwriter@1.15
hash/crc32@1.19 hash/fnv@1.21 crypto/sha256@1.22 crypto/aes@1.23
crypto/hmac@1.24 compress/gzip@1.15 archive/tar@1.19 archive/zip@1.21
container/heap@1.22 container/ring@1.23 math/bits@1.24 unicode/utf16@1.15
context@1.19 net/url@1.21"
STDLIB_MATRIX=${STDLIB_MATRIX:-$MATRIX} exec bash "$(dirname "$0")/t_stdlib.sh"
