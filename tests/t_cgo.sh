#!/usr/bin/env bash
# t_cgo: the testdata suite (tests/t_testdata.sh) built with cgo and linked
# by gcc: as an executable (libc's _start runs after the dynamic loader; C
# start-up code shares .text with Go and is not in pclntab) and as a
# stripped PIE (pclntab has no section of its own; it is found inside
# .data.rel.ro). testdata/cgocall adds Go -> C -> Go callbacks.
VARIANTS="cgo-ext cgo-extpie-stripped" exec bash "$(dirname "$0")/t_testdata.sh"
