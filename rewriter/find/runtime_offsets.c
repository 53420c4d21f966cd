/* runtime_offsets.c: the table of verified rows (see runtime_offsets.h).
 * To add a release: build any program with it, read the offsets from its
 * DWARF (scripts/go_layout.py BINARY prints every one; `gorewrite
 * --print-layout` prints them as DWARF, the type descriptors, rt0_go and
 * the moduledata state them), add a row, and run make check
 * (tests/rewriter/t_layout.sh compares every derivation and the row with
 * DWARF for every toolchain at hand). A row is a cross-check, not the only
 * source: every program's own offsets are derived again and must agree with
 * it (offsets_decide.c). How each row was verified: docs/runtime-offsets.md. */
#include "rewriter/find/runtime_offsets.h"

#include <stddef.h>
#include <stdio.h>

/* NONE: the release has no moduledata.gofunc, or no verified signal
 * fields (Go 1.16, 1.17, 1.18 and 1.20: no toolchain at hand; their
 * programs use what two sources derived from the binary state,
 * offsets_decide.c). The creation site comes from the binary only. */
#define NONE 0

#define ROW(mi, gm, hi, rc, tls, goid, sp, g0, curg, text, gofunc, sig, code0, code1, pc)          \
    {.minor = (mi), .g_m = (gm), .g_stack_hi = (hi), .g_racectx = (rc), .m_tls = (tls),           \
     .g_goid = (goid), .g_sched_sp = (sp), .m_g0 = (g0), .m_curg = (curg), .md_text = (text),     \
     .have_gofunc = (gofunc) != NONE, .md_gofunc = (gofunc), .have_sig = (sig) != NONE,          \
     .g_sig = (sig), .g_sigcode0 = (code0), .g_sigcode1 = (code1), .g_sigpc = (pc)}

static const struct gr_runtime_offsets rows[] = {
    /*  g.m  stack.hi racectx m.tls goid sched.sp m.g0 curg md.text md.gofunc
     *                                               g.sig sigcode0 sigcode1 sigpc */
    ROW(15, 0x30, 0x08, 0x130, 0x88, 0x98, 0x38, 0x0, 0xc0, 0x60, NONE, 0xe0, 0x100, 0x108, 0x110),
    ROW(16, 0x30, 0x08, 0x130, 0x88, 0x98, 0x38, 0x0, 0xc0, 0xb0, NONE, NONE, NONE, NONE, NONE),
    ROW(17, 0x30, 0x08, 0x140, 0x88, 0x98, 0x38, 0x0, 0xc0, 0xb0, NONE, NONE, NONE, NONE, NONE),
    ROW(18, 0x30, 0x08, 0x140, 0x88, 0x98, 0x38, 0x0, 0xc0, 0xb0, 0x130, NONE, NONE, NONE, NONE),
    ROW(19, 0x30, 0x08, 0x140, 0x88, 0x98, 0x38, 0x0, 0xc0, 0xb0, 0x130, 0xf0, 0x110, 0x118, 0x120),
    ROW(20, 0x30, 0x08, 0x140, 0x88, 0x98, 0x38, 0x0, 0xc0, 0xb0, 0x140, NONE, NONE, NONE, NONE),
    ROW(21, 0x30, 0x08, 0x130, 0x88, 0x98, 0x38, 0x0, 0xc0, 0xb0, 0x140, 0xd8, 0xf8, 0x100, 0x108),
    ROW(22, 0x30, 0x08, 0x130, 0x88, 0x98, 0x38, 0x0, 0xc0, 0xb0, 0x140, 0xd8, 0xf8, 0x100, 0x108),
    ROW(23, 0x30, 0x08, 0x138, 0x88, 0xa0, 0x38, 0x0, 0xc0, 0xb0, 0x140, 0xe0, 0x100, 0x108, 0x110),
    ROW(24, 0x30, 0x08, 0x138, 0x88, 0xa0, 0x38, 0x0, 0xc0, 0xb0, 0x140, 0xe4, 0x100, 0x108, 0x110),
    ROW(25, 0x30, 0x08, 0x130, 0x80, 0x98, 0x38, 0x0, 0xb8, 0xb0, 0x140, 0xdc, 0xf8, 0x100, 0x108),
    ROW(26, 0x30, 0x08, 0x138, 0x80, 0x98, 0x38, 0x0, 0xb8, 0xb0, 0x140, 0xe0, 0x100, 0x108, 0x110),
    ROW(27, 0x30, 0x08, 0x138, 0x80, 0x98, 0x38, 0x0, 0xb8, 0xb0, 0x158, 0xe0, 0x100, 0x108, 0x110),
};

#define NROWS (sizeof rows / sizeof rows[0])

const char *gr_go_field_name(int field)
{
    static const char *names[GR_GO_NFIELDS] = {
        "g.m", "g.stack.hi", "g.racectx", "m.tls", "g.goid", "g.sched.sp", "m.g0", "m.curg",
        "moduledata.text", "moduledata.gofunc", "g.sig", "g.sigcode0", "g.sigcode1", "g.sigpc",
        "g.gopc", "g.startpc"};
    return field >= 0 && field < GR_GO_NFIELDS ? names[field] : "?";
}

void gr_go_found_set(struct gr_go_found *f, int field, uint32_t off)
{
    f->off[field] = off;
    f->have |= 1u << field;
}

struct gr_go_found gr_offsets_as_found(const struct gr_runtime_offsets *l)
{
    struct gr_go_found f = {.off = {l->g_m, l->g_stack_hi, l->g_racectx, l->m_tls, l->g_goid,
                                    l->g_sched_sp, l->m_g0, l->m_curg, l->md_text, l->md_gofunc,
                                    l->g_sig, l->g_sigcode0, l->g_sigcode1, l->g_sigpc,
                                    l->g_gopc, l->g_startpc},
                            .have = (1u << GR_GO_NCORE) - 1};
    if (l->have_gofunc)
        f.have |= 1u << GR_MD_GOFUNC;
    if (l->have_sig)
        f.have |= GR_GO_SIG_FIELDS;
    if (l->have_site)
        f.have |= GR_GO_SITE_FIELDS;
    return f;
}

const struct gr_runtime_offsets *gr_offsets_row(int minor)
{
    for (size_t i = 0; i < NROWS; i++)
        if (rows[i].minor == minor)
            return &rows[i];
    return NULL;
}

int gr_offsets_newest(void)
{
    return rows[NROWS - 1].minor;
}

/* Runs of consecutive rows as ranges: "1.15-1.27". */
const char *gr_offsets_known(void)
{
    static char buf[256];
    size_t len = 0;
    for (size_t i = 0; i < NROWS && len < sizeof buf; i++) {
        size_t j = i;
        while (j + 1 < NROWS && rows[j + 1].minor == rows[j].minor + 1)
            j++;
        int n = j == i ? snprintf(buf + len, sizeof buf - len, "%s1.%d", i ? ", " : "",
                                  rows[i].minor)
                       : snprintf(buf + len, sizeof buf - len, "%s1.%d-1.%d", i ? ", " : "",
                                  rows[i].minor, rows[j].minor);
        len += n > 0 ? (size_t)n : 0;
        i = j;
    }
    return buf;
}

uint32_t gr_offsets_md_text_for(int minor, int devel)
{
    const struct gr_runtime_offsets *row = devel ? NULL : gr_offsets_row(minor);
    return row ? row->md_text : rows[NROWS - 1].md_text;
}
