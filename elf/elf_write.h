/* exported by elf */
/* elf_write.h: writes the output ELF (stage 5): the input's bytes with
 * patches applied, two new segments, a moved program header table and a
 * new section header table, written atomically. */
#ifndef GR_ELF_WRITE_H
#define GR_ELF_WRITE_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>

#include "elf/elf_read.h"
#include "common/error.h"

#define GR_PATCH_MAX 48

/* Bytes to overwrite in the input's loaded image: a jmp rel32 to a
 * trampoline and int3 filler over an entry or a return, or a direct call
 * or jmp whose rel32 now names its callee's trampoline (a call site). */
enum gr_patch_kind { GR_PATCH_JMP, GR_PATCH_CALL_SITE };

struct gr_patch {
    uint64_t addr;
    uint8_t len;
    uint8_t kind;           /* enum gr_patch_kind */
    uint8_t bytes[GR_PATCH_MAX];
};

struct gr_new_segment {
    const char *section_name;
    uint32_t flags;         /* PF_R | PF_W | PF_X */
    uint64_t vaddr;
    uint64_t memsz;
    const uint8_t *bytes;   /* file contents (NULL for zero-filled) */
    uint64_t filesz;
};

struct gr_elf_edit {
    uint64_t entry;
    struct gr_new_segment rw;  /* zero-filled data: filesz 0 */
    struct gr_new_segment rx;  /* code; its first phdr_area bytes get the program headers */
    uint64_t rx_offset;
    uint64_t phdr_area;
    const struct gr_patch *patches;
    size_t npatches;
};

/* What gr_elf_write put into the output's headers, copied from the image
 * it wrote (for --layout-report). */
struct gr_elf_written {
    uint64_t entry;
    uint64_t phoff;
    Elf64_Phdr *phdrs;          /* the whole program header table (owned) */
    size_t phnum;
    uint64_t shoff;
    size_t shnum;
    size_t shstrndx;
    Elf64_Shdr new_shdrs[2];    /* .gorewrite.data, .gorewrite.text: the last two */
    const char *new_names[2];
    uint64_t size;              /* of the whole file */
};

/* Writes in + edit to out_path through a temporary file in the same
 * directory, renamed into place only when complete; the input's
 * permission bits are kept. On failure nothing is left behind. When
 * written is not NULL it describes the file afterwards (free it with
 * gr_elf_written_free). */
int gr_elf_write(const struct gr_elf *in, const struct gr_elf_edit *edit, const char *out_path,
                 struct gr_elf_written *written, struct gr_error *err);
void gr_elf_written_free(struct gr_elf_written *w);

/* Whether paths a and b name the same existing file. */
int gr_elf_same_file(const char *a, const char *b);

#endif
