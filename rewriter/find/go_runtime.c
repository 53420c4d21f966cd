/* go_runtime.c: the table of verified g/m layouts (see go_runtime.h). To
 * add a release: build any program with it, read the member offsets of
 * runtime.g and runtime.m from its DWARF (scripts/go_layout.py BINARY
 * prints all four; `gorewrite --print-layout` prints them as DWARF, the
 * type descriptors and rt0_go state them), add a row, and run make check
 * (tests/rewriter/t_layout.sh compares the derivations with DWARF for every
 * toolchain at hand). A row is a cross-check, not the only source: every
 * program's own offsets are derived again and must agree with it
 * (go_layout_check.c).
 * How each row was verified:
 *   1.15  scripts/go_layout.py on testdata/recursion built by go1.15.15
 *         (Debian bullseye golang-1.15-go, scripts/go_toolchains.sh); Go 1.15 has
 *         the stack ABI: g is loaded from TLS by every prologue
 *   1.16  no Go 1.16 toolchain or unstripped binary at hand. Computed from
 *         go1.16.14's src/runtime/runtime2.go (read through the code search:
 *         fire1220/annotation-go1.16.14; no released 1.16.x changed these
 *         structs): g lists the same members as 1.15's up to racectx
 *         (stack, stackguard0/1, _panic, _defer, m, gobuf sched of 7 words,
 *         ... ancestors, startpc), and m the same ones up to tls (g0, gobuf
 *         morebuf, divmod, procid, gsignal, gsignalStack of 5 words, sigset
 *         [2]uint32), so the 1.15 row; the same hand computation gives the
 *         known 1.15 (0x130/0x88) and 1.19 (racectx 0x140) rows. Checked in
 *         the stripped esbuild 0.11.23 (npm, go1.16.3) rt0_go: LEAQ m0+0x88
 *         before settls, MOVQ AX, 0x30(CX) for g0.m, MOVQ SP, 0x8(DI) for
 *         g0.stack.hi (racectx is used only by -race builds), and since by
 *         its type descriptors (all four, layout_types.c). That esbuild
 *         runs identically instrumented, timed and --count-only, with exact
 *         counts (tests/realprogs/esbuild_old.sh)
 *   1.17, 1.18, 1.20  no toolchain at hand (no Debian suite carries them);
 *         derived from the stripped esbuild builds on npm: esbuild-linux-64
 *         0.13.15 (go1.17.2), 0.14.39 (go1.18.1), @esbuild/linux-x64
 *         0.18.20 (go1.20.7), scripts/npm_progs.sh. In each, the runtime's
 *         type descriptors (type:runtime.g and, through its fields, m and
 *         stack: names and offsets as the compiler wrote them) give all
 *         four, and rt0_go's code gives the same g.m, g.stack.hi and m.tls.
 *         racectx is 0x140 in 1.17-1.20, as in 1.19 (DWARF): comparing
 *         runtime2.go of 1.15 and 1.19 (Debian's sources), g gained
 *         tracking, trackingSeq, runnableStamp and runnableTime before it
 *         (the /sched/latencies metrics, new in Go 1.17), two words; 1.21
 *         dropped sysblocktraced, sysexitticks, traceseq and tracelastp
 *         and added parentGoid, back to 0x130. The first
 *         guess for 1.17/1.18 (0x130, the 1.16 value) was refused by the
 *         cross-check, as it should be. Each esbuild runs identically
 *         instrumented, timed and --count-only, with the same counts of
 *         its own functions in both (tests/realprogs/esbuild_old.sh)
 *   1.19, 1.21-1.24  objdump --dwarf=info of binaries built by Debian's
 *         toolchains (re-checked with scripts/go_layout.py)
 *   1.25, 1.26, 1.27  scripts/go_layout.py on testdata/recursion built by
 *         go1.25.12, go1.26.10 and go1.27.3 (Debian trixie-backports
 *         golang-1.25-go, sid golang-1.26-go/golang-1.27-go, unpacked by
 *         scripts/go_toolchains.sh). m.tls moved to 0x80 in 1.25
 *         (runtime2.go: m lost a field before tls); its use is unchanged
 *         (sys_linux_amd64.s settls: FS points at &m.tls[1]). racectx is
 *         0x130 in 1.25 and 0x138 in 1.26 */
#include "rewriter/find/go_runtime.h"

#include <stddef.h>
#include <stdio.h>

/* The signal fields (have_sig) come from go_sigpanic.c's table and the
 * binary, not from here. */
#define ROW(mi, gm, hi, rc, tls) \
    {.minor = (mi), .g_m = (gm), .g_stack_hi = (hi), .g_racectx = (rc), .m_tls = (tls)}

static const struct gr_go_layout layouts[] = {
    /* minor  g.m   stack.hi racectx m.tls */
    ROW(15, 0x30, 0x08, 0x130, 0x88),
    ROW(16, 0x30, 0x08, 0x130, 0x88),
    ROW(17, 0x30, 0x08, 0x140, 0x88),
    ROW(18, 0x30, 0x08, 0x140, 0x88),
    ROW(19, 0x30, 0x08, 0x140, 0x88),
    ROW(20, 0x30, 0x08, 0x140, 0x88),
    ROW(21, 0x30, 0x08, 0x130, 0x88),
    ROW(22, 0x30, 0x08, 0x130, 0x88),
    ROW(23, 0x30, 0x08, 0x138, 0x88),
    ROW(24, 0x30, 0x08, 0x138, 0x88),
    ROW(25, 0x30, 0x08, 0x130, 0x80),
    ROW(26, 0x30, 0x08, 0x138, 0x80),
    ROW(27, 0x30, 0x08, 0x138, 0x80),
};

#define NLAYOUTS (sizeof layouts / sizeof layouts[0])

const char *gr_go_field_name(int field)
{
    static const char *names[GR_GO_NFIELDS] = {"g.m", "g.stack.hi", "g.racectx", "m.tls",
                                               "g.sig", "g.sigcode0", "g.sigcode1", "g.sigpc"};
    return field >= 0 && field < GR_GO_NFIELDS ? names[field] : "?";
}

void gr_go_found_set(struct gr_go_found *f, int field, uint32_t off)
{
    f->off[field] = off;
    f->have |= 1u << field;
}

struct gr_go_found gr_go_layout_fields(const struct gr_go_layout *l)
{
    struct gr_go_found f = {.off = {l->g_m, l->g_stack_hi, l->g_racectx, l->m_tls, l->g_sig,
                                    l->g_sigcode0, l->g_sigcode1, l->g_sigpc},
                            .have = (1u << GR_GO_NCORE) - 1};
    if (l->have_sig)
        f.have |= GR_GO_SIG_FIELDS;
    return f;
}

const struct gr_go_layout *gr_go_layout(int minor)
{
    for (size_t i = 0; i < NLAYOUTS; i++)
        if (layouts[i].minor == minor)
            return &layouts[i];
    return NULL;
}

int gr_go_layout_newest(void)
{
    return layouts[NLAYOUTS - 1].minor;
}

/* Runs of consecutive rows as ranges: "1.15-1.27". */
const char *gr_go_layouts_known(void)
{
    static char buf[256];
    size_t len = 0;
    for (size_t i = 0; i < NLAYOUTS && len < sizeof buf; i++) {
        size_t j = i;
        while (j + 1 < NLAYOUTS && layouts[j + 1].minor == layouts[j].minor + 1)
            j++;
        int n = j == i ? snprintf(buf + len, sizeof buf - len, "%s1.%d", i ? ", " : "",
                                  layouts[i].minor)
                       : snprintf(buf + len, sizeof buf - len, "%s1.%d-1.%d", i ? ", " : "",
                                  layouts[i].minor, layouts[j].minor);
        len += n > 0 ? (size_t)n : 0;
        i = j;
    }
    return buf;
}
