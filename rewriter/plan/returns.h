/* returns.h: a function's returns and branch targets (part of stage 3,
 * patch planning). Each ret gets a 5-byte jmp to a return trampoline that
 * replays the instructions it covers; that is only safe when no branch lands
 * inside the covered bytes, so every direct branch target and every
 * jump-table target in the function is collected first. */
#ifndef GR_RETURNS_H
#define GR_RETURNS_H

#include <stddef.h>
#include <stdint.h>

#include <Zydis/Zydis.h>

#include "elf/elf_read.h"

/* One patchable return: [addr, addr + len) holds the replayed
 * instructions, the ret at addr + ret_off, and possibly int3 padding. It
 * becomes a jmp rel32 to the return trampoline (len >= 5). A tail call's
 * jmp (at addr + ret_off), direct or through a register, stands for the
 * ret. Replayed
 * instruction k (from addr, in order) that can fault has bit k set in
 * guard_mask: the trampoline checks its address first, as a leaf entry's
 * (trampoline.c). */
struct gr_return {
    uint64_t addr;
    uint8_t len;
    uint8_t ret_off;
    uint8_t guard_mask;
    uint64_t tail_to;       /* a tail call: the jmp's target (the function
                               ends by jumping there); 0: a ret */
    ZydisRegister tail_reg; /* a tail call through this register (jmp reg);
                               ZYDIS_REGISTER_NONE: none */
};

struct gr_return_list {
    struct gr_return *items;
    size_t n, cap;
};

/* Scratch reused from function to function. */
struct gr_return_scan {
    ZydisDecoder zy;
    ZydisDecoder minimal;   /* the sweep: length, mnemonic, category, raw immediates only */
    uint32_t *starts;       /* instruction offsets from the entry */
    uint8_t *kind;          /* per instruction: other, plain (replayable), ret */
    size_t ninsns, cap_insns;
    uint32_t *targets;      /* branch target offsets, sorted after the sweep */
    size_t ntargets, cap_targets;
    int targets_unknown;
    int allow_guard;        /* replayed instructions that can fault may be
                               guarded (the program's signal fields and a
                               TLS load of g are known) */
    int allow_tail;         /* a jmp to another function is a return */
    const char *tail_refused; /* else why not (NULL: the plain reason) */
    int compiled;           /* compiled Go (not assembly): a jmp reg after the
                               frame is popped is a tail call */
    uint32_t short_end;     /* past the first short return (GR_RETURN_SHORT) */
};

struct gr_body {
    int entry_targeted;         /* a branch lands on the entry itself */
    int covered_targeted;       /* a branch lands inside the entry's covered bytes */
    int targets_unknown;        /* undecodable bytes or an indirect jmp that is no table */
    const char *untimed_reason; /* why the returns cannot all be patched, or NULL */
    size_t first_return, nreturns;  /* in the return list, when timed */
    int tail_calls;             /* jumps to other functions taken as returns */
    uint32_t short_end;         /* untimed_reason GR_RETURN_SHORT: the offset past
                                   the first such return */
};

/* The reason for a return whose replaceable bytes are too few for a jmp. */
extern const char GR_RETURN_SHORT[];

void gr_return_scan_init(struct gr_return_scan *s);
void gr_return_scan_free(struct gr_return_scan *s);

/* Scans [entry, entry + size) (code holds its bytes); entry_len bytes at
 * the entry will be replaced too. Appends the returns to list when all can be
 * patched. Returns -1 only when out of memory. */
int gr_returns_scan(struct gr_return_scan *s, const struct gr_elf *elf, const uint8_t *code,
                  size_t size, uint64_t entry, unsigned entry_len, struct gr_return_list *list,
                  struct gr_body *out);

void gr_return_list_free(struct gr_return_list *list);

#endif
