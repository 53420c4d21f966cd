/* go_duration.c: see go_duration.h (the grammar of Go's
 * time.ParseDuration, without its sign). */
#include "gostat/cmd/go_duration.h"

#include <string.h>

struct unit {
    const char *name;
    double ns;
};

/* Longest names first, so "ms" is not read as "m" then "s". */
static const struct unit units[] = {
    {"ns", 1}, {"us", 1e3}, {"\xc2\xb5s", 1e3}, {"\xce\xbcs", 1e3}, {"ms", 1e6},
    {"s", 1e9}, {"m", 60e9}, {"h", 3600e9},
};

static const struct unit *unit_at(const char *s, size_t *len)
{
    const struct unit *best = NULL;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        size_t n = strlen(units[i].name);
        if (strncmp(s, units[i].name, n) == 0 && (!best || n > *len)) {
            best = &units[i];
            *len = n;
        }
    }
    return best;
}

/* A decimal number at *s ("1", "1.5", ".5"); advances *s. */
static int number_at(const char **s, double *v)
{
    const char *p = *s;
    double x = 0, scale = 1;
    int digits = 0;
    for (; *p >= '0' && *p <= '9'; p++, digits++)
        x = x * 10 + (*p - '0');
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++, digits++)
            x += (*p - '0') * (scale /= 10);
    if (!digits)
        return -1;
    *s = p;
    *v = x;
    return 0;
}

int gst_parse_go_duration(const char *s, uint64_t *ns)
{
    if (!s || !*s)
        return -1;
    if (strcmp(s, "0") == 0) {
        *ns = 0;
        return 0;
    }
    double total = 0;
    while (*s) {
        double v;
        size_t len = 0;
        if (number_at(&s, &v) < 0)
            return -1;
        const struct unit *u = unit_at(s, &len);
        if (!u)
            return -1;
        s += len;
        total += v * u->ns;
    }
    if (total >= 9.2e18)
        return -1;
    *ns = (uint64_t)(total + 0.5);
    return 0;
}
