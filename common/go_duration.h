/* exported by common */
/* go_duration.h: durations written as Go writes them ("250us", "20ms",
 * "1.5s", "1m30s"), for the options that take one (gorewrite
 * --trace-slower-than, gostat trace --slower-than, gostat goroutines
 * --older-than). */
#ifndef GR_GO_DURATION_H
#define GR_GO_DURATION_H

#include <stdint.h>

/* *ns = s in nanoseconds (units ns, us, µs, ms, s, m, h; decimals;
 * several terms added). -1 when s is not such a duration or too long. */
int gr_go_duration_parse(const char *s, uint64_t *ns);

#endif
