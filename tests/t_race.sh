#!/usr/bin/env bash
# t_race: the testdata suite (tests/t_testdata.sh) built with -race:
# ThreadSanitizer's C code is linked into .text and listed in pclntab (some
# functions under two names); gorewrite must leave it alone, say why, and
# count the Go functions exactly.
VARIANTS="race" exec bash "$(dirname "$0")/t_testdata.sh"
