/* exported by rewriter/find */
/* go_version.h: which Go release built the program, from .go.buildinfo
 * (the same data `go version -m` reads; present in stripped binaries). */
#ifndef GR_GO_VERSION_H
#define GR_GO_VERSION_H

#include <stddef.h>

#include "elf/elf_read.h"

/* Writes the version ("go1.22.12") into buf; "" when it cannot be read. */
void gr_go_version(const struct gr_elf *elf, char *buf, size_t size);

/* The minor release of a "go1.N..." version, or -1. */
int gr_go_minor(const char *version);

#endif
