/* duration.c: picking the unit and the number of decimals; dates by
 * strftime. */
#include "gostat/render/duration.h"

#include <stdio.h>
#include <time.h>

static const char *const units[] = { "ns", "us", "ms", "s" };
#define NUNITS (sizeof units / sizeof units[0])

/* Decimals for three significant digits of v in [0, 1000). */
static int decimals(double v)
{
    if (v >= 100)
        return 0;
    return v >= 10 ? 1 : 2;
}

static double scale_of(int d)
{
    return d == 0 ? 1 : d == 1 ? 10 : 100;
}

/* v rounded to d decimals (v >= 0). */
static double rounded(double v, int d)
{
    return (double)(unsigned long long)(v * scale_of(d) + 0.5) / scale_of(d);
}

void gst_format_duration(char *buf, size_t size, double ns)
{
    double v = ns < 0 ? 0 : ns;
    size_t u = 0;

    if (v == 0) {
        snprintf(buf, size, "0ns");
        return;
    }
    while (u + 1 < NUNITS && v >= 1000) {
        v /= 1000;
        u++;
    }
    /* Rounding may carry into another digit (99.96 -> 100) or the next
     * unit (999.6ns -> 1.00us). */
    double r = rounded(v, decimals(v));
    if (r >= 1000 && u + 1 < NUNITS) {
        v = r / 1000;
        u++;
    } else if (decimals(r) < decimals(v)) {
        v = r;
    }
    snprintf(buf, size, "%.*f%s", decimals(v), v, units[u]);
}

void gst_format_wall_time(char *buf, size_t size, uint64_t ns)
{
    time_t t = (time_t)(ns / 1000000000u);
    struct tm tm;
    if (!localtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%d %H:%M:%S %Z", &tm))
        snprintf(buf, size, "%llu ns", (unsigned long long)ns);
}
