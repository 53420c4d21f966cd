/* fuzz_input.h: what the gostat harnesses share: the input as a file (a
 * memfd, read as a file in $GOSTAT_DIR or named on the command line would
 * be) and a sink for the outputs. */
#ifndef FUZZ_INPUT_H
#define FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/* A memfd holding data, or -1. */
static inline int fuzz_input_fd(const uint8_t *data, size_t size)
{
    int fd = memfd_create("gostat-fuzz", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    if (size && write(fd, data, size) != (ssize_t)size) {
        close(fd);
        return -1;
    }
    return fd;
}

/* /dev/null, opened once; NULL if it cannot be. */
static inline FILE *fuzz_sink(void)
{
    static FILE *devnull;
    if (!devnull)
        devnull = fopen("/dev/null", "w");
    return devnull;
}

#endif
