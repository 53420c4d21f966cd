/* go_duration.c: see go_duration.h; Go's time.ParseDuration without sign. */
#include "common/go_duration.h"

#include <string.h>

static const struct unit {
    const char *name;
    uint64_t ns;
} units[] = {
    {"ns", 1}, {"us", 1000}, {"\xc2\xb5s", 1000}, {"\xce\xbcs", 1000}, {"ms", 1000000}, {"s", 1000000000ull},
    {"m", 60000000000ull}, {"h", 3600000000000ull},
};

/* The unit at *p (longest match), advancing *p; 0 when none. */
static uint64_t unit_at(const char **p)
{
    const struct unit *best = NULL;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strncmp(*p, units[i].name, strlen(units[i].name)) == 0 &&
            (!best || strlen(units[i].name) > strlen(best->name)))
            best = &units[i];
    if (!best)
        return 0;
    *p += strlen(best->name);
    return best->ns;
}

int gr_go_duration_parse(const char *s, uint64_t *ns)
{
    const uint64_t max = UINT64_MAX / 2;
    uint64_t total = 0;
    if (!s || !*s)
        return -1;
    if (strcmp(s, "0") == 0) {
        *ns = 0;
        return 0;
    }
    while (*s) {
        uint64_t whole = 0, frac = 0, scale = 1;
        int digits = 0;
        for (; *s >= '0' && *s <= '9'; s++, digits++) {
            if (whole > max / 10)
                return -1;
            whole = whole * 10 + (uint64_t)(*s - '0');
        }
        if (*s == '.')
            for (s++; *s >= '0' && *s <= '9'; s++, digits++)
                if (scale < 1000000000000ull) {
                    frac = frac * 10 + (uint64_t)(*s - '0');
                    scale *= 10;
                }
        uint64_t unit = digits ? unit_at(&s) : 0;
        if (!unit || whole > max / unit)
            return -1;
        uint64_t term = whole * unit + (uint64_t)((double)frac * (double)unit / (double)scale);
        if (term > max - total)
            return -1;
        total += term;
    }
    *ns = total;
    return 0;
}
