/* exported by rewriter/find */
/* go_version.h: which Go release built the program, from .go.buildinfo
 * (the same data `go version -m` reads; present in stripped binaries). */
#ifndef GR_GO_VERSION_H
#define GR_GO_VERSION_H

#include <stddef.h>

#include "elf/elf_read.h"

/* Writes the version ("go1.22.12") into buf; "" when it cannot be read. */
void gr_go_version(const struct gr_elf *elf, char *buf, size_t size);

/* The release a version names: "go1.N", "go1.N.P", "go1.Nrc1" and with
 * " X:experiment" are Go 1.N; a development build ("devel go1.N-hash ...")
 * is devel, of minor N when it says, else GR_GO_DEVEL_MINOR (newer than
 * every release). Anything else: minor -1. A devel build has no verified
 * row: its offsets are derived from the binary (offsets_decide.c). */
#define GR_GO_DEVEL_MINOR 1000
struct gr_go_release {
    int minor;
    int devel;
};
struct gr_go_release gr_go_release(const char *version);

#endif
