/* exported by rewriter/find */
/* runtime_offsets.h: the description of a Go release: every offset inside
 * the runtime's structures (g, m, moduledata) that the rewriter or the
 * stubs use, and where the stack ABI ends. The table in runtime_offsets.c
 * holds one verified row per release (how, for each: docs/runtime-offsets.md);
 * the program's own offsets are also derived from the binary (its DWARF,
 * its runtime's type descriptors, runtime.rt0_go's code, its moduledata)
 * and every source must agree (offsets_decide.c). A wrong offset would make
 * every trampoline write into the wrong field of the runtime's g or m. */
#ifndef GR_RUNTIME_OFFSETS_H
#define GR_RUNTIME_OFFSETS_H

#include <stdint.h>

/* The last release whose Go functions take their arguments on the stack
 * (ABI0 everywhere); Go 1.17 introduced the register ABI (ABIInternal). */
#define GR_GO_LAST_STACK_ABI 16

/* Go 1.<minor> passes Go functions' arguments and results on the stack. */
static inline int gr_go_stack_abi(int minor)
{
    return minor <= GR_GO_LAST_STACK_ABI;
}

struct gr_runtime_offsets {
    int minor;                /* Go 1.<minor> */
    uint32_t g_m;             /* g.m: the thread (m) running the goroutine */
    uint32_t g_stack_hi;      /* g.stack.hi: top of the goroutine's stack */
    uint32_t g_racectx;       /* g.racectx: unused unless built with -race;
                                 holds the goroutine's timing slot */
    uint32_t m_tls;           /* m.tls[6]: slot 0 holds g on linux/amd64 */
    uint32_t g_goid;          /* g.goid: a --trace record's goroutine */
    uint32_t g_sched_sp;      /* g.sched.sp: a parked goroutine's stack pointer */
    uint32_t m_g0;            /* m.g0: the M's scheduling goroutine */
    uint32_t m_curg;          /* m.curg: the goroutine the M runs */
    uint32_t md_text;         /* moduledata.text: the base of pclntab's entries */
    /* moduledata.gofunc, the base of funcdata offsets (Go >= 1.18), when
     * have_gofunc: without it --trace shows no argument of a function
     * without DWARF types (trace_argsinfo.c). */
    int have_gofunc;
    uint32_t md_gofunc;
    /* The signal fields the runtime's handler sets before sigpanic (see
     * go_sigpanic.h), when have_sig: from the row (where it has them) and
     * the binary, which must agree. */
    int have_sig;
    uint32_t g_sig, g_sigcode0, g_sigcode1, g_sigpc;
    unsigned sig_sources;     /* bit s: source s (offsets_decide.h) states all four */
    /* The creation site every goroutine keeps (g.gopc: the go statement's
     * PC; g.startpc: its function), when have_site: from the binary's type
     * descriptors and DWARF, which must agree (goroutine sites,
     * docs/goroutines.md). */
    int have_site;
    uint32_t g_gopc, g_startpc;
};

/* The offsets by index, for code that treats them alike: the ones every
 * program needs (GR_GO_NCORE), then those a release or a program may lack:
 * moduledata.gofunc, the signal fields and the creation site. */
enum gr_go_field {
    GR_G_M, GR_G_STACK_HI, GR_G_RACECTX, GR_M_TLS, GR_G_GOID, GR_G_SCHED_SP, GR_M_G0, GR_M_CURG,
    GR_MD_TEXT, GR_MD_GOFUNC,
    GR_G_SIG, GR_G_SIGCODE0, GR_G_SIGCODE1, GR_G_SIGPC, GR_G_GOPC, GR_G_STARTPC, GR_GO_NFIELDS
};
#define GR_GO_NCORE GR_MD_GOFUNC
#define GR_GO_SIG_FIELDS (((1u << GR_G_GOPC) - 1) & ~((1u << GR_G_SIG) - 1))
#define GR_GO_SITE_FIELDS ((1u << GR_G_GOPC) | (1u << GR_G_STARTPC))

/* The first release with moduledata.gofunc (funcdata relative to it). */
#define GR_GO_FIRST_GOFUNC 18

/* What one source found: off[i] is meaningful when bit i of have is set. */
struct gr_go_found {
    uint32_t off[GR_GO_NFIELDS];
    unsigned have;
};

/* "g.m", "g.stack.hi", "g.racectx", "m.tls", "g.goid", ..., "moduledata.text", ... */
const char *gr_go_field_name(int field);

/* Records offset off for field in *f. */
void gr_go_found_set(struct gr_go_found *f, int field, uint32_t off);

/* The description as a gr_go_found: the core fields, and the optional
 * ones it has. */
struct gr_go_found gr_offsets_as_found(const struct gr_runtime_offsets *l);

/* m.tls[1]: this thread's counter row. Unused by Go on linux/amd64 (only
 * m.tls[0] is), zero in every new m, and in static binaries the same word
 * as fs:[0], since settls points FS at &m.tls[1]. */
static inline uint32_t gr_m_row_slot(const struct gr_runtime_offsets *l)
{
    return l->m_tls + 8;
}

/* The verified row of Go 1.<minor>, or NULL when there is none. */
const struct gr_runtime_offsets *gr_offsets_row(int minor);

/* The newest release with a row (27 for Go 1.27). */
int gr_offsets_newest(void);

/* "1.15-1.27": the releases with a row, for messages and --version. */
const char *gr_offsets_known(void);

/* moduledata.text of Go 1.<minor> (devel: a development build), read
 * before its offsets are decided (pclntab.c): the row's, or without one
 * the newest row's, which the decision then checks (offsets_decide.c). */
uint32_t gr_offsets_md_text_for(int minor, int devel);

#endif
