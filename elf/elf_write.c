/* elf_write.c: writes the output image atomically, streamed in parts.
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

/* The output, in parts: the input is streamed from its mapping through a
 * small buffer with the patches applied, the code from the edit, so that
 * no copy of the whole file is ever in memory (peak RSS). */
struct outbuf {
    Elf64_Ehdr eh;          /* the input's header, edited */
    Elf64_Phdr *phdrs;      /* at rx_offset, over the code's first bytes */
    size_t phnum;
    uint8_t *tail;          /* .shstrtab copy and section headers, at tail_off */
    uint8_t *tail_mem;      /* tail's allocation: tail sits at tail_off's offset mod 8 */
    uint64_t tail_off;
    size_t tail_len;
    uint64_t *patch_off;    /* file offset of each patch */
    size_t *patch_order;    /* the patches by the chunk they start in */
    size_t *chunk_first;    /* chunk c's patches: patch_order[chunk_first[c] .. [c + 1]) */
    size_t len;             /* of the whole file */
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

#define CHUNK (1u << 20)

/* The patches' file offsets, and their order by the output chunk each
 * starts in (a counting sort: a comparison sort cost more than the rest
 * of the write), original order kept within a chunk. */
static int locate_patches(const struct gr_elf *in, const struct gr_elf_edit *e, struct outbuf *o,
                          struct gr_error *err)
{
    size_t n = e->npatches ? e->npatches : 1, nchunks = in->size / CHUNK + 1;
    o->patch_off = malloc(n * sizeof *o->patch_off);
    o->patch_order = malloc(n * sizeof *o->patch_order);
    o->chunk_first = calloc(nchunks + 1, sizeof *o->chunk_first);
    if (!o->patch_off || !o->patch_order || !o->chunk_first)
        return gr_fail_as(err, GR_ERR_INTERNAL, "out of memory for %zu patches", e->npatches);
    for (size_t i = 0; i < e->npatches; i++) {
        if (file_offset_of(in, e->patches[i].addr, e->patches[i].len, &o->patch_off[i]) < 0)
            return gr_fail_as(err, GR_ERR_INTERNAL, "internal error: patch at 0x%llx is not in the file",
                              (unsigned long long)e->patches[i].addr);
        o->chunk_first[o->patch_off[i] / CHUNK + 1]++;
    }
    for (size_t c = 0; c < nchunks; c++)
        o->chunk_first[c + 1] += o->chunk_first[c];
    for (size_t i = 0; i < e->npatches; i++)
        o->patch_order[o->chunk_first[o->patch_off[i] / CHUNK]++] = i;
    for (size_t c = nchunks; c > 0; c--)      /* each count moved one chunk on: back */
        o->chunk_first[c] = o->chunk_first[c - 1];
    o->chunk_first[0] = 0;
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

/* The tail: a copy of .shstrtab with our names, then the section headers. */
static int build_tail(const struct gr_elf *in, const struct gr_elf_edit *e, struct outbuf *o,
                      struct gr_error *err)
{
    const Elf64_Ehdr *ieh = (const Elf64_Ehdr *)in->data;
    const Elf64_Shdr *ish = (const Elf64_Shdr *)(in->data + ieh->e_shoff);
    const Elf64_Shdr *istr = &ish[ieh->e_shstrndx];
    size_t cap = istr->sh_size + 64 + strlen(e->rx.section_name) + strlen(e->rw.section_name) +
                 (size_t)(ieh->e_shnum + 2) * sizeof(Elf64_Shdr) + 16;
    o->tail_off = e->rx_offset + e->rx.filesz;
    o->tail_mem = calloc(1, cap + 8);
    if (!o->tail_mem)
        return gr_fail_as(err, GR_ERR_INTERNAL, "out of memory for the section headers");
    o->tail = o->tail_mem + o->tail_off % 8;   /* the headers below: 8-aligned in memory too */
    size_t len = 0;
    memcpy(o->tail, in->data + istr->sh_offset, istr->sh_size);
    len += istr->sh_size;
    uint32_t name_rx = (uint32_t)istr->sh_size;
    len += (size_t)sprintf((char *)o->tail + len, "%s", e->rx.section_name) + 1;
    uint32_t name_rw = (uint32_t)len;
    len += (size_t)sprintf((char *)o->tail + len, "%s", e->rw.section_name) + 1;
    uint64_t str_size = len;
    len = gr_align_up(o->tail_off + len, 8) - o->tail_off;

    Elf64_Shdr *sh = (Elf64_Shdr *)(o->tail + len);
    o->eh.e_shoff = o->tail_off + len;
    memcpy(sh, ish, (size_t)ieh->e_shnum * sizeof *sh);
    sh[ieh->e_shstrndx].sh_offset = o->tail_off;
    sh[ieh->e_shstrndx].sh_size = str_size;
    sh[ieh->e_shnum] = new_section(name_rw, &e->rw, e->rx_offset);
    sh[ieh->e_shnum + 1] = new_section(name_rx, &e->rx, e->rx_offset);
    o->eh.e_shnum = (uint16_t)(ieh->e_shnum + 2);
    o->tail_len = len + (size_t)o->eh.e_shnum * sizeof *sh;
    o->len = o->tail_off + o->tail_len;
    return 0;
}

static int build_image(const struct gr_elf *in, const struct gr_elf_edit *e, struct outbuf *o,
                       struct gr_error *err)
{
    if (locate_patches(in, e, o, err) < 0)
        return -1;
    memcpy(&o->eh, in->data, sizeof o->eh);
    o->phdrs = calloc((size_t)o->eh.e_phnum + 2, sizeof *o->phdrs);
    if (!o->phdrs)
        return gr_fail_as(err, GR_ERR_INTERNAL, "out of memory for the program headers");
    o->phnum = build_phdrs(in, e, o->phdrs);
    if (o->phnum * sizeof(Elf64_Phdr) > e->phdr_area || e->phdr_area > e->rx.filesz)
        return gr_fail_as(err, GR_ERR_INTERNAL, "internal error: program headers do not fit their area");
    o->eh.e_entry = e->entry;
    o->eh.e_phoff = e->rx_offset;
    o->eh.e_phnum = (uint16_t)o->phnum;
    return build_tail(in, e, o, err);
}

static void outbuf_free(struct outbuf *o)
{
    free(o->phdrs);
    free(o->tail_mem);
    free(o->patch_off);
    free(o->patch_order);
    free(o->chunk_first);
}

/* Copies the headers of the finished image, the report's only source. */
static int describe(const struct gr_elf_edit *e, const struct outbuf *o, struct gr_elf_written *w,
                    struct gr_error *err)
{
    const Elf64_Ehdr *eh = &o->eh;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(o->tail + (eh->e_shoff - o->tail_off));
    *w = (struct gr_elf_written){
        .entry = eh->e_entry, .phoff = eh->e_phoff, .phnum = eh->e_phnum, .shoff = eh->e_shoff,
        .shnum = eh->e_shnum, .shstrndx = eh->e_shstrndx, .size = o->len,
        .new_shdrs = {sh[eh->e_shnum - 2], sh[eh->e_shnum - 1]},
        .new_names = {e->rw.section_name, e->rx.section_name},
    };
    w->phdrs = malloc(w->phnum * sizeof *w->phdrs);
    if (!w->phdrs)
        return gr_fail_as(err, GR_ERR_INTERNAL, "out of memory");
    memcpy(w->phdrs, o->phdrs, w->phnum * sizeof *w->phdrs);
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

/* 64 KiB per write: one large write leaves the file's page cache in
 * large folios, which the kernel maps whole into every process running
 * the program: +19 MB resident for Debian's Prometheus
 * (docs/benchmarks/history.md, "Memory"). */
#define WRITE_CHUNK ((size_t)64 << 10)

static int write_all(int fd, const void *p, size_t n)
{
    for (size_t done = 0; done < n;) {
        size_t want = n - done < WRITE_CHUNK ? n - done : WRITE_CHUNK;
        ssize_t k = write(fd, (const uint8_t *)p + done, want);
        if (k <= 0)
            return -1;
        done += (size_t)k;
    }
    return 0;
}

/* The patches of chunk c that reach into [at, at + n). */
static void apply_chunk(const struct gr_elf_edit *e, const struct outbuf *o, size_t c, uint64_t at,
                        size_t n, uint8_t *buf)
{
    for (size_t k = o->chunk_first[c]; k < o->chunk_first[c + 1]; k++) {
        const struct gr_patch *p = &e->patches[o->patch_order[k]];
        uint64_t off = o->patch_off[o->patch_order[k]];
        uint64_t lo = off > at ? off : at, hi = off + p->len < at + n ? off + p->len : at + n;
        if (lo < hi)
            memcpy(buf + (lo - at), p->bytes + (lo - off), (size_t)(hi - lo));
    }
}

/* The input's bytes with the edited header and the patches, a chunk at a
 * time (a patch may straddle two chunks: the previous chunk's are tried
 * too). */
static int write_input(int fd, const struct gr_elf *in, const struct gr_elf_edit *e,
                       const struct outbuf *o, uint8_t *buf)
{
    for (uint64_t at = 0; at < in->size; at += CHUNK) {
        size_t n = in->size - at < CHUNK ? (size_t)(in->size - at) : CHUNK, c = at / CHUNK;
        memcpy(buf, in->data + at, n);
        if (at == 0)
            memcpy(buf, &o->eh, sizeof o->eh < n ? sizeof o->eh : n);
        if (c > 0)
            apply_chunk(e, o, c - 1, at, n, buf);
        apply_chunk(e, o, c, at, n, buf);
        if (write_all(fd, buf, n) < 0)
            return -1;
    }
    return 0;
}

/* [input, patched][zeros up to rx_offset][program headers][code][tail] */
static int write_parts(int fd, const struct gr_elf *in, const struct gr_elf_edit *e,
                       const struct outbuf *o)
{
    uint8_t *buf = calloc(1, CHUNK);
    if (!buf)
        return -1;
    int rc = write_input(fd, in, e, o, buf);
    memset(buf, 0, CHUNK);
    for (uint64_t at = in->size; rc == 0 && at < e->rx_offset; at += CHUNK)
        rc = write_all(fd, buf, e->rx_offset - at < CHUNK ? (size_t)(e->rx_offset - at) : CHUNK);
    free(buf);
    size_t ph = o->phnum * sizeof *o->phdrs;
    if (rc == 0)
        rc = write_all(fd, o->phdrs, ph);
    if (rc == 0)
        rc = write_all(fd, e->rx.bytes + ph, e->rx.filesz - ph);
    if (rc == 0)
        rc = write_all(fd, o->tail, o->tail_len);
    return rc;
}

static int write_atomically(const char *out_path, const struct gr_elf *in,
                            const struct gr_elf_edit *e, const struct outbuf *o,
                            struct gr_error *err)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.gorewrite-XXXXXX", out_path) >= (int)sizeof tmp)
        return gr_fail_as(err, GR_ERR_OUTPUT, "%s: output path too long", out_path);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return gr_fail_as(err, GR_ERR_OUTPUT, "%s: cannot create a temporary file beside it: %s", out_path, strerror(errno));
    errno = 0;
    int ok = write_parts(fd, in, e, o) == 0;
    int saved = errno ? errno : ENOSPC;
    ok = ok && fchmod(fd, in->mode) == 0;
    if (close(fd) != 0)
        ok = 0;
    if (ok && rename(tmp, out_path) == 0)
        return 0;
    saved = errno ? errno : saved;
    unlink(tmp);
    return gr_fail_as(err, GR_ERR_OUTPUT, "%s: cannot write output: %s", out_path, strerror(saved));
}

/* The output replaces whatever is at its path (rename), so that must be
 * nothing or a regular file: renaming over /dev/null as root would
 * replace the device with our file. */
static int check_output_path(const char *out_path, struct gr_error *err)
{
    struct stat sb;
    if (stat(out_path, &sb) == 0 && !S_ISREG(sb.st_mode))
        return gr_fail_as(err, GR_ERR_OUTPUT, "%s: exists and is not a regular file (a device, directory or FIFO); "
                            "give a file path", out_path);
    return 0;
}

int gr_elf_write(const struct gr_elf *in, const struct gr_elf_edit *edit, const char *out_path,
                 struct gr_elf_written *written, struct gr_error *err)
{
    if (written)
        *written = (struct gr_elf_written){0};
    if (gr_elf_same_file(in->path, out_path))
        return gr_fail_as(err, GR_ERR_OUTPUT, "%s: output is the input file; choose another output path", out_path);
    if (check_output_path(out_path, err) < 0)
        return -1;
    struct outbuf o = {0};
    int rc = build_image(in, edit, &o, err);
    if (rc == 0 && written)
        rc = describe(edit, &o, written, err);
    if (rc == 0)
        rc = write_atomically(out_path, in, edit, &o, err);
    if (rc < 0 && written)
        gr_elf_written_free(written);
    outbuf_free(&o);
    return rc;
}
