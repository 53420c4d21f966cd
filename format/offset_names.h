/* offset_names.h: how a format header names its structs' byte offsets
 * once. The header lists them as LIST(OFFSET, SIZE), each name beside its
 * struct and field; GS_OFFSET_NAMES(LIST) makes them C enum constants, and
 * format/asm_offsets.c compiles the same list into macros for the
 * assembly, so no offset is written by hand. */
#ifndef GS_OFFSET_NAMES_H
#define GS_OFFSET_NAMES_H

#include <stddef.h>

#define GS_OFFSET_ENUMERATOR(name, type, field) name = offsetof(type, field),
#define GS_SIZE_ENUMERATOR(name, type) name = sizeof(type),
#define GS_OFFSET_NAMES(list) enum { list(GS_OFFSET_ENUMERATOR, GS_SIZE_ENUMERATOR) }

#endif
