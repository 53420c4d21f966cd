/* exported by rewriter/find */
/* trace_layout.h: where a traced function's arguments and results are at
 * its entry and at its returns, word by word, and the descriptor gostat
 * needs to turn those words back into typed values. */
#ifndef GR_TRACE_LAYOUT_H
#define GR_TRACE_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "rewriter/find/program.h"

enum gr_trace_src_kind {
    GR_TRACE_SRC_INT_REG = 1,   /* reg: x86 encoding number, RAX=0 RCX=1 RDX=2 RBX=3 RSI=6 RDI=7 R8..R11=8..11 */
    GR_TRACE_SRC_FLOAT_REG = 2, /* reg: XMM number 0..14; the low 64 bits are taken */
    GR_TRACE_SRC_STACK = 3,     /* 8 bytes at [RSP + stack_off]: RSP as at the function's
                                   first byte (entry) or at the ret (return); the return
                                   address is at stack_off 0, so arguments start at 8 */
};

/* One captured 64-bit word. deref: after taking the word, replace it by the
 * 8 bytes at word + 8 when the word is not 0 (an itab's _type, for a
 * non-empty interface's dynamic type); 0 otherwise. */
struct gr_trace_src {
    uint8_t kind;
    uint8_t reg;
    uint8_t deref;
    int32_t stack_off;
};

/* Bytes copied after the words are taken: min(words[len_word], max) bytes
 * from the address words[ptr_word] (a string's or []byte's data), max being
 * --trace-bytes. Copied in order; the engine records each copy's length. */
struct gr_trace_bytes {
    uint16_t ptr_word, len_word;
};

#define GR_TRACE_MAX_WORDS 64
#define GR_TRACE_MAX_BYTES 16

struct gr_trace_capture {
    uint16_t nwords;
    struct gr_trace_src words[GR_TRACE_MAX_WORDS];
    uint16_t nbytes;
    struct gr_trace_bytes bytes[GR_TRACE_MAX_BYTES];
};

struct gr_trace_layout {
    struct gr_trace_capture entry;  /* taken at the function's entry */
    struct gr_trace_capture ret;    /* taken at each ret (not for a panic/Goexit unwind) */
    uint8_t *desc;                  /* malloc'd descriptor (format/trace_desc.h), opaque to
                                       the engine; gostat hands it back to gst_trace_values_* */
    size_t desc_len;
};

/* The layout of f's arguments and results in prog (DWARF types when
 * present, else the binary's argument metadata; stack ABI for Go < 1.17 and
 * ABI0 assembly, register ABI otherwise). Values that do not fit the limits
 * are left out (the descriptor says so). -1 with a message only for a
 * function whose layout cannot be known at all. */
int gr_trace_layout_of(const struct gr_program *prog, const struct gr_func *f,
                       struct gr_trace_layout *out, struct gr_error *err);
void gr_trace_layout_free(struct gr_trace_layout *l);

#endif
