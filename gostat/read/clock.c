/* clock.c: the TSC rate for a stats file. Reading the TSC now only makes
 * sense on the machine and boot that wrote the file, which boot_id tells. */
#include "gostat/read/clock.h"

#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BOOT_ID_PATH "/proc/sys/kernel/random/boot_id"
#define NOW_TRIES 5

bool gst_clock_boot_id(char *buf, size_t cap)
{
    int fd = open(BOOT_ID_PATH, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, buf, cap - 1);
    close(fd);
    if (n <= 0)
        return false;
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\0'))
        n--;
    buf[n] = '\0';
    return n > 0;
}

static bool same_boot(const struct gs_header *hdr)
{
    char mine[GS_BOOTID_MAX];
    if (memchr(hdr->boot_id, '\0', sizeof hdr->boot_id) == NULL || hdr->boot_id[0] == '\0')
        return false;
    return gst_clock_boot_id(mine, sizeof mine) && strcmp(mine, hdr->boot_id) == 0;
}

#if defined(__x86_64__) || defined(__i386__)
static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The narrowest bracket of a few tries, its midpoint: a descheduled
 * thread widens one try, not all. */
void gst_clock_now(uint64_t *tsc, uint64_t *ns)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < NOW_TRIES; i++) {
        uint64_t a = __builtin_ia32_rdtsc();
        uint64_t t = mono_ns();
        uint64_t b = __builtin_ia32_rdtsc();
        if (b >= a && b - a < best) {
            best = b - a;
            *tsc = a + (b - a) / 2;
            *ns = t;
        }
    }
    if (best == UINT64_MAX)
        *tsc = *ns = 0;
}
#else
void gst_clock_now(uint64_t *tsc, uint64_t *ns)
{
    *tsc = *ns = 0;
}
#endif

static bool rate(uint64_t tsc_a, uint64_t ns_a, uint64_t tsc_b, uint64_t ns_b, double *ns_per_tick)
{
    if (tsc_a == 0 || tsc_b <= tsc_a || ns_b <= ns_a)
        return false;
    *ns_per_tick = (double)(ns_b - ns_a) / (double)(tsc_b - tsc_a);
    return true;
}

/* As gst_clock_for, for a file with any of the flags in calibrated. */
static struct gst_clock clock_for(const struct gs_header *hdr, uint32_t calibrated)
{
    struct gst_clock c = { 0 };
    if ((hdr->flags & GS_HDR_NO_TSC) || !(hdr->flags & calibrated))
        return c;
    if (same_boot(hdr)) {
        uint64_t tsc, ns;
        gst_clock_now(&tsc, &ns);
        if (rate(hdr->tsc0, hdr->mono0_ns, tsc, ns, &c.ns_per_tick)) {
            c.known = true;
            c.source = GST_CLOCK_THIS_BOOT;
            return c;
        }
    }
    if (rate(hdr->tsc0, hdr->mono0_ns, hdr->tsc1, hdr->mono1_ns, &c.ns_per_tick)) {
        c.known = true;
        c.source = GST_CLOCK_STARTUP;
    }
    return c;
}

struct gst_clock gst_clock_for(const struct gs_header *hdr)
{
    return clock_for(hdr, GS_HDR_TIMING);
}

struct gst_clock gst_clock_for_sites(const struct gs_header *hdr)
{
    return clock_for(hdr, GS_HDR_TIMING | GS_HDR_SITES);
}

struct gst_clock gst_clock_startup(const struct gs_header *hdr)
{
    struct gst_clock c = { 0 };
    if ((hdr->flags & GS_HDR_NO_TSC) || !(hdr->flags & GS_HDR_TIMING))
        return c;
    if (rate(hdr->tsc0, hdr->mono0_ns, hdr->tsc1, hdr->mono1_ns, &c.ns_per_tick)) {
        c.known = true;
        c.source = GST_CLOCK_STARTUP;
    }
    return c;
}
