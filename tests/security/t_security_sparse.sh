#!/usr/bin/env bash
# t_security_sparse: a hostile stats file costs gostat at most a small
# multiple of the disk space it occupies. Sparse files (holes read as zeros,
# cost no disk) built from a real stats file:
#  - strtab-1g: a ~44 KiB file whose header claims a 1 GiB string table
#    (the old gostat read it all: 1.05 GB RSS);
#  - strtab-sparse: a string table within the per-function cap (12 MiB for
#    this program) but a hole: caught by the st_blocks check;
#  - rows-sparse: 8192 functions, 4096 rows all marked claimed and backed,
#    285 MiB of row heads that are holes (the old gostat faulted them all in);
#  - rows-4097: max_rows above the format's limit (4096);
#  - sites-sparse: the goroutine sites' live table claiming 128 MiB of
#    holes (gostat goroutines).
# Each must be rejected with its message, with gostat's peak RSS under
# 40 MiB; the real file still reads.
. "$(dirname "$0")/../lib.sh"
require_tools

work_dir

instrumented_live
mkdir "$WORK/stats"
GOSTAT_DIR=$WORK/stats "$WORK/live.instr" 10 >/dev/null || fail "instrumented program failed"
F=$(ls "$WORK"/stats/gostat.live.instr.*)

python3 - "$F" "$WORK" <<'EOF' || fail "could not build the sparse files"
import struct, sys
src, work = sys.argv[1], sys.argv[2]
real = open(src, 'rb').read()
PAGE = 4096
def u32(b, o): return struct.unpack_from('<I', b, o)[0]
def u64(b, o): return struct.unpack_from('<Q', b, o)[0]
hsize = u32(real, 12)
nfuncs, functab_off, strtab_off, strtab_size = u32(real, 56), u64(real, 64), u64(real, 72), u64(real, 80)
live_off, rows_off, stride, max_rows = u64(real, 88), u64(real, 96), u64(real, 104), u32(real, 112)
up = lambda n: (n + PAGE - 1) // PAGE * PAGE

GS_HDR_SITES = 128  # the goroutine sites after the rows: dropped, as the cases move the rows

def write_sparse(name, hdr, parts, size):
    hdr = bytearray(hdr)
    struct.pack_into('<I', hdr, 60, u32(hdr, 60) & ~GS_HDR_SITES)
    with open(f'{work}/{name}', 'wb') as f:
        f.truncate(size)
        f.seek(0); f.write(hdr)
        for off, data in parts:
            f.seek(off); f.write(data)

def strtab_case(name, claimed):
    h = bytearray(real[:hsize])
    new_live = up(strtab_off + claimed)
    struct.pack_into('<Q', h, 80, claimed)
    struct.pack_into('<Q', h, 88, new_live)
    struct.pack_into('<Q', h, 96, new_live + (rows_off - live_off))
    size = new_live + (len(real) - live_off)
    struct.pack_into('<Q', h, 16, size)
    write_sparse(name, h, [(functab_off, real[functab_off:functab_off + nfuncs * 40]),
                           (strtab_off, real[strtab_off:strtab_off + strtab_size]),
                           (new_live, real[live_off:live_off + PAGE + stride])], size)

strtab_case('strtab-1g', 1 << 30)
strtab_case('strtab-sparse', 12 << 20)

def rows_case(name, rows):
    n = 8192
    h = bytearray(real[:hsize])
    ft = up(hsize)
    st = ft + n * 40
    lv = up(st + 16)
    row_stride = up(128 + n * 8)    # drops and page map (GS_ROW_PAGEMAP), counters
    size = lv + PAGE + rows * row_stride
    flags = u32(h, 60) & ~2          # counting only: no timing geometry
    struct.pack_into('<I', h, 56, n); struct.pack_into('<I', h, 60, flags)
    struct.pack_into('<QQQQQQ', h, 64, ft, st, 16, lv, lv + PAGE, row_stride)
    struct.pack_into('<II', h, 112, rows, 8)
    struct.pack_into("<QQ", h, 1312, 128, 0)
    struct.pack_into('<II', h, 1304, 0, 0)
    struct.pack_into('<Q', h, 16, size)
    func = struct.pack('<QIIIIIIII', 0x401000, 16, 0, 0, 0, 0, 0xffffffff, 0, 0)
    live = struct.pack('<Q', rows - 1) + b'\xff' * (64 * 8)
    write_sparse(name, h, [(ft, func * n), (st, b'\0' * 16), (lv, live)], size)

rows_case('rows-sparse', 4096)
rows_case('rows-4097', 4097)

# sites-sparse: the real file's goroutine sites (gs_header.sites_off at 1480,
# glive_off 1488, max_glive 1500) claiming 4 Mi live entries (128 MiB), holes
sites_off, glive_off = u64(real, 1480), u64(real, 1488)
h = bytearray(real[:hsize])
struct.pack_into('<I', h, 1500, 1 << 22)
size = sites_off + glive_off + (1 << 22) * 32
struct.pack_into('<Q', h, 16, size)
with open(f'{work}/sites-sparse', 'wb') as f:
    f.truncate(size)
    f.write(h + real[hsize:])
EOF

# peak_rss_kib CMD...: runs CMD, prints its peak RSS in KiB (stdout and
# stderr to $WORK/out), exit status of CMD in $WORK/rc.
peak_rss_kib() {
    python3 -c '
import resource, subprocess, sys
with open(sys.argv[1], "wb") as out:
    rc = subprocess.call(sys.argv[2:], stdout=out, stderr=subprocess.STDOUT)
open(sys.argv[1] + ".rc", "w").write(str(rc))
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$WORK/out" "$@"
}

cases=(
    "strtab-1g|corrupt: a 1073741824-byte string table for"
    "strtab-sparse|(a sparse file?)"
    "rows-sparse|corrupt: its counter rows claim"
    "rows-4097|corrupt: max_rows 4097 (must be 1..4096)"
)
for c in "${cases[@]}"; do
    name=${c%%|*}
    phrase=${c#*|}
    f=$WORK/$name
    disk=$(( $(stat -c %b "$f") * $(stat -c %B "$f") / 1024 ))
    rss=$(peak_rss_kib "$GOSTAT" "$f")
    echo "$name: $(stat -c %s "$f") bytes, $disk KiB on disk, gostat peak RSS $rss KiB"
    [ "$(cat "$WORK/out.rc")" = 2 ] || fail "$name: gostat exited $(cat "$WORK/out.rc"), want 2: $(head -3 "$WORK/out")"
    grep -qF -- "$phrase" "$WORK/out" || fail "$name: message lacks '$phrase': $(head -3 "$WORK/out")"
    [ "$rss" -lt 40960 ] || fail "$name: gostat peak RSS $rss KiB (>= 40 MiB) for a file of $disk KiB on disk"
done

# gostat goroutines reads the sites section: bounded by the disk space too.
f=$WORK/sites-sparse
rss=$(peak_rss_kib "$GOSTAT" goroutines "$f")
echo "sites-sparse: $(stat -c %s "$f") bytes, gostat goroutines peak RSS $rss KiB"
[ "$(cat "$WORK/out.rc")" = 2 ] || fail "sites-sparse: gostat goroutines exited $(cat "$WORK/out.rc"), want 2: $(head -3 "$WORK/out")"
grep -qF "its goroutine sites claim" "$WORK/out" || fail "sites-sparse: message: $(head -3 "$WORK/out")"
[ "$rss" -lt 40960 ] || fail "sites-sparse: gostat goroutines peak RSS $rss KiB (>= 40 MiB)"
rss=$(peak_rss_kib "$GOSTAT" goroutines "$F")
[ "$(cat "$WORK/out.rc")" = 0 ] || fail "the real file's goroutine sites no longer read: $(head -3 "$WORK/out")"

# The real file still reads, with the same bound.
rss=$(peak_rss_kib "$GOSTAT" "$F")
[ "$(cat "$WORK/out.rc")" = 0 ] || fail "the real stats file no longer reads: $(head -3 "$WORK/out")"
echo "real file: gostat peak RSS $rss KiB"

[ $fails -eq 0 ]
