/* prologue.h: recognises a function's stack-bound check (part of stage 3,
 * patch planning). Only the exact shapes the Go linker emits are accepted
 * (cmd/internal/obj/x86/obj6.go, stacksplit); anything else is reported as
 * a skip reason and never patched. */
#ifndef GR_PROLOGUE_H
#define GR_PROLOGUE_H

#include <stddef.h>
#include <stdint.h>

#include <Zydis/Zydis.h>

#define GR_PROLOGUE_MAX_INSNS 6

enum gr_prologue_shape {
    GR_PROLOGUE_SMALL,  /* cmp rsp,[g+guard]; jbe */
    GR_PROLOGUE_LARGE,  /* lea r12,[rsp-N]; cmp r12,[g+guard]; jbe */
    GR_PROLOGUE_HUGE,   /* mov r12,rsp; sub r12,N; jb; cmp r12,[g+guard]; jbe */
};

struct gr_insn {
    uint64_t addr;
    ZydisDecodedInstruction insn;
    ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
};

struct gr_prologue {
    enum gr_prologue_shape shape;
    int loads_g_from_tls;   /* starts with mov r14,fs:[-8] (ABI0 functions) */
    int stackguard1;        /* compares against g.stackguard1 (C-callable) */
    unsigned len;           /* bytes from the entry through the final jbe */
    unsigned ninsns;
    struct gr_insn insns[GR_PROLOGUE_MAX_INSNS];
};

/* Decodes the check at entry (code holds the function's bytes up to its
 * end). Returns NULL and fills out on a match, else the reason it is not
 * one. The check's branches must stay inside the function. */
const char *gr_prologue_match(const uint8_t *code, size_t size, uint64_t entry,
                              struct gr_prologue *out);

const char *gr_prologue_shape_name(const struct gr_prologue *p);

#endif
