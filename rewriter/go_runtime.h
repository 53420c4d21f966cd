/* go_runtime.h: offsets inside the Go runtime's g and m structures that
 * the trampolines rely on. Read from the DWARF of binaries built with each
 * Debian Go toolchain (1.19, 1.21-1.24: identical); when an older or newer
 * layout differs, this is the one place to key them by pclntab format. */
#ifndef GR_GO_RUNTIME_H
#define GR_GO_RUNTIME_H

#define GR_G_M 0x30             /* g.m: the thread (m) running the goroutine */
#define GR_M_TLS 0x88           /* m.tls[6]: slot 0 holds g on linux/amd64 */
/* m.tls[1]: this thread's counter row. Unused by Go on linux/amd64 (only
 * m.tls[0] is), zero in every new m, and in static binaries the same word
 * as fs:[0], since settls points FS at &m.tls[1]. */
#define GR_M_ROW_SLOT (GR_M_TLS + 8)

#endif
