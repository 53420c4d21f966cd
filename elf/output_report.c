/* output_report.c: writes the output report (`--layout-report FILE`)
 * from what the writer recorded (struct gr_elf_written, the edit's
 * patches) and the input's symbol table summary: nothing here is
 * recomputed from the output. */
#include "elf/output_report.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "format/output_report_format.h"

/* One field: bytes outside '!'..'~' and '%' as %XX, "" as %00. */
static void put_name(FILE *f, const char *s)
{
    if (!*s)
        fputs("%00", f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p > ' ' && *p <= '~' && *p != '%')
            fputc(*p, f);
        else
            fprintf(f, "%%%02X", *p);
    }
}

static void put_line(FILE *f, const char *key, const char *name)
{
    fprintf(f, "%s ", key);
    put_name(f, name);
    fputc('\n', f);
}

static void put_phdrs(FILE *f, const struct gr_elf_written *w)
{
    fprintf(f, "phoff 0x%llx\nphnum %zu\n", (unsigned long long)w->phoff, w->phnum);
    for (size_t i = 0; i < w->phnum; i++) {
        const Elf64_Phdr *p = &w->phdrs[i];
        fprintf(f, "phdr 0x%x 0x%x 0x%llx 0x%llx 0x%llx 0x%llx 0x%llx 0x%llx\n", p->p_type,
                p->p_flags, (unsigned long long)p->p_offset, (unsigned long long)p->p_vaddr,
                (unsigned long long)p->p_paddr, (unsigned long long)p->p_filesz,
                (unsigned long long)p->p_memsz, (unsigned long long)p->p_align);
    }
}

static void put_sections(FILE *f, const struct gr_elf_written *w)
{
    fprintf(f, "shoff 0x%llx\nshnum %zu\nshstrndx %zu\n", (unsigned long long)w->shoff, w->shnum,
            w->shstrndx);
    for (size_t i = 0; i < 2; i++) {
        const Elf64_Shdr *s = &w->new_shdrs[i];
        fprintf(f, "section ");
        put_name(f, w->new_names[i]);
        fprintf(f, " 0x%x 0x%llx 0x%llx 0x%llx 0x%llx\n", s->sh_type,
                (unsigned long long)s->sh_flags, (unsigned long long)s->sh_addr,
                (unsigned long long)s->sh_offset, (unsigned long long)s->sh_size);
    }
}

static void put_report(FILE *f, const struct gr_elf *in, const char *out_path,
                       const struct gr_elf_edit *edit, const struct gr_elf_written *w,
                       const struct gr_output_funcs *funcs)
{
    fprintf(f, "%s\n", GS_OUTPUT_REPORT_MAGIC);
    put_line(f, "input", in->path);
    put_line(f, "output", out_path);
    fprintf(f, "size %llu\nentry 0x%llx 0x%llx\n", (unsigned long long)w->size,
            (unsigned long long)in->entry, (unsigned long long)w->entry);
    put_phdrs(f, w);
    put_sections(f, w);
    fprintf(f, "symtab %zu\n", in->nsymbols);
    put_line(f, "symtab_first", in->sym_first ? in->sym_first : "");
    put_line(f, "symtab_last", in->sym_last ? in->sym_last : "");
    fprintf(f, "functions %zu %zu %zu\n", funcs->total, funcs->instrumented, funcs->left_out);
    fprintf(f, "patches %zu\n", edit->npatches);
    for (size_t i = 0; i < edit->npatches; i++)
        fprintf(f, "%s 0x%llx %u\n",
                edit->patches[i].kind == GR_PATCH_CALL_SITE ? "call_site" : "patch",
                (unsigned long long)edit->patches[i].addr,
                edit->patches[i].len);
    fputs("end\n", f);
}

int gr_output_report_write(const char *path, const struct gr_elf *in, const char *out_path,
                           const struct gr_elf_edit *edit, const struct gr_elf_written *written,
                           const struct gr_output_funcs *funcs, struct gr_error *err)
{
    /* opened for writing, so it must not be a file gorewrite reads or wrote */
    if (gr_elf_same_file(path, in->path) || gr_elf_same_file(path, out_path))
        return gr_fail_as(err, GR_ERR_OUTPUT, "%s: the layout report would overwrite the %s; choose another path",
                          path, gr_elf_same_file(path, in->path) ? "input" : "output");
    FILE *f = fopen(path, "w");
    if (!f)
        return gr_fail_as(err, GR_ERR_OUTPUT, "%s: cannot write the layout report: %s", path, strerror(errno));
    put_report(f, in, out_path, edit, written, funcs);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return gr_fail_as(err, GR_ERR_OUTPUT, "%s: cannot write the layout report: %s", path,
                          strerror(errno ? errno : EIO));
    return 0;
}
