#!/usr/bin/env bash
# t_stats_format_doc: docs/stats-format.md's table of struct gs_header says
# what the struct is: each row's offset, size and field name, in order,
# equal to tests/tools/header_layout's (offsetof and sizeof of every field
# of format/gostat_format.h), and the heading's size equal to the struct's.
. "$(dirname "$0")/../lib.sh"
work_dir
TOOL=$ROOT/build/tests/header_layout
DOC=$ROOT/docs/stats-format.md
[ -x "$TOOL" ] || { echo "FAIL: $TOOL missing: run 'make tools'"; exit 1; }
"$TOOL" >"$WORK/struct" || { echo "FAIL: header_layout: the field list does not cover the struct"; exit 1; }
# The rows between the heading "### struct gs_header" and the next heading.
awk '/^### struct gs_header/ {on = 1; next} on && /^#/ {exit}
     on && /^\| *[0-9]+ *\| *[0-9]+ *\| *`/ {
         split($0, c, "|"); gsub(/[ `]/, "", c[2]); gsub(/[ `]/, "", c[3]); gsub(/[ `]/, "", c[4])
         print c[2], c[3], c[4] }' "$DOC" >"$WORK/doc"
if ! diff -u "$WORK/struct" "$WORK/doc" >"$WORK/diff"; then
    echo "FAIL: docs/stats-format.md's gs_header table differs from the struct (- struct, + doc):"
    cat "$WORK/diff"
    exit 1
fi
size=$(tail -1 "$WORK/struct" | awk '{print $1 + $2}')
grep -q "^### struct gs_header ($size bytes)" "$DOC" ||
    { echo "FAIL: the heading does not say $size bytes: $(grep '^### struct gs_header' "$DOC")"; exit 1; }
echo "ok   docs/stats-format.md's header table: $(wc -l <"$WORK/struct") fields, $size bytes, as the struct"
