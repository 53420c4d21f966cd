/* elf_read.c: reads the input file into a private in-memory copy (a
 * sealed memfd: the input file can change under us, a download still
 * being written or a hostile writer, and every later reader must see what
 * we validated), checks it is an x86-64 ELF whose headers and tables lie
 * inside the file, then reads sections, segments and the runtime.text
 * symbol with libelf, which reads the tables in place: memory beyond the
 * copy is the tables alone. */
#include "elf/elf_read.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define COPY_CHUNK (1u << 20)

/* Appends n bytes to the snapshot. */
static int snapshot_write(struct gr_elf *elf, const uint8_t *p, size_t n, struct gr_error *err)
{
    while (n) {
        ssize_t w = write(elf->fd, p, n);
        if (w <= 0)
            return gr_fail_as(err, GR_ERR_INTERNAL, "%s: cannot write the in-memory copy: %s", elf->path,
                              w ? strerror(errno) : "short write");
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Copies the open input into the snapshot, in chunks (never the whole
 * file in our own memory at once). */
static int snapshot_copy(struct gr_elf *elf, int in, struct gr_error *err)
{
    uint8_t *buf = malloc(COPY_CHUNK);
    if (!buf)
        return gr_fail_as(err, GR_ERR_INTERNAL, "%s: out of memory", elf->path);
    size_t got = 0;
    int rc = 0;
    while (rc == 0 && got < elf->size) {
        size_t want = elf->size - got < COPY_CHUNK ? elf->size - got : COPY_CHUNK;
        ssize_t n = read(in, buf, want);
        if (n <= 0)
            rc = gr_fail(err, "%s: read failed: %s", elf->path, n ? strerror(errno) : "short read");
        else if ((rc = snapshot_write(elf, buf, (size_t)n, err)) == 0)
            got += (size_t)n;
    }
    free(buf);
    return rc;
}

/* A sealed memfd that everything reads from here on (our checks, libelf,
 * libdwarf): the input file may change while we work (a download still
 * being written, a hostile writer), the snapshot cannot. */
static int snapshot_open(struct gr_elf *elf, struct gr_error *err)
{
    elf->fd = memfd_create("gorewrite-input", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (elf->fd < 0)
        return gr_fail_as(err, GR_ERR_INTERNAL, "%s: cannot create an in-memory copy: %s", elf->path, strerror(errno));
    return 0;
}

/* F_SEAL_FUTURE_WRITE, not F_SEAL_WRITE: the latter waits for transient
 * references to the pages (reclaim, compaction, khugepaged) and fails with
 * EBUSY after ~150 ms, as it did for a 47 MB input on a busy machine. With
 * no writable mapping of the memfd in existence, both forbid every future
 * change. */
static int snapshot_seal(struct gr_elf *elf, struct gr_error *err)
{
    if (fcntl(elf->fd, F_ADD_SEALS, F_SEAL_FUTURE_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0)
        return gr_fail_as(err, GR_ERR_INTERNAL, "%s: cannot seal the in-memory copy: %s", elf->path, strerror(errno));
    return 0;
}

static int snapshot_file(const char *path, struct gr_elf *elf, struct gr_error *err)
{
    int in = open(path, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return gr_fail(err, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    int rc = 0;
    if (fstat(in, &st) < 0 || !S_ISREG(st.st_mode))
        rc = gr_fail(err, "%s: not a regular file", path);
    if (rc == 0 && st.st_size == 0)
        rc = gr_fail(err, "%s: not an ELF file (empty)", path);
    if (rc == 0) {
        elf->size = (size_t)st.st_size;
        elf->mode = st.st_mode & 07777;
        rc = snapshot_open(elf, err);
    }
    if (rc == 0)
        rc = snapshot_copy(elf, in, err);
    close(in);
    return rc == 0 ? snapshot_seal(elf, err) : rc;
}

/* elf->data = a read-only view of the snapshot. */
static int snapshot_map(struct gr_elf *elf, struct gr_error *err)
{
    void *map = mmap(NULL, elf->size, PROT_READ, MAP_SHARED, elf->fd, 0);
    if (map == MAP_FAILED)
        return gr_fail_as(err, GR_ERR_INTERNAL, "%s: cannot map the in-memory copy: %s", elf->path, strerror(errno));
    elf->data = map;
    return 0;
}

static void snapshot_unmap(struct gr_elf *elf)
{
    if (elf->data)
        munmap((void *)elf->data, elf->size);   /* our own mapping */
    elf->data = NULL;
}

static int range_in_file(const struct gr_elf *elf, uint64_t off, uint64_t len)
{
    return off <= elf->size && len <= elf->size - off;
}

static int check_header(const struct gr_elf *elf, struct gr_error *err)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)elf->data;
    if (elf->size < EI_NIDENT || memcmp(elf->data, ELFMAG, SELFMAG) != 0)
        return gr_fail(err, "%s: not an ELF file", elf->path);
    if (elf->data[EI_CLASS] != ELFCLASS64)
        return gr_fail(err, "%s: not a 64-bit ELF file (32-bit binaries are not supported)", elf->path);
    if (elf->size < sizeof(Elf64_Ehdr))
        return gr_fail(err, "%s: truncated ELF header", elf->path);
    if (elf->data[EI_DATA] != ELFDATA2LSB || eh->e_machine != EM_X86_64)
        return gr_fail(err, "%s: not an x86-64 ELF file (machine %u)", elf->path, eh->e_machine);
    if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
        return gr_fail(err, "%s: not an executable (ELF type %u)", elf->path, eh->e_type);
    if (eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phnum == 0 ||
        !range_in_file(elf, eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr)))
        return gr_fail(err, "%s: program headers missing or outside the file (truncated?)", elf->path);
    if (eh->e_shnum == 0 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
        !range_in_file(elf, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)) ||
        eh->e_shstrndx >= eh->e_shnum)
        return gr_fail(err, "%s: section headers missing or outside the file (truncated?)", elf->path);
    return 0;
}

/* Every section and segment with file contents must lie inside the file. */
static int check_tables(const struct gr_elf *elf, struct gr_error *err)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)elf->data;
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(elf->data + eh->e_phoff);
    for (unsigned i = 0; i < eh->e_phnum; i++) {
        if (!range_in_file(elf, ph[i].p_offset, ph[i].p_filesz))
            return gr_fail(err, "%s: segment %u lies outside the file (truncated?)", elf->path, i);
        if (ph[i].p_type == PT_LOAD && ph[i].p_filesz > ph[i].p_memsz)
            return gr_fail(err, "%s: segment %u has file size above memory size", elf->path, i);
    }
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(elf->data + eh->e_shoff);
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_NOBITS && !range_in_file(elf, sh[i].sh_offset, sh[i].sh_size))
            return gr_fail(err, "%s: section %u lies outside the file (truncated?)", elf->path, i);
    }
    const Elf64_Shdr *strtab = &sh[eh->e_shstrndx];
    /* A NOBITS table skipped the range check above: it has no bytes. */
    if (strtab->sh_type == SHT_NOBITS || strtab->sh_size == 0 ||
        elf->data[strtab->sh_offset + strtab->sh_size - 1] != 0)
        return gr_fail(err, "%s: section name table is missing or not NUL-terminated", elf->path);
    for (unsigned i = 0; i < eh->e_shnum; i++)
        if (sh[i].sh_name >= strtab->sh_size)
            return gr_fail(err, "%s: section %u has its name outside the section name table",
                           elf->path, i);
    return 0;
}

/* Loadable segments must not overlap or wrap, and must lie in user space:
 * gorewrite places its own segments above the highest one, and the entry
 * point it continues at must be code the program really loads. */
static int check_loads(const struct gr_elf *elf, struct gr_error *err)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)elf->data;
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(elf->data + eh->e_phoff);
    const uint64_t user_end = 1ull << 47;
    int entry_ok = 0;
    for (unsigned i = 0; i < eh->e_phnum; i++) {
        const Elf64_Phdr *a = &ph[i];
        if (a->p_type != PT_LOAD)
            continue;
        if (a->p_vaddr > user_end || a->p_memsz > user_end - a->p_vaddr)
            return gr_fail(err, "%s: segment %u does not fit in the address space", elf->path, i);
        for (unsigned j = 0; j < i; j++) {
            const Elf64_Phdr *b = &ph[j];
            if (b->p_type == PT_LOAD && a->p_memsz && b->p_memsz &&
                a->p_vaddr < b->p_vaddr + b->p_memsz && b->p_vaddr < a->p_vaddr + a->p_memsz)
                return gr_fail(err, "%s: segments %u and %u overlap in memory", elf->path, j, i);
        }
        if ((a->p_flags & PF_X) && eh->e_entry >= a->p_vaddr && eh->e_entry - a->p_vaddr < a->p_filesz)
            entry_ok = 1;
    }
    if (!entry_ok)
        return gr_fail(err, "%s: entry point 0x%llx is not in a loaded executable segment",
                       elf->path, (unsigned long long)eh->e_entry);
    return 0;
}

static int fail_libelf(const struct gr_elf *elf, const char *doing, struct gr_error *err)
{
    return gr_fail(err, "%s: %s: %s", elf->path, doing, elf_errmsg(-1));
}

/* n zeroed entries (room for one at least), or NULL with err set. */
static void *new_table(const struct gr_elf *elf, size_t n, size_t elem, struct gr_error *err)
{
    void *t = calloc(n ? n : 1, elem);
    if (!t)
        gr_fail_as(err, GR_ERR_INTERNAL, "%s: out of memory", elf->path);
    return t;
}

/* Section i, its name from the section name table names. */
static int read_section(struct gr_elf *elf, Elf *e, size_t names, size_t i, struct gr_error *err)
{
    GElf_Shdr sh;
    Elf_Scn *scn = elf_getscn(e, i);
    if (!scn || !gelf_getshdr(scn, &sh))
        return fail_libelf(elf, "reading a section header", err);
    const char *name = elf_strptr(e, names, sh.sh_name);
    struct gr_section *d = &elf->sections[i];
    d->name = strdup(name ? name : "");
    d->type = sh.sh_type;
    d->flags = sh.sh_flags;
    d->addr = sh.sh_addr;
    d->offset = sh.sh_offset;
    d->size = sh.sh_size;
    elf->nsections = i + 1;
    if (!d->name)
        return gr_fail_as(err, GR_ERR_INTERNAL, "%s: out of memory", elf->path);
    return 0;
}

static int read_sections(struct gr_elf *elf, Elf *e, struct gr_error *err)
{
    size_t n = 0, names = 0;
    if (elf_getshdrnum(e, &n) != 0 || elf_getshdrstrndx(e, &names) != 0)
        return fail_libelf(elf, "reading the section header table", err);
    elf->sections = new_table(elf, n, sizeof *elf->sections, err);
    if (!elf->sections)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (read_section(elf, e, names, i, err) < 0)
            return -1;
    return 0;
}

static int read_segments(struct gr_elf *elf, Elf *e, struct gr_error *err)
{
    size_t n = 0;
    if (elf_getphdrnum(e, &n) != 0)
        return fail_libelf(elf, "reading the program header table", err);
    elf->segments = new_table(elf, n, sizeof *elf->segments, err);
    if (!elf->segments)
        return -1;
    for (size_t i = 0; i < n; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(e, (int)i, &ph))
            return fail_libelf(elf, "reading a program header", err);
        elf->segments[i] = (struct gr_segment){
            .type = ph.p_type, .flags = ph.p_flags, .offset = ph.p_offset,
            .vaddr = ph.p_vaddr, .filesz = ph.p_filesz, .memsz = ph.p_memsz,
            .align = ph.p_align,
        };
    }
    elf->nsegments = n;
    return 0;
}

/* A symbol's name, or "" when it cannot be read. */
static const char *symbol_name(Elf *e, Elf_Data *data, size_t link, size_t i, GElf_Sym *sym)
{
    const char *name = gelf_getsym(data, (int)i, sym) ? elf_strptr(e, link, sym->st_name) : NULL;
    return name ? name : "";
}

/* The first SHT_SYMTAB: its size and end names (what the output keeps
 * unchanged, for --layout-report) and runtime.text, Go's own
 * function-offset base where pclntab's textStart is 0. Symbols with
 * unreadable names are passed over, as a stripped file would be. */
static int read_symtab(struct gr_elf *elf, Elf *e, struct gr_error *err)
{
    for (Elf_Scn *scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
        GElf_Shdr sh;
        GElf_Sym sym;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        size_t count = data ? data->d_size / sh.sh_entsize : 0;
        for (size_t i = 0; i < count && !elf->text_sym; i++)
            if (strcmp(symbol_name(e, data, sh.sh_link, i, &sym), "runtime.text") == 0)
                elf->text_sym = sym.st_value;
        elf->nsymbols = count;
        elf->sym_first = strdup(count > 1 ? symbol_name(e, data, sh.sh_link, 1, &sym) : "");
        elf->sym_last = strdup(count > 1 ? symbol_name(e, data, sh.sh_link, count - 1, &sym) : "");
        if (!elf->sym_first || !elf->sym_last)
            return gr_fail_as(err, GR_ERR_INTERNAL, "%s: out of memory", elf->path);
        return 0;
    }
    return 0;
}

/* Sections, segments and the symbol table's summary, read with libelf
 * from the checked snapshot. libelf maps it and reads the tables in place:
 * nothing the size of a section is copied (a 33 MB .noptrbss costs
 * nothing). */
static int read_tables(struct gr_elf *elf, struct gr_error *err)
{
    if (elf_version(EV_CURRENT) == EV_NONE)
        return fail_libelf(elf, "initialising libelf", err);
    Elf *e = elf_begin(elf->fd, ELF_C_READ_MMAP, NULL);
    if (!e)
        return fail_libelf(elf, "reading the ELF tables", err);
    int rc = read_sections(elf, e, err);
    if (rc == 0)
        rc = read_segments(elf, e, err);
    if (rc == 0)
        rc = read_symtab(elf, e, err);
    elf_end(e);
    return rc;
}

/* Checks the snapshot's headers, then reads its tables; the read-only
 * view stays mapped for the stages after this one. */
static int parse_snapshot(struct gr_elf *elf, struct gr_error *err)
{
    if (snapshot_map(elf, err) < 0)
        return -1;
    if (check_header(elf, err) < 0 || check_tables(elf, err) < 0 || check_loads(elf, err) < 0)
        return -1;
    elf->entry = ((const Elf64_Ehdr *)elf->data)->e_entry;
    return read_tables(elf, err);
}

int gr_elf_read(const char *path, struct gr_elf *elf, struct gr_error *err)
{
    memset(elf, 0, sizeof *elf);
    elf->fd = -1;
    elf->path = path;
    if (snapshot_file(path, elf, err) < 0)
        return -1;
    return parse_snapshot(elf, err);
}

int gr_elf_read_mem(const char *name, const uint8_t *data, size_t size, struct gr_elf *elf,
                    struct gr_error *err)
{
    memset(elf, 0, sizeof *elf);
    elf->fd = -1;
    elf->path = name;
    elf->size = size;
    elf->mode = 0755;
    if (size == 0)
        return gr_fail(err, "%s: not an ELF file (empty)", name);
    if (snapshot_open(elf, err) < 0 || snapshot_write(elf, data, size, err) < 0 ||
        snapshot_seal(elf, err) < 0)
        return -1;
    return parse_snapshot(elf, err);
}

void gr_elf_free(struct gr_elf *elf)
{
    for (size_t i = 0; i < elf->nsections; i++)
        free(elf->sections[i].name);
    free(elf->sections);
    free(elf->segments);
    free(elf->sym_first);
    free(elf->sym_last);
    snapshot_unmap(elf);
    if (elf->fd >= 0)
        close(elf->fd);
    memset(elf, 0, sizeof *elf);
    elf->fd = -1;
}

const struct gr_section *gr_elf_section(const struct gr_elf *elf, const char *name)
{
    for (size_t i = 0; i < elf->nsections; i++)
        if (strcmp(elf->sections[i].name, name) == 0)
            return &elf->sections[i];
    return NULL;
}

const uint8_t *gr_elf_bytes_at(const struct gr_elf *elf, uint64_t addr, uint64_t len)
{
    for (size_t i = 0; i < elf->nsegments; i++) {
        const struct gr_segment *s = &elf->segments[i];
        if (s->type != PT_LOAD || addr < s->vaddr || addr - s->vaddr > s->filesz)
            continue;
        uint64_t rel = addr - s->vaddr;
        if (len > s->filesz - rel || !range_in_file(elf, s->offset + rel, len))
            continue;
        return elf->data + s->offset + rel;
    }
    return NULL;
}

uint64_t gr_elf_load_end(const struct gr_elf *elf)
{
    uint64_t end = 0;
    for (size_t i = 0; i < elf->nsegments; i++) {
        const struct gr_segment *s = &elf->segments[i];
        if (s->type == PT_LOAD && s->vaddr + s->memsz > end)
            end = s->vaddr + s->memsz;
    }
    return end;
}

static int relative_addend(const struct gr_elf *elf, uint64_t addr, uint64_t *val)
{
    for (size_t i = 0; i < elf->nsections; i++) {
        const struct gr_section *sec = &elf->sections[i];
        if (sec->type != SHT_RELA)
            continue;
        const Elf64_Rela *r = (const Elf64_Rela *)(elf->data + sec->offset);
        for (uint64_t k = 0; k < sec->size / sizeof *r; k++)
            if (r[k].r_offset == addr && ELF64_R_TYPE(r[k].r_info) == R_X86_64_RELATIVE) {
                *val = (uint64_t)r[k].r_addend;
                return 0;
            }
    }
    return -1;
}

int gr_elf_read_addr(const struct gr_elf *elf, uint64_t addr, uint64_t *val)
{
    const uint8_t *p = gr_elf_bytes_at(elf, addr, 8);
    if (!p)
        return -1;
    memcpy(val, p, 8);
    if (*val == 0)
        relative_addend(elf, addr, val);
    return 0;
}
