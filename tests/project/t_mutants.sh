#!/usr/bin/env bash
# t_mutants: `make mutants` inside `make check` (about 1.5 min): every
# mutant in tests/mutants/ (a deliberately broken gorewrite or gostat) must
# fail at least one of the tests its patch names, and those tests must pass
# with the real binaries. Runs alone (tests/run.sh SERIAL): its tests build
# into the same build/testbin paths as t_testdata and t_timing.
exec bash "$(dirname "$0")/../mutants/run.sh"
