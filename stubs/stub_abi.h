/* stub_abi.h: the contract between gorewrite and the stub blob it embeds.
 *
 * The blob is position-independent machine code built from the C and
 * assembly files in stubs/. It starts with struct gs_blob_header; gorewrite copies the blob
 * into the new executable segment and fills struct gs_stub_config inside the
 * copy. All addresses in the config are relative to the blob's first byte,
 * so the same blob works at any load address (PIE included).
 *
 * The run-time data segment (RW, zero-filled, placed by gorewrite) is:
 *   rw + 0                 struct gs_private (never shared with the file)
 *   rw + GS_PAGE           struct gs_live    \  replaced by a MAP_SHARED
 *   rw + 2*GS_PAGE         counter rows      /  mapping of the stats file
 */
#ifndef GS_STUB_ABI_H
#define GS_STUB_ABI_H

#include <stdint.h>

#define GS_BLOB_MAGIC 0x31304f4c42524721ull /* "!GRBLO01" */

struct gs_blob_header {
    uint64_t magic;
    uint32_t entry_off;     /* start-up entry: the new ELF entry point */
    uint32_t config_off;    /* struct gs_stub_config */
};

struct gs_stub_config {
    int64_t orig_entry_rel; /* the program's own entry point */
    int64_t image_rel;      /* read-only file prefix: header, functab, strtab */
    uint64_t image_size;
    int64_t rw_rel;         /* start of the RW data segment (struct gs_private) */
    uint64_t shared_size;   /* bytes from rw + GS_PAGE: live page and rows */
    uint64_t blob_link_addr;/* link-time address of the blob, for load_bias */
};

/* Process-private state the trampolines read; first page of the RW segment. */
struct gs_private {
    uint64_t rows_base;     /* run-time address of counter row 0 */
    uint64_t reserved[511];
};

#endif
