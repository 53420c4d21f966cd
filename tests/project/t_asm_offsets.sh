#!/usr/bin/env bash
# t_asm_offsets.sh: no byte offset of the stub ABI is written by hand. The
# assembly's offsets come from the structs (build/gen/format/asm_offsets.h,
# made from format/asm_offsets.c): each name there must be defined nowhere
# else, every name the stubs' assembly uses must come from it or from a
# header's constants, and the generated values must be what the structs
# say, which a planted wrong value shows the check can see.
cd "$(dirname "$0")/../.."
. tests/assert.sh

gen=build/gen/format/asm_offsets.h
[ -s "$gen" ] || { fail "$gen was not generated"; exit 1; }
names=$(sed -n 's/^#define \(GS_[A-Z0-9_]*\) [0-9]*$/\1/p' "$gen")
[ "$(echo "$names" | wc -l)" -ge 150 ] || { fail "$gen holds $(echo "$names" | wc -l) offsets"; exit 1; }

# typed twice: a generated name also #defined in a source file
for n in $names; do
    grep -rnw --include='*.[chS]' -E "^\s*#\s*define\s+$n" format stubs rewriter gostat common tests fuzz |
        sed "s|^|  defined by hand: |"
done >"$dir/twice"
[ -s "$dir/twice" ] && fail "offsets written by hand beside the generated ones:
$(cat "$dir/twice")"

# the values: a C program compares each generated macro with its enum
# constant (offsetof/sizeof of the same field), the way a reader of the
# assembly would
check_values() { # HEADER: compiles and runs the comparison against HEADER
    {
        echo '#include <stdio.h>'
        echo '#include "format/stub_abi.h"'
        echo '#include "format/trace_format.h"'
        echo 'int main(void) { int bad = 0;'
        sed -n 's/^#define \(GS_[A-Z0-9_]*\) \([0-9]*\)$/if (\1 != \2) { printf("\1: %d, not \2\\n", (int)\1); bad++; }/p' "$1"
        echo 'return bad != 0; }'
    } >"$dir/check.c"
    cc -std=c11 -D_GNU_SOURCE -Wall -Werror -I. -o "$dir/check" "$dir/check.c" && "$dir/check"
}
out=$(check_values "$gen") || fail "generated offsets differ from the structs: $out"
sed 's/^#define GS_TIM_ONCPU .*/#define GS_TIM_ONCPU 300/' "$gen" >"$dir/planted.h"
out=$(check_values "$dir/planted.h") && fail "a planted wrong offset passed"
echo "$out" | grep -q 'GS_TIM_ONCPU: 312, not 300' || fail "the planted offset not named: $out"
echo "$(echo "$names" | wc -l) offsets generated from the structs, none by hand"
finish t_asm_offsets
