#!/usr/bin/env bash
# t_layers.sh: the folders are the architecture (docs/architecture.md), and
# this test keeps them so. Each folder may include headers only from the
# folders listed for it below: its own, the shared ones (common/, format/)
# and the layers under it in the same program, and from another folder only
# the headers that folder marks exported (first line "/* exported by
# FOLDER */"). Includes name the header from the repository root
# ("rewriter/plan/plan.h"), so the layer is visible where it is used. No
# header name may appear in two folders. Also checks the checker: planted
# mistakes of each kind must be reported.
. "$(dirname "$0")/../lib.sh"
cd "$ROOT" || exit 1

check_tree() {
    python3 - "$1" <<'PY'
import os, re, sys
root = sys.argv[1]
# folder -> folders whose headers it may include (besides its own)
R = ["common", "format", "elf"]
G = ["common", "format"]
allowed = {
    "format": [], "common": ["format"], "stubs": ["format"], "elf": ["common", "format"],
    "rewriter/find": R + ["format"],
    "rewriter/plan": R + ["rewriter/find"],
    "rewriter/gen": R + ["rewriter/find", "rewriter/plan"],
    "rewriter": R + ["rewriter/find", "rewriter/plan", "rewriter/gen"],
    "gostat/read": G,
    "gostat/model": G + ["gostat/read"],
    "gostat/render": G + ["gostat/read", "gostat/model"],
}
for peer in ("gostat/profile", "gostat/top", "gostat/serve"):
    allowed[peer] = allowed["gostat/render"] + ["gostat/render"]
allowed["gostat/cmd"] = allowed["gostat/render"] + ["gostat/render", "gostat/profile", "gostat/top", "gostat/serve"]
allowed["gostat"] = allowed["gostat/cmd"] + ["gostat/cmd"]
allowed["tests/tools"] = ["format"]
# the --trace layout drivers: gorewrite's find stage and gostat's decoder
allowed["tests/trace"] = R + ["format", "rewriter/find", "gostat/read", "gostat/render"]
allowed["scripts"] = []
# the manual pages' generators: linked with their program, they read its option tables
allowed["mangen"] = G + ["gostat/cmd", "rewriter"]

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
# Includes name the header from the repository root; a header another
# folder includes is marked as its folder's export, and only those are.
inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
GENERATED = {"profile.pb-c.h", "format/asm_offsets.h"}  # made in build/gen
def marked(path):
    with open(os.path.join(root, path), errors="replace") as fh:
        return fh.readline().strip() == f"/* exported by {os.path.dirname(path)} */"
checked, used_outside = 0, set()
for rel, f in sorted(sources):
    text = open(os.path.join(root, rel, f), errors="replace").read()
    for name in inc.findall(text):
        if name in GENERATED:
            continue
        if not os.path.isfile(os.path.join(root, name)):
            print(f"{rel}/{f} includes \"{name}\", which is not a path from the repository root"); bad += 1
            continue
        where = os.path.dirname(name)
        if rel not in allowed or where == rel:
            continue        # tests and fuzzing may reach inside a layer
        checked += 1
        used_outside.add(name)
        if where not in allowed[rel]:
            print(f"{rel}/{f} includes {name} from {where}, which {rel} may not use"); bad += 1
        elif not marked(name):
            print(f"{rel}/{f} includes {name}, which {where} does not mark exported"); bad += 1
for rel, f in sorted(sources):
    path = os.path.normpath(os.path.join(rel, f))
    if f.endswith(".h") and rel in allowed and marked(path) and path not in used_outside:
        print(f"{path} is marked exported but no other folder includes it"); bad += 1
unlisted = sorted({rel for rel, _ in sources} - set(allowed) - {"fuzz", "tests/dwarf", "tests/unit", "fuzz/seedprog"})
for rel in unlisted:
    print(f"folder {rel} holds C sources but has no row in t_layers.sh"); bad += 1
print(f"{checked} includes checked, {bad} problems")
sys.exit(1 if bad else 0)
PY
}

out=$(check_tree "$ROOT") || fail "layering: $out"
echo "$out" | tail -1

# The checker catches an upward include, a bare name, an unmarked header
# used from outside, a needless mark and a duplicate header name.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
git ls-files -z | (cd "$ROOT" && xargs -0 cp --parents -t "$tmp")
planted() { # WHAT EXPECTED: the planted tree fails, naming EXPECTED
    local out
    out=$(check_tree "$tmp") && fail "$1 passed"
    echo "$out" | grep -qF "$2" || fail "$1 not named: $out"
}
echo '#include "gostat/render/table.h"' >>"$tmp/gostat/read/statsfile.c"
planted "an include of render/table.h from read/" 'gostat/read/statsfile.c includes gostat/render/table.h from gostat/render'
cp "$ROOT/gostat/read/statsfile.c" "$tmp/gostat/read/statsfile.c"
echo '#include "statsfile.h"' >>"$tmp/gostat/read/statsdir.c"
planted "a bare include" 'gostat/read/statsdir.c includes "statsfile.h", which is not a path'
cp "$ROOT/gostat/read/statsdir.c" "$tmp/gostat/read/statsdir.c"
sed -i 1d "$tmp/gostat/read/statsfile.h"
planted "an unmarked export" 'includes gostat/read/statsfile.h, which gostat/read does not mark exported'
cp "$ROOT/gostat/read/statsfile.h" "$tmp/gostat/read/statsfile.h"
sed -i '1i /* exported by gostat/read */' "$tmp/gostat/read/sigbus_guard.h"
planted "a needless mark" 'gostat/read/sigbus_guard.h is marked exported but no other folder includes it'
cp "$ROOT/gostat/read/sigbus_guard.h" "$tmp/gostat/read/sigbus_guard.h"
cp "$tmp/common/error.h" "$tmp/elf/error.h"
planted "a duplicate error.h" 'header error.h is in 2 folders'
rm "$tmp/elf/error.h"
out=$(check_tree "$tmp") || fail "the restored copy fails: $out"

[ "$fails" -eq 0 ]
