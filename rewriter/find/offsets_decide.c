/* offsets_decide.c: see offsets_decide.h. */
#include "rewriter/find/offsets_decide.h"

#include <stdio.h>
#include <string.h>

#include "format/stub_abi.h"
#include "rewriter/find/go_version.h"
#include "rewriter/find/offsets_code.h"
#include "rewriter/find/offsets_moduledata.h"
#include "rewriter/find/offsets_sigcode.h"
#include "rewriter/find/offsets_types.h"

enum { OLDEST_MINOR = 15 };

const char *gr_offsets_source_name(int source)
{
    static const char *names[GR_NSOURCES] = {"table row",        "DWARF",
                                             "type descriptors", "runtime.rt0_go",
                                             "runtime.sigpanic", "runtime.firstmoduledata"};
    return source >= 0 && source < GR_NSOURCES ? names[source] : "?";
}

void gr_offsets_gather(const struct gr_elf *elf, const struct gr_program *prog,
                      struct gr_offsets_evidence *ev)
{
    memset(ev, 0, sizeof *ev);
    struct gr_go_release rel = gr_go_release(prog->go_version);
    ev->minor = rel.minor;
    ev->devel = rel.devel;
    ev->md_text_used = prog->pcln.md_text_used;
    const struct gr_runtime_offsets *row = rel.devel ? NULL : gr_offsets_row(ev->minor);
    if (row)
        ev->src[GR_SRC_TABLE] = gr_offsets_as_found(row);
    if (prog->dwarf.present)
        ev->src[GR_SRC_DWARF] = prog->dwarf.offsets;
    gr_offsets_from_types(elf, prog, &ev->src[GR_SRC_TYPES]);
    gr_offsets_from_code(elf, prog, &ev->src[GR_SRC_CODE]);
    gr_offsets_from_sigcode(elf, prog, &ev->src[GR_SRC_SIGCODE]);
    gr_offsets_from_moduledata(elf, prog, &ev->src[GR_SRC_MODULEDATA]);
}

static int has(const struct gr_go_found *f, int field)
{
    return (f->have >> field) & 1;
}

/* Every two sources that state field agree. */
static int check_field(const char *path, const char *version, const struct gr_offsets_evidence *ev,
                       int field, struct gr_error *err)
{
    for (int a = 0; a < GR_NSOURCES; a++)
        for (int b = a + 1; b < GR_NSOURCES; b++)
            if (has(&ev->src[a], field) && has(&ev->src[b], field) &&
                ev->src[a].off[field] != ev->src[b].off[field])
                return gr_fail(err, "%s: built with %s: %s is 0x%x by the %s but 0x%x by the %s; "
                               "refused (a wrong offset would corrupt the runtime's state)",
                               path, version, gr_go_field_name(field), ev->src[a].off[field],
                               gr_offsets_source_name(a), ev->src[b].off[field],
                               gr_offsets_source_name(b));
    return 0;
}

/* How many sources derived field from the binary (the row is no source). */
static int derived(const struct gr_offsets_evidence *ev, int field, int *src)
{
    int n = 0;
    for (int s = GR_SRC_DWARF; s < GR_NSOURCES; s++)
        if (has(&ev->src[s], field)) {
            *src = s;
            n++;
        }
    return n;
}

/* Why a program has no row, for messages. */
static const char *why_no_row(const struct gr_offsets_evidence *ev)
{
    static char buf[128];
    if (ev->devel)
        return "a development build, which gorewrite has not verified";
    snprintf(buf, sizeof buf, "newer than the releases gorewrite has verified (Go %s)", gr_offsets_known());
    return buf;
}

/* How many derived sources a release without a row needs for field:
 * two for those rt0_go states too, one for the rest (only DWARF, the
 * type descriptors or the moduledata state them). */
static int sources_needed(int field)
{
    return field == GR_G_M || field == GR_G_STACK_HI || field == GR_M_TLS ? 2 : 1;
}

/* A release without a row: each core offset derived, moduledata.gofunc
 * when some source derived it. */
static int from_binary(const char *path, const char *version, const struct gr_offsets_evidence *ev,
                       struct gr_runtime_offsets *out, struct gr_error *err)
{
    uint32_t off[GR_GO_NFIELDS] = {0};
    for (int f = 0; f < GR_GO_NCORE; f++) {
        int src = 0, n = derived(ev, f, &src);
        if (n < sources_needed(f))
            return gr_fail(err, "%s: built with %s, %s, and %s could not be derived from the binary%s",
                           path, version, why_no_row(ev), gr_go_field_name(f),
                           n ? " by two independent sources" : "");
        off[f] = ev->src[src].off[f];
    }
    int gofunc_src = 0, gofunc = derived(ev, GR_MD_GOFUNC, &gofunc_src) > 0;
    *out = (struct gr_runtime_offsets){
        .minor = ev->minor, .g_m = off[GR_G_M], .g_stack_hi = off[GR_G_STACK_HI],
        .g_racectx = off[GR_G_RACECTX], .m_tls = off[GR_M_TLS], .g_goid = off[GR_G_GOID],
        .g_sched_sp = off[GR_G_SCHED_SP], .m_g0 = off[GR_M_G0], .m_curg = off[GR_M_CURG],
        .md_text = off[GR_MD_TEXT], .have_gofunc = gofunc,
        .md_gofunc = gofunc ? ev->src[gofunc_src].off[GR_MD_GOFUNC] : 0};
    return 0;
}

/* What the rest of gorewrite assumed before the offsets were decided: the
 * stubs read m.g0 at GS_M_G0, and pclntab may have been read with
 * moduledata.text at the release's offset. */
static int check_assumed(const char *path, const char *version, const struct gr_offsets_evidence *ev,
                         const struct gr_runtime_offsets *out, struct gr_error *err)
{
    if (out->m_g0 != GS_M_G0)
        return gr_fail(err, "%s: built with %s: m.g0 is 0x%x, but gorewrite's stubs read it at "
                       "0x%x; refused", path, version, out->m_g0, GS_M_G0);
    if (ev->md_text_used && ev->md_text_used != out->md_text)
        return gr_fail(err, "%s: built with %s: moduledata.text is 0x%x, but pclntab was read "
                       "with it at 0x%x; refused", path, version, out->md_text, ev->md_text_used);
    return 0;
}

/* The signal fields, when the verified row states them or else two
 * sources derived from the binary do (as the core offsets of a release
 * without a row; they all agree by now); sig_sources says which. None:
 * have_sig stays 0, and leaf entries that can fault stay unrelocated. */
static void sig_fields(const struct gr_offsets_evidence *ev, struct gr_runtime_offsets *out)
{
    unsigned from = 0;
    int first = -1, derived = 0;
    out->have_sig = 0;
    for (int s = 0; s < GR_NSOURCES; s++) {
        if ((ev->src[s].have & GR_GO_SIG_FIELDS) != GR_GO_SIG_FIELDS)
            continue;
        from |= 1u << s;
        derived += s != GR_SRC_TABLE;
        if (first < 0)
            first = s;
    }
    out->sig_sources = from;
    if (first < 0 || (!(from & (1u << GR_SRC_TABLE)) && derived < 2))
        return;
    const struct gr_go_found *f = &ev->src[first];
    out->have_sig = 1;
    out->g_sig = f->off[GR_G_SIG];
    out->g_sigcode0 = f->off[GR_G_SIGCODE0];
    out->g_sigcode1 = f->off[GR_G_SIGCODE1];
    out->g_sigpc = f->off[GR_G_SIGPC];
}

/* The creation-site fields, when some source states both (they agree by
 * now); none: have_site stays 0 and goroutines are not kept by site. */
static void site_fields(const struct gr_offsets_evidence *ev, struct gr_runtime_offsets *out)
{
    for (int s = 0; s < GR_NSOURCES; s++) {
        const struct gr_go_found *f = &ev->src[s];
        if ((f->have & GR_GO_SITE_FIELDS) != GR_GO_SITE_FIELDS)
            continue;
        out->have_site = 1;
        out->g_gopc = f->off[GR_G_GOPC];
        out->g_startpc = f->off[GR_G_STARTPC];
        return;
    }
}

int gr_offsets_decide(const char *path, const char *version, const struct gr_offsets_evidence *ev,
                     int strict, struct gr_runtime_offsets *out, int *unverified, struct gr_error *err)
{
    *unverified = 0;
    if (ev->minor < OLDEST_MINOR)
        return gr_fail(err, "%s: built with %s; gorewrite supports Go 1.%d and later", path,
                       version, OLDEST_MINOR);
    for (int f = 0; f < GR_GO_NFIELDS; f++)
        if (check_field(path, version, ev, f, err) < 0)
            return -1;
    const struct gr_runtime_offsets *row = ev->devel ? NULL : gr_offsets_row(ev->minor);
    if (row) {
        *out = *row;
    } else {
        if (!ev->devel && ev->minor < gr_offsets_newest())
            return gr_fail(err, "%s: built with %s; gorewrite has no verified layout for it (Go %s are)",
                           path, version, gr_offsets_known());
        if (strict)
            return gr_fail(err, "%s: built with %s, %s; refused under --strict-release", path,
                           version, why_no_row(ev));
        *unverified = 1;
        if (from_binary(path, version, ev, out, err) < 0)
            return -1;
    }
    if (check_assumed(path, version, ev, out, err) < 0)
        return -1;
    sig_fields(ev, out);
    site_fields(ev, out);
    return 0;
}
