#!/usr/bin/env bash
# t_mutants: `make mutants` inside `make check` (4-6 min): every
# mutant in tests/mutants/ (a deliberately broken gorewrite or gostat) must
# fail at least one of the tests its patch names, and those tests must pass
# with the real binaries. Runs alone (tests/run.sh SERIAL): it runs two
# mutants' tests at once itself.
exec bash "$(dirname "$0")/../mutants/run.sh"
