/* asm_offsets.c: the byte offsets the stubs' assembly uses, computed from
 * the C structs. Compiled to assembly text only, never linked: each name
 * in the format headers' offset lists comes out as a line "->NAME VALUE"
 * (and each C constant the assembly uses as "=>NAME VALUE"), which the
 * Makefile turns into build/gen/format/asm_offsets.h (the method of
 * Linux's asm-offsets). */
#include "format/stub_abi.h"
#include "format/trace_format.h"

#define GS_EMIT(name, value) __asm__ volatile("\n.ascii \"->" #name " %c0\"" ::"i"(value));
#define GS_EMIT_OFFSET(name, type, field) GS_EMIT(name, offsetof(type, field))
#define GS_EMIT_SIZE(name, type) GS_EMIT(name, sizeof(type))
/* a C header's constant, marked so: defined there, not here */
#define GS_EMIT_CONSTANT(name) __asm__ volatile("\n.ascii \"=>" #name " %c0\"" ::"i"(name));

void gs_asm_offsets(void);
void gs_asm_offsets(void)
{
    GS_STUB_OFFSETS(GS_EMIT_OFFSET, GS_EMIT_SIZE)
    GS_TRACE_OFFSETS(GS_EMIT_OFFSET, GS_EMIT_SIZE)
    GS_STUB_CONSTANTS(GS_EMIT_CONSTANT)
}
