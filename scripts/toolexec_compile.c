/* toolexec_compile.c: the `go build -toolexec` wrapper of make bench-macro
 * (scripts/bench_macro.py). go runs it as `toolexec TOOL ARGS...` for every
 * tool; it replaces only the compile tool with $GOREWRITE_COMPILE (when
 * set) and execs every other tool unchanged. A C exec and nothing else, so
 * that the wrapper itself costs next to nothing (no shell to start) and the
 * same in every mode: the original build goes through it too (what it
 * costs: BENCHMARKS.md, "Running the benchmarks"). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int is_compile(const char *tool)
{
    const char *base = strrchr(tool, '/');
    return strcmp(base ? base + 1 : tool, "compile") == 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "toolexec_compile: usage: toolexec_compile TOOL [ARGS...]\n");
        return 2;
    }
    const char *subst = getenv("GOREWRITE_COMPILE");
    const char *path = subst && *subst && is_compile(argv[1]) ? subst : argv[1];
    /* argv[0] stays the tool's own path: compile names itself after it in
     * `compile -V=full`, whose output go parses. */
    execv(path, argv + 1);
    fprintf(stderr, "toolexec_compile: cannot run %s: %s\n", path, strerror(errno));
    return 127;
}
