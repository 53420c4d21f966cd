/* print_offsets.c: see print_offsets.h. One line per source:
 *   DWARF             g.m=0x30 g.stack.hi=0x8 g.racectx=0x130 m.tls=0x80
 * with "-" for an offset the source does not state, then
 *   layout            ... (verified|unverified)
 * tests/rewriter/t_layout.sh compares the lines of stripped and unstripped builds. */
#include "rewriter/print_offsets.h"

#include "elf/elf_read.h"
#include "rewriter/find/program.h"
#include "rewriter/find/offsets_decide.h"

static void print_found(FILE *out, const char *label, const struct gr_go_found *f)
{
    fprintf(out, "%-23s", label);
    for (int i = 0; i < GR_GO_NFIELDS; i++) {
        if ((f->have >> i) & 1)
            fprintf(out, " %s=0x%x", gr_go_field_name(i), f->off[i]);
        else
            fprintf(out, " %s=-", gr_go_field_name(i));
    }
    fputc('\n', out);
}

int gr_print_offsets(const char *path, int strict, FILE *out, struct gr_error *err)
{
    struct gr_elf elf;
    struct gr_program prog;
    struct gr_offsets_evidence ev;
    if (gr_elf_read(path, &elf, err) < 0)
        return -1;
    int rc = gr_program_read(&elf, &prog, err);
    if (rc == 0) {
        gr_offsets_gather(&elf, &prog, &ev);
        fprintf(out, "%s: %s\n", path, prog.go_version[0] ? prog.go_version : "unknown release");
        for (int s = 0; s < GR_NSOURCES; s++)
            print_found(out, gr_offsets_source_name(s), &ev.src[s]);
        rc = gr_offsets_decide(path, prog.go_version[0] ? prog.go_version : "an unknown release",
                              &ev, strict, &prog.offsets, &prog.offsets_unverified, err);
        if (rc == 0) {
            struct gr_go_found f = gr_offsets_as_found(&prog.offsets);
            print_found(out, prog.offsets_unverified ? "layout unverified" : "layout verified", &f);
        }
        gr_program_free(&prog);
    }
    gr_elf_free(&elf);
    return rc;
}
