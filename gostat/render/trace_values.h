/* exported by gostat/render */
/* trace_values.h: a traced call's captured words turned back into named,
 * typed values, with the descriptor gorewrite stored for its function
 * (format/trace_desc.h). Descriptors and words come from the stats file,
 * which is untrusted: everything is bounds-checked. */
#ifndef GOSTAT_TRACE_VALUES_H
#define GOSTAT_TRACE_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/strbuf.h"

struct gst_trace_capture {
    const uint64_t *words; size_t nwords;
    /* the byte copies, in the order of the layout's bytes[] */
    const uint8_t *const *bytes; const uint32_t *bytes_len; /* copied length */
    const uint32_t *bytes_full;   /* the value's real length (cut when > copied) */
    size_t nbytes;
};

/* Checks a descriptor read from an untrusted stats file: 0 when every
 * offset and count in it is in bounds, -1 otherwise. */
int gst_trace_desc_check(const uint8_t *desc, size_t len);

/* Appends to out the JSON arrays of the call's arguments (from entry) and
 * results (from the return; NULL when the call panicked), each element
 * {"name":…,"type":…,"value":…} exactly as docs/trace.md "What each type
 * shows" specifies. */
int gst_trace_values_json(const uint8_t *desc, size_t len, int64_t load_bias,
                          const struct gst_trace_capture *entry,
                          const struct gst_trace_capture *exit,
                          struct gr_strbuf *args_out, struct gr_strbuf *results_out);

/* Appends "a=3, b=6" and "9" (or "(9, <nil>)" for several results), the
 * way `main.add(a=3, b=6) = 9` is printed. */
int gst_trace_values_text(const uint8_t *desc, size_t len, int64_t load_bias,
                          const struct gst_trace_capture *entry,
                          const struct gst_trace_capture *exit,
                          struct gr_strbuf *args_out, struct gr_strbuf *results_out);

#endif
