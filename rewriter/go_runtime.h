/* go_runtime.h: offsets inside the Go runtime's g and m structures that
 * the trampolines rely on. Read from the DWARF of binaries built with each
 * Debian Go toolchain (1.19, 1.21-1.24: identical); when an older or newer
 * layout differs, this is the one place to key them by Go release. */
#ifndef GR_GO_RUNTIME_H
#define GR_GO_RUNTIME_H

#define GR_G_M 0x30             /* g.m: the thread (m) running the goroutine */
#define GR_M_TLS 0x88           /* m.tls[6]: slot 0 holds g on linux/amd64 */
/* m.tls[1]: this thread's counter row. Unused by Go on linux/amd64 (only
 * m.tls[0] is), zero in every new m, and in static binaries the same word
 * as fs:[0], since settls points FS at &m.tls[1]. */
#define GR_M_ROW_SLOT (GR_M_TLS + 8)

/* The Go releases whose layout was checked. Others are refused rather than
 * guessed at: a wrong offset would make every trampoline write into the
 * wrong field of the runtime's m. */
#define GR_GO_MINOR_FIRST 19
#define GR_GO_MINOR_LAST 24

static inline int gr_go_layout_known(int minor)
{
    return minor >= GR_GO_MINOR_FIRST && minor <= GR_GO_MINOR_LAST;
}

#endif
