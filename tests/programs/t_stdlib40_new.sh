#!/usr/bin/env bash
# t_stdlib40_new: tests/programs/t_stdlib40.sh's packages of the second half of
# its releases (1.22, 1.25); see there.
STDLIB40_PART=2 exec bash "$(dirname "$0")/t_stdlib40.sh"
