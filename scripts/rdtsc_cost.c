/* rdtsc_cost.c: what one rdtsc costs on this machine (make bench prints it
 * next to the cost of a timed call, which reads the TSC twice): the median
 * of 5 rounds of 10^7 back-to-back reads, in the process's CPU time, so that
 * other processes on a loaded machine do not add their share to it (on an
 * idle one, CPU time and wall time agree). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

#define READS 10000000
#define ROUNDS 5

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(void)
{
    double ns[ROUNDS];
    uint64_t sink = 0;
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now_ns();
        for (int i = 0; i < READS; i++)
            sink += __rdtsc();
        ns[r] = (now_ns() - t0) / READS;
    }
    qsort(ns, ROUNDS, sizeof ns[0], cmp);
    printf("%.1f\n", ns[ROUNDS / 2]);
    if (sink == 42)        /* keeps the reads */
        puts("");
    return 0;
}
