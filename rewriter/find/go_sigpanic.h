/* exported by rewriter/find */
/* go_sigpanic.h: what the Go runtime's signal handler does to turn a fault
 * into a panic, per release, so that a trampoline can do the same for a
 * nil dereference it would otherwise make at a PC outside Go text (see
 * docs/architecture.md, "Faults in relocated instructions"). The handler
 * (sighandler in runtime/signal_unix.go) stores the signal, its code, the
 * fault address and the faulting PC in the goroutine, pushes the faulting
 * PC and continues at sigpanic0 (sigpanic in Go <= 1.16; preparePanic in
 * runtime/signal_amd64.go). The fields' offsets are runtime offsets of the
 * release's description (gr_runtime_offsets have_sig: runtime_offsets.c,
 * checked against the binary by offsets_decide.c). */
#ifndef GR_GO_SIGPANIC_H
#define GR_GO_SIGPANIC_H

#include <stdint.h>

#include "rewriter/find/program.h"

struct gr_go_sigfields {
    int minor;           /* Go 1.<minor> */
    uint32_t sig;        /* g.sig (uint32) */
    uint32_t sigcode0;   /* g.sigcode0: si_code */
    uint32_t sigcode1;   /* g.sigcode1: the fault address */
    uint32_t sigpc;      /* g.sigpc: the faulting PC */
};

/* The entry of the function the handler continues at (runtime.sigpanic0,
 * or runtime.sigpanic for Go <= 1.16), or 0 when prog has none. */
uint64_t gr_go_sigpanic_entry(const struct gr_program *prog, int minor);

/* The entry of runtime.sigpanic, the Go function every release's handler
 * ends in (through sigpanic0 in Go >= 1.17), or 0 when prog has none. */
uint64_t gr_go_sigpanic_go(const struct gr_program *prog);

#endif
