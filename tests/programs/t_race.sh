#!/usr/bin/env bash
# t_race: testdata programs (tests/programs/t_testdata.sh) built with -race by every
# Go of the tests: ThreadSanitizer's C code is linked into .text and listed
# in pclntab (some functions under two names); gorewrite must leave it
# alone, say why, and count the Go functions exactly. PROGS / GOVERS
# override the programs (default: those with goroutines, threads, cgo
# callbacks and tracebacks) and releases.
PROGS=${PROGS:-"cgocall recursion threads callers"} VARIANTS="race" exec bash "$(dirname "$0")/t_testdata.sh"
