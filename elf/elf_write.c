/* elf_write.c: builds the output image in memory and writes it atomically.
 *
 * Output file:  [input bytes, patched][pad][RX segment][new .shstrtab][new
 * section headers]. The input's own tables stay where they were, unused:
 * Go's linker puts section headers right after the program headers, so the
 * program header table cannot grow in place. It moves to the start of the
 * RX segment (PT_PHDR follows it, and it stays mapped so AT_PHDR is right).
 * Sections, symbols and DWARF of the input are untouched, so debuggers and
 * `go tool` still read the output; two sections name the new segments. */
#include "elf/elf_write.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/align.h"

struct outbuf {
    uint8_t *p;
    size_t len;
};

static int file_offset_of(const struct gr_elf *in, uint64_t addr, size_t len, uint64_t *off)
{
    const uint8_t *b = gr_elf_bytes_at(in, addr, len);
    if (!b)
        return -1;
    *off = (uint64_t)(b - in->data);
    return 0;
}

static Elf64_Phdr new_load(const struct gr_new_segment *s, uint64_t offset)
{
    return (Elf64_Phdr){
        .p_type = PT_LOAD, .p_flags = s->flags, .p_offset = offset, .p_vaddr = s->vaddr,
        .p_paddr = s->vaddr, .p_filesz = s->filesz, .p_memsz = s->memsz, .p_align = GR_PAGE,
    };
}

/* The input's program headers with PT_PHDR moved and our two PT_LOADs
 * after the last PT_LOAD (they have the highest addresses). */
static size_t build_phdrs(const struct gr_elf *in, const struct gr_elf_edit *e, Elf64_Phdr *out)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)in->data;
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(in->data + eh->e_phoff);
    size_t n = 0, last_load = 0;
    for (size_t i = 0; i < eh->e_phnum; i++)
        if (ph[i].p_type == PT_LOAD)
            last_load = i;
    uint64_t table_size = (uint64_t)(eh->e_phnum + 2) * sizeof(Elf64_Phdr);
    for (size_t i = 0; i < eh->e_phnum; i++) {
        out[n] = ph[i];
        if (ph[i].p_type == PT_PHDR) {
            out[n].p_offset = e->rx_offset;
            out[n].p_vaddr = out[n].p_paddr = e->rx.vaddr;
            out[n].p_filesz = out[n].p_memsz = table_size;
        }
        n++;
        if (i == last_load) {
            out[n++] = new_load(&e->rw, e->rx_offset);
            out[n++] = new_load(&e->rx, e->rx_offset);
        }
    }
    return n;
}

static int apply_patches(const struct gr_elf *in, const struct gr_elf_edit *e, uint8_t *img,
                         struct gr_error *err)
{
    for (size_t i = 0; i < e->npatches; i++) {
        uint64_t off;
        if (file_offset_of(in, e->patches[i].addr, e->patches[i].len, &off) < 0)
            return gr_fail(err, "internal error: patch at 0x%llx is not in the file",
                           (unsigned long long)e->patches[i].addr);
        memcpy(img + off, e->patches[i].bytes, e->patches[i].len);
    }
    return 0;
}

static Elf64_Shdr new_section(uint32_t name, const struct gr_new_segment *s, uint64_t offset)
{
    return (Elf64_Shdr){
        .sh_name = name, .sh_type = s->filesz ? SHT_PROGBITS : SHT_NOBITS,
        .sh_flags = SHF_ALLOC | ((s->flags & PF_W) ? SHF_WRITE : 0) | ((s->flags & PF_X) ? SHF_EXECINSTR : 0),
        .sh_addr = s->vaddr, .sh_offset = offset, .sh_size = s->filesz ? s->filesz : s->memsz,
        .sh_addralign = 16,
    };
}

/* Appends a copy of .shstrtab with our names, then the section headers. */
static void append_sections(const struct gr_elf *in, const struct gr_elf_edit *e, struct outbuf *o)
{
    const Elf64_Ehdr *ieh = (const Elf64_Ehdr *)in->data;
    const Elf64_Shdr *ish = (const Elf64_Shdr *)(in->data + ieh->e_shoff);
    const Elf64_Shdr *istr = &ish[ieh->e_shstrndx];
    uint64_t str_off = o->len;
    memcpy(o->p + o->len, in->data + istr->sh_offset, istr->sh_size);
    o->len += istr->sh_size;
    uint32_t name_rx = (uint32_t)istr->sh_size;
    o->len += (size_t)sprintf((char *)o->p + o->len, "%s", e->rx.section_name) + 1;
    uint32_t name_rw = (uint32_t)(o->len - str_off);
    o->len += (size_t)sprintf((char *)o->p + o->len, "%s", e->rw.section_name) + 1;
    uint64_t str_size = o->len - str_off;
    o->len = gr_align_up(o->len, 8);

    Elf64_Ehdr *eh = (Elf64_Ehdr *)o->p;
    Elf64_Shdr *sh = (Elf64_Shdr *)(o->p + o->len);
    eh->e_shoff = o->len;
    memcpy(sh, ish, (size_t)ieh->e_shnum * sizeof *sh);
    sh[ieh->e_shstrndx].sh_offset = str_off;
    sh[ieh->e_shstrndx].sh_size = str_size;
    sh[ieh->e_shnum] = new_section(name_rw, &e->rw, e->rx_offset);
    sh[ieh->e_shnum + 1] = new_section(name_rx, &e->rx, e->rx_offset);
    eh->e_shnum = (uint16_t)(ieh->e_shnum + 2);
    o->len += (size_t)eh->e_shnum * sizeof *sh;
}

static int build_image(const struct gr_elf *in, const struct gr_elf_edit *e, struct outbuf *o,
                       struct gr_error *err)
{
    const Elf64_Ehdr *ieh = (const Elf64_Ehdr *)in->data;
    const Elf64_Shdr *ish = (const Elf64_Shdr *)(in->data + ieh->e_shoff);
    size_t cap = e->rx_offset + e->rx.filesz + ish[ieh->e_shstrndx].sh_size + 64 +
                 strlen(e->rx.section_name) + strlen(e->rw.section_name) +
                 (size_t)(ieh->e_shnum + 2) * sizeof(Elf64_Shdr) + 16;
    o->p = calloc(1, cap);
    if (!o->p)
        return gr_fail(err, "out of memory for a %zu-byte output", cap);
    memcpy(o->p, in->data, in->size);
    if (apply_patches(in, e, o->p, err) < 0)
        return -1;
    memcpy(o->p + e->rx_offset, e->rx.bytes, e->rx.filesz);
    Elf64_Phdr *phdrs = (Elf64_Phdr *)(o->p + e->rx_offset);
    size_t phnum = build_phdrs(in, e, phdrs);
    if (phnum * sizeof(Elf64_Phdr) > e->phdr_area)
        return gr_fail(err, "internal error: program headers do not fit their area");
    Elf64_Ehdr *eh = (Elf64_Ehdr *)o->p;
    eh->e_entry = e->entry;
    eh->e_phoff = e->rx_offset;
    eh->e_phnum = (uint16_t)phnum;
    o->len = e->rx_offset + e->rx.filesz;
    append_sections(in, e, o);
    return 0;
}

/* Copies the headers of the finished image, the report's only source. */
static int describe(const struct gr_elf_edit *e, const struct outbuf *o, struct gr_elf_written *w,
                    struct gr_error *err)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)o->p;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(o->p + eh->e_shoff);
    *w = (struct gr_elf_written){
        .entry = eh->e_entry, .phoff = eh->e_phoff, .phnum = eh->e_phnum, .shoff = eh->e_shoff,
        .shnum = eh->e_shnum, .shstrndx = eh->e_shstrndx, .size = o->len,
        .new_shdrs = {sh[eh->e_shnum - 2], sh[eh->e_shnum - 1]},
        .new_names = {e->rw.section_name, e->rx.section_name},
    };
    w->phdrs = malloc(w->phnum * sizeof *w->phdrs);
    if (!w->phdrs)
        return gr_fail(err, "out of memory");
    memcpy(w->phdrs, o->p + eh->e_phoff, w->phnum * sizeof *w->phdrs);
    return 0;
}

void gr_elf_written_free(struct gr_elf_written *w)
{
    free(w->phdrs);
    w->phdrs = NULL;
}

int gr_elf_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

#define WRITE_CHUNK ((size_t)64 << 10)

static int write_atomically(const char *out_path, const struct outbuf *o, uint32_t mode,
                            struct gr_error *err)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.gorewrite-XXXXXX", out_path) >= (int)sizeof tmp)
        return gr_fail(err, "%s: output path too long", out_path);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return gr_fail(err, "%s: cannot create a temporary file beside it: %s", out_path, strerror(errno));
    /* 64 KiB writes: one large write leaves the file's page cache in
     * large folios, which the kernel maps whole into every process running
     * the program: +19 MB resident for Debian's Prometheus
     * (docs/benchmarks/history.md, "Memory"). */
    size_t done = 0;
    while (done < o->len) {
        size_t chunk = o->len - done < WRITE_CHUNK ? o->len - done : WRITE_CHUNK;
        ssize_t n = write(fd, o->p + done, chunk);
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    int saved = errno;
    int ok = done == o->len && fchmod(fd, mode) == 0;
    if (close(fd) != 0)
        ok = 0;
    if (ok && rename(tmp, out_path) == 0)
        return 0;
    saved = errno ? errno : saved;
    unlink(tmp);
    return gr_fail(err, "%s: cannot write output: %s", out_path, strerror(saved));
}

/* The output replaces whatever is at its path (rename), so that must be
 * nothing or a regular file: renaming over /dev/null as root would
 * replace the device with our file. */
static int check_output_path(const char *out_path, struct gr_error *err)
{
    struct stat sb;
    if (stat(out_path, &sb) == 0 && !S_ISREG(sb.st_mode))
        return gr_fail(err, "%s: exists and is not a regular file (a device, directory or FIFO); "
                            "give a file path", out_path);
    return 0;
}

int gr_elf_write(const struct gr_elf *in, const struct gr_elf_edit *edit, const char *out_path,
                 struct gr_elf_written *written, struct gr_error *err)
{
    if (written)
        *written = (struct gr_elf_written){0};
    if (gr_elf_same_file(in->path, out_path))
        return gr_fail(err, "%s: output is the input file; choose another output path", out_path);
    if (check_output_path(out_path, err) < 0)
        return -1;
    struct outbuf o = {0};
    int rc = build_image(in, edit, &o, err);
    if (rc == 0 && written)
        rc = describe(edit, &o, written, err);
    if (rc == 0)
        rc = write_atomically(out_path, &o, in->mode, err);
    if (rc < 0 && written)
        gr_elf_written_free(written);
    free(o.p);
    return rc;
}
