#!/usr/bin/env bash
# scripts/speedscope_shot.sh FOLDED OUT.png [DOM.html]: loads a folded-stacks
# file (`frame;frame;frame VALUE` lines, root first; or Chrome trace-event
# JSON, gostat trace --chrome) into speedscope
# (build/npm/speedscope, scripts/npm_progs.sh) in Debian's headless Chromium
# and writes a screenshot of its flame graph ("left heavy" view) to OUT.png;
# DOM.html, when given, gets the page's DOM in the "sandwich" view (a table
# of every frame with its total and self values).
#
# Offline, with no click: the profile is handed over the way speedscope's own
# command line does it, a local script calling speedscope.loadFileFromBase64
# named by #localProfilePath=; name resolution is switched off.
#
# Checked before exit 0, so that a page that did not load the profile is an
# error, not a blank picture: the DOM's title names FOLDED, its table lists
# frames and each of them is a frame of FOLDED; the PNG has the window's size
# and a pixel row that is coloured across >= 90 % of its width (the root
# frames of a flame graph span it; speedscope's landing page has none).
# Exit 1 with one line naming what is wrong.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
INDEX=$ROOT/build/npm/speedscope/node_modules/speedscope/dist/release/index.html
WIDTH=1200
HEIGHT=800

die() { echo "speedscope_shot.sh: $*" >&2; exit 1; }

[ $# -eq 2 ] || [ $# -eq 3 ] || die "usage: speedscope_shot.sh FOLDED OUT.png [DOM.html]"
folded=$1 out=$2 dom_out=${3:-}
[ -r "$folded" ] || die "$folded: cannot read the folded-stacks file"
[ -s "$folded" ] || die "$folded: empty folded-stacks file"
[ -r "$INDEX" ] || die "$INDEX missing: run scripts/npm_progs.sh (make deps)"
command -v chromium >/dev/null || die "chromium is not installed: run scripts/deps.sh (make deps)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
name=$(basename "$folded")
python3 - "$folded" "$name" >"$tmp/profile.js" <<'PY'
import base64, json, sys
data = open(sys.argv[1], "rb").read()
# speedscope reports a file it cannot read with alert(), which would hang
# a headless page: the message goes to the title instead.
print("window.alert = function (m) { document.title = 'speedscope alert: ' + m; };")
print("speedscope.loadFileFromBase64(%s, %s)" % (json.dumps(sys.argv[2]),
      json.dumps(base64.b64encode(data).decode())))
PY

# chromium URL [FLAGS...]: one headless page load in a private profile;
# virtual time lets the page load and draw before the capture; a page
# that hangs all the same is stopped after a minute.
chromium_run() {
    local url=$1
    shift
    local sandbox=()
    [ "$(id -u)" = 0 ] && sandbox=(--no-sandbox) # root (CI) cannot sandbox
    timeout 60 chromium --headless "${sandbox[@]}" --disable-gpu --user-data-dir="$tmp/profile" \
        --no-first-run --disable-background-networking --disable-component-update \
        --host-resolver-rules="MAP * ~NOTFOUND" --allow-file-access-from-files \
        --window-size=$WIDTH,$HEIGHT --virtual-time-budget=10000 "$@" "$url" 2>>"$tmp/chromium.log"
}
page="file://$INDEX#localProfilePath=$tmp/profile.js"

chromium_run "$page&view=sandwich" --dump-dom >"$tmp/dom.html" ||
    die "chromium --dump-dom failed: $(tail -3 "$tmp/chromium.log")"
python3 - "$tmp/dom.html" "$folded" "$name" <<'PY' || exit 1
import html, re, sys
dom = open(sys.argv[1], encoding="utf-8", errors="replace").read()
name = sys.argv[3]
def fail(msg):
    sys.exit(f"speedscope_shot.sh: {sys.argv[2]}: speedscope did not load the profile: {msg}")
title = re.search(r"<title>(.*?)</title>", dom, re.S)
if not title or html.unescape(title.group(1)) != f"{name} - speedscope":
    fail(f"page title is {title.group(1) if title else 'missing'!r}, not {name + ' - speedscope'!r}")
frames = set()
text = open(sys.argv[2], encoding="utf-8", errors="replace").read()
if text.startswith("{"):    # Chrome trace-event JSON (gostat trace --chrome): its events' names
    import json
    frames.update(e["name"] for e in json.loads(text)["traceEvents"] if e.get("ph") == "X")
for line in text.splitlines() if not text.startswith("{") else []:
    stack = line.rsplit(" ", 1)[0]
    frames.update(stack.split(";"))
shown = [html.unescape(s) for s in re.findall(r"</span>([^<]+)</td></tr>", dom)]
if not shown:
    fail("the sandwich view lists no frame")
# speedscope names a Chrome event's frame by its name and its args
strangers = [s for s in shown if s not in frames and s.split(" {", 1)[0] not in frames]
if strangers:
    fail(f"frames not in the file are listed: {strangers[:3]}")
PY
[ -n "$dom_out" ] && cp "$tmp/dom.html" "$dom_out"

rm -f "$out"
chromium_run "$page&view=left-heavy" --screenshot="$out" >/dev/null ||
    die "chromium --screenshot failed: $(tail -3 "$tmp/chromium.log")"
[ -s "$out" ] || die "chromium wrote no screenshot to $out"
python3 -B - "$ROOT/scripts" "$out" "$WIDTH" "$HEIGHT" <<'PY' || exit 1
import sys
sys.path.insert(0, sys.argv[1])
from png_stats import stats
out, w, h = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
try:
    s = stats(out)
except ValueError as e:
    sys.exit(f"speedscope_shot.sh: {e}")
if (s["width"], s["height"]) != (w, h):
    sys.exit(f"speedscope_shot.sh: {out}: {s['width']}x{s['height']}, not the window's {w}x{h}")
if s["widest_row"] < 0.9:
    sys.exit(f"speedscope_shot.sh: {out}: no flame graph drawn (widest coloured row "
             f"{s['widest_row']:.0%} of the width, a flame graph's root spans >= 90 %)")
PY
