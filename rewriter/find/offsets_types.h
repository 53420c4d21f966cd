/* offsets_types.h: the g/m offsets read from the runtime's own type
 * descriptors, which the compiler emits with every struct's field names
 * and offsets (internal/abi StructType; runtime/type.go before Go 1.21)
 * and which stripping keeps. type:runtime.g is the descriptor that
 * runtime.malg passes to runtime.newobject (`newg := new(g)`, its first
 * call in Go 1.15 to 1.27); its field m (*runtime.m) leads to m's
 * descriptor (tls, g0, curg), stack (runtime.stack) to hi and sched
 * (runtime.gobuf) to sp. This is the only source of g.racectx, g.goid,
 * g.sched.sp and m.curg in a stripped build. g's own fields sig,
 * sigcode0, sigcode1, sigpc (go_sigpanic.h), gopc and startpc are read
 * the same way. */
#ifndef GR_OFFSETS_TYPES_H
#define GR_OFFSETS_TYPES_H

#include "elf/elf_read.h"
#include "rewriter/find/program.h"
#include "rewriter/find/runtime_offsets.h"

/* Sets in *out what the descriptors show; leaves the rest unset. */
void gr_offsets_from_types(const struct gr_elf *elf, const struct gr_program *prog,
                          struct gr_go_found *out);

#endif
