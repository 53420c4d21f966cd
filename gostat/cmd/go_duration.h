/* go_duration.h: parsing a duration written as Go's time.ParseDuration
 * takes it ("300ms", "1.5h", "2h45m", "1m30s"), for command options. */
#ifndef GOSTAT_GO_DURATION_H
#define GOSTAT_GO_DURATION_H

#include <stdint.h>

/* *ns = the duration s names: one or more decimal numbers, each with a
 * unit (ns, us, µs, ms, s, m, h); "0" alone is zero. Returns -1 when s is
 * not such a duration, negative, or beyond 2^63 ns. */
int gst_parse_go_duration(const char *s, uint64_t *ns);

#endif
