#!/usr/bin/env bash
# t_security_outfile: `gostat pprof -o` and the other -o writers. Runs as
# root, like a user writing into a shared directory:
#  - a symlink another user (nobody) planted at the -o path is refused
#    (exit 2, one message) and its target is left unchanged;
#  - our own symlink is still followed (the file it points to is replaced);
#  - replacing an existing 0600 file keeps mode 0600 (umask 022 would have
#    made it 0644), and a new file gets 0666 minus the umask.
. "$(dirname "$0")/../lib.sh"
require_tools

[ "$(id -u)" = 0 ] || { echo "FAIL t_security_outfile must run as root (it plants nobody's symlink)"; exit 1; }

work_dir
chmod 755 "$WORK"

instrumented_live
mkdir "$WORK/stats"
GOSTAT_DIR=$WORK/stats "$WORK/live.instr" 10 >/dev/null || fail "instrumented program failed"
F=$(ls "$WORK"/stats/gostat.live.instr.*)

SHARED=$WORK/shared
mkdir -m 1777 "$SHARED"
echo "root's private data" >"$WORK/secret"
chmod 600 "$WORK/secret"
ln -s "$WORK/secret" "$SHARED/prof.pb.gz"
chown -h 65534:65534 "$SHARED/prof.pb.gz"
umask 022
"$GOSTAT" pprof "$F" -o "$SHARED/prof.pb.gz" >"$WORK/out" 2>"$WORK/err"
rc=$?
[ $rc = 2 ] || fail "pprof -o through nobody's symlink: exit $rc, want 2"
grep -q "symlink owned by another user" "$WORK/err" || fail "no message about the planted symlink: $(cat "$WORK/err")"
[ "$(cat "$WORK/secret")" = "root's private data" ] || fail "the planted symlink's target was replaced"
[ -L "$SHARED/prof.pb.gz" ] || fail "the planted symlink was replaced"
"$GOSTAT" callgrind "$F" -o "$SHARED/prof.pb.gz" >/dev/null 2>&1 && fail "callgrind -o followed nobody's symlink"
[ "$(cat "$WORK/secret")" = "root's private data" ] || fail "callgrind -o replaced the planted symlink's target"

# Our own symlink to a 0600 file: followed, mode kept.
ln -s "$WORK/secret" "$WORK/mine"
"$GOSTAT" pprof "$F" -o "$WORK/mine" >/dev/null 2>"$WORK/err" || fail "pprof -o through our own symlink failed: $(cat "$WORK/err")"
gzip -t "$WORK/secret" 2>/dev/null || fail "our own symlink's target was not replaced by the profile"
[ "$(stat -c %a "$WORK/secret")" = 600 ] || fail "replaced file is $(stat -c %a "$WORK/secret"), not 600"
[ -L "$WORK/mine" ] || fail "our symlink itself was replaced"

# A plain existing 0640 file keeps 0640; a new file gets 0644 (umask 022).
echo old >"$WORK/p2"
chmod 640 "$WORK/p2"
"$GOSTAT" pprof "$F" -o "$WORK/p2" >/dev/null || fail "pprof -o over an existing file failed"
[ "$(stat -c %a "$WORK/p2")" = 640 ] || fail "replaced 0640 file is $(stat -c %a "$WORK/p2")"
"$GOSTAT" pprof "$F" -o "$WORK/p3" >/dev/null || fail "pprof -o to a new file failed"
[ "$(stat -c %a "$WORK/p3")" = 644 ] || fail "new file is $(stat -c %a "$WORK/p3"), want 644"

[ $fails -eq 0 ]
