/* exported by rewriter/plan */
/* prologue.h: recognises a function's stack-bound check (part of stage 3,
 * patch planning). Only the exact shapes the Go linker emits are accepted
 * (cmd/internal/obj/x86/obj6.go, stacksplit, of Go 1.15 and 1.19 on);
 * anything else is reported as a skip reason and never patched. */
#ifndef GR_PROLOGUE_H
#define GR_PROLOGUE_H

#include <stddef.h>
#include <stdint.h>

#include <Zydis/Zydis.h>

/* 2 TLS loads + the 7-instruction Go <= 1.16 huge-frame check */
#define GR_PROLOGUE_MAX_INSNS 9

enum gr_prologue_shape {
    GR_PROLOGUE_SMALL,     /* cmp rsp,[g+guard]; jbe */
    GR_PROLOGUE_LARGE,     /* lea T,[rsp-N]; cmp T,[g+guard]; jbe  (T: r12, Go <= 1.16 rax) */
    GR_PROLOGUE_HUGE,      /* mov r12,rsp; sub r12,N; jb; cmp r12,[g+guard]; jbe */
    GR_PROLOGUE_HUGE_OLD,  /* Go <= 1.16: mov rsi,[g+guard]; cmp rsi,stackPreempt; je;
                              lea rax,[rsp+K]; sub rax,rsi; cmp rax,N; jbe */
    GR_PROLOGUE_LEAF,      /* no check: the first instructions, relocated (leaf.h) */
};

/* How the prologue loaded g from thread-local storage, if it did. The
 * instructions are insns[0 .. tls_ninsns) and can be replayed (re-encoded
 * with gr_emit_relocated) wherever g is needed again, e.g. at a return. */
enum gr_tls_form {
    GR_TLS_NONE,       /* g already in R14 (register ABI, Go >= 1.17) */
    GR_TLS_FS_DISP,    /* mov G,fs:[-8]: executables (local-exec TLS) */
    GR_TLS_FS_IMM,     /* mov G,-8; mov G,fs:[G]: PIE (initial-exec, relaxed) */
    GR_TLS_FS_GOT,     /* mov G,[rip+got]; mov G,fs:[G]: initial-exec, not relaxed */
};

/* One decoded instruction: its visible operands only (all that matching
 * and re-encoding use), to keep the plan small for 60,000 functions. */
struct gr_insn {
    uint64_t addr;
    ZydisDecodedInstruction insn;
    ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT_VISIBLE];
};

struct gr_prologue {
    enum gr_prologue_shape shape;
    enum gr_tls_form tls_form;
    unsigned tls_ninsns;    /* leading instructions that load g from TLS */
    int loads_g_from_tls;   /* tls_ninsns > 0 */
    ZydisRegister g_reg;    /* g after the check: R14, or RCX (Go <= 1.16, stack ABI) */
    int stackguard1;        /* compares against g.stackguard1 (C-callable) */
    unsigned len;           /* bytes from the entry through the final jbe */
    unsigned ninsns;
    int ends_flow;          /* LEAF: the last relocated instruction is a ret or jmp */
    int ret_follows;        /* LEAF: the instruction after the covered bytes is a
                               plain ret (a trampoline that does not time the
                               return may end with its own ret instead of a jmp
                               back to it) */
    uint16_t guard_mask;    /* LEAF: bit i: insns[i] can fault; its address is checked first */
    struct gr_insn *insns;  /* ninsns instructions: the scratch array given to
                               gr_prologue_match; NULL in the plan, which keeps
                               only this summary (gr_prologue_decode) */
};

/* Decodes the check at entry (code holds the function's bytes up to its
 * end) into scratch. Returns NULL and fills out on a match, else the
 * reason it is not one. The check's branches must stay inside the
 * function. */
const char *gr_prologue_match(const uint8_t *code, size_t size, uint64_t entry,
                              struct gr_insn scratch[GR_PROLOGUE_MAX_INSNS],
                              struct gr_prologue *out);

/* Decodes again the ninsns instructions of a check gr_prologue_match
 * accepted at entry, into out. The plan does not keep them: at 736 bytes
 * per decoded instruction they took 1.4x a 54 MB input (rclone). Returns
 * -1 if they no longer decode (an internal error). */
int gr_prologue_decode(const uint8_t *code, size_t size, uint64_t entry, unsigned ninsns,
                       struct gr_insn out[GR_PROLOGUE_MAX_INSNS]);

const char *gr_prologue_shape_name(const struct gr_prologue *p);
const char *gr_prologue_tls_name(const struct gr_prologue *p);

#endif
