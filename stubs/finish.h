/* finish.h: what start-up leaves for the exit (stubs/finish.c): the
 * process's own stats file and GOSTAT_MERGE. Mapped privately at start-up;
 * gs_private.finish points to it. */
#ifndef GS_FINISH_H
#define GS_FINISH_H

#include <stdint.h>

#include "format/gostat_format.h"

/* Longest path the kernel takes (PATH_MAX, with its NUL). */
#define GS_PATH_MAX 4096
#define GS_MERGE_NAME_MAX 256      /* GOSTAT_MERGE's value, with its NUL */

struct gs_finish_info {
    uint64_t state;                /* GS_FINISH_*, changed with lock cmpxchg */
    uint64_t dev, ino;             /* the own file's, to find it again */
    uint32_t stem;                 /* bytes of own before its pid: dir/gostat.<exe>. */
    uint32_t dir;                  /* bytes of own before its last '/' */
    char own[GS_PATH_MAX];         /* the process's own stats file */
    char merge[GS_MERGE_NAME_MAX]; /* GOSTAT_MERGE's value; empty: unset */
    /* Set when the file was finished before an exec (gs_exec_finish): the
     * own file's header as it was then, for the new file a failed exec
     * starts (gs_exec_resume) */
    uint64_t exec_finished;
    struct gs_header exec_header;
    /* The own file's header as start-up (or a failed exec's new file)
     * wrote it, for a file cut short under the program (stubs/file_cut.c) */
    struct gs_header header;
    uint32_t quiet;                /* GOSTAT_QUIET: nothing on stderr */
    uint32_t cut_said;             /* the cut was reported (lock xchg) */
};

/* Opens the own file again, if it is still the one start-up made: the
 * descriptor, or a negative number. */
long gs_open_own(const struct gs_finish_info *in);

/* Writes h (but its magic) and the program's tables after it, as
 * start-up does: 0, or a negative errno. */
long gs_write_tables(long fd, const struct gs_header *h);

#define GS_FINISH_RUNNING 0
#define GS_FINISH_BUSY 1           /* a thread is finishing the file */
#define GS_FINISH_DONE 2

#endif
