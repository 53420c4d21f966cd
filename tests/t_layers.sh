#!/usr/bin/env bash
# t_layers.sh: the folders are the architecture (docs/architecture.md), and
# this test keeps them so. Each folder may include headers only from the
# folders listed for it below: its own, the shared ones (common/, format/)
# and the layers under it in the same program. No header name may appear in
# two folders (each program's -I list would otherwise pick one silently).
# Also checks the checker: a planted upward include must be reported.
. "$(dirname "$0")/lib.sh"
cd "$ROOT" || exit 1

check_tree() {
    python3 - "$1" <<'PY'
import os, re, sys
root = sys.argv[1]
# folder -> folders whose headers it may include (besides its own)
R = ["common", "format", "elf"]
G = ["common", "format"]
allowed = {
    "format": [], "common": [], "stubs": ["format"], "elf": ["common", "format"],
    "rewriter/find": R + ["format"],
    "rewriter/plan": R + ["rewriter/find"],
    "rewriter/gen": R + ["rewriter/find", "rewriter/plan"],
    "rewriter": R + ["rewriter/find", "rewriter/plan", "rewriter/gen"],
    "gostat/read": G,
    "gostat/model": G + ["gostat/read"],
    "gostat/out": G + ["gostat/read", "gostat/model"],
}
for peer in ("gostat/profile", "gostat/top", "gostat/serve"):
    allowed[peer] = allowed["gostat/out"] + ["gostat/out"]
allowed["gostat/cmd"] = allowed["gostat/out"] + ["gostat/out", "gostat/profile", "gostat/top", "gostat/serve"]
allowed["gostat"] = allowed["gostat/cmd"] + ["gostat/cmd"]
allowed["tests/tools"] = ["format"]
allowed["scripts"] = []

sources, headers = [], {}
for d, dirs, files in os.walk(root):
    rel = os.path.relpath(d, root)
    dirs[:] = [x for x in dirs if not x.startswith(".") and not (rel == "." and x in ("build", "bin"))]
    for f in files:
        if f.endswith((".c", ".h", ".S")):
            sources.append((rel, f))
        if f.endswith(".h"):
            headers.setdefault(f, []).append(rel)
bad = 0
for h, dirs in sorted(headers.items()):
    if len(dirs) > 1:
        print(f"header {h} is in {len(dirs)} folders: {', '.join(sorted(dirs))}"); bad += 1
inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
checked = 0
for rel, f in sorted(sources):
    if rel not in allowed:
        continue
    text = open(os.path.join(root, rel, f), errors="replace").read()
    for name in inc.findall(text):
        where = headers.get(os.path.basename(name))
        if not where:
            continue        # generated (profile.pb-c.h) or a system header
        checked += 1
        if where[0] != rel and where[0] not in allowed[rel]:
            print(f"{rel}/{f} includes {name} from {where[0]}, which {rel} may not use"); bad += 1
unlisted = sorted({rel for rel, _ in sources} - set(allowed) - {"fuzz", "tests/dwarf", "tests/unit", "fuzz/seedprog"})
for rel in unlisted:
    print(f"folder {rel} holds C sources but has no row in t_layers.sh"); bad += 1
print(f"{checked} includes checked, {bad} problems")
sys.exit(1 if bad else 0)
PY
}

out=$(check_tree "$ROOT") || fail "layering: $out"
echo "$out" | tail -1

# The checker catches an upward include and a duplicate header name.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
git ls-files -z | (cd "$ROOT" && xargs -0 cp --parents -t "$tmp")
echo '#include "table.h"' >>"$tmp/gostat/read/statsfile.c"
out=$(check_tree "$tmp") && fail "an include of out/table.h from read/ passed"
echo "$out" | grep -q 'gostat/read/statsfile.c includes table.h from gostat/out' ||
    fail "upward include not named: $out"
cp "$tmp/common/error.h" "$tmp/elf/error.h"
out=$(check_tree "$tmp") && fail "a duplicate error.h passed"
echo "$out" | grep -q 'header error.h is in 2 folders' || fail "duplicate header not named: $out"

[ "$fails" -eq 0 ]
