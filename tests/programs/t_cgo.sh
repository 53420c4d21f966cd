#!/usr/bin/env bash
# t_cgo: testdata programs (tests/programs/t_testdata.sh) built with cgo and linked
# by gcc: as an executable with every Go of the tests (libc's _start runs
# after the dynamic loader; C start-up code shares .text with Go and is not
# in pclntab), and as a stripped PIE with the oldest and newest (pclntab
# has no section of its own: it is found inside .data.rel.ro; textStart is
# filled by a relocation). testdata/cgocall adds Go -> C -> Go callbacks.
# The programs are those whose behaviour linking can change (hammer and
# stack, pure computation, run in t_testdata). PROGS / GOVERS override.
progs=${PROGS:-"cgocall recursion threads callers panics iface"}
here=$(dirname "$0")
rc=0
PROGS=$progs VARIANTS="cgo-ext" bash "$here/t_testdata.sh" || rc=1
PROGS=$progs VARIANTS="cgo-extpie-stripped" GOVERS=${GOVERS:-"1.15 1.24"} bash "$here/t_testdata.sh" || rc=1
exit $rc
