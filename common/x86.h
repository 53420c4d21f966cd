/* exported by common */
/* x86.h: the few x86-64 encodings gorewrite writes or recognizes as raw
 * bytes (everything else goes through Zydis). */
#ifndef GR_X86_H
#define GR_X86_H

#define GR_X86_INT3 0xcc       /* filler: traps if ever executed */
#define GR_X86_JMP_REL32 0xe9  /* jmp rel32, the patch written over an entry or a ret */
#define GR_X86_JMP_REL32_LEN 5
#define GR_X86_RET 0xc3        /* ret (near, no immediate) */

#endif
