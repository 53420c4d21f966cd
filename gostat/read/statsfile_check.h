/* statsfile_check.h: deciding whether a stats file header describes a geometry that a
 * reader can trust. Pure checks on values already read: no I/O, so every
 * rule about what a valid file looks like lives in one place. */
#ifndef GOSTAT_STATSFILE_CHECK_H
#define GOSTAT_STATSFILE_CHECK_H

#include "common/error.h"
#include "format/gostat_format.h"

#include <stdbool.h>
#include <stdint.h>

/* Checks magic, version and that every region the header names lies inside
 * a file of actual_size bytes, in the documented order, without overlaps a
 * reader would trip on. hdr may have been read only partly (actual_size
 * smaller than the header); the rest must be zero. path names the file in
 * messages. Returns 0, or -1 with err filled. */
int gst_geometry_check(const struct gs_header *hdr, uint64_t actual_size,
                     const char *path, struct gr_error *err);

/* Checks that a string offset lies inside the string table and that the
 * string ends with a NUL inside it. what/index describe the owner for the
 * message (e.g. "name", function 3). */
int gst_geometry_check_string(const char *strtab, uint64_t strtab_size,
                            uint32_t off, const char *what, uint32_t index,
                            const char *path, struct gr_error *err);

/* Checks a function's timing record index: below ntimed, or GS_UNTIMED.
 * Files without GS_HDR_TIMING pass (their functions are all untimed). */
int gst_geometry_check_timing_index(const struct gs_header *hdr, uint32_t timing, uint32_t index,
                                  const char *path, struct gr_error *err);

/* Number of counter rows holding counts: rows 0 .. min(claimed, max_rows-1). */
uint64_t gst_geometry_rows_in_use(const struct gs_header *hdr, uint64_t rows_claimed);

/* Bytes from live_off to the end of the last counter row. */
uint64_t gst_geometry_counter_area_size(const struct gs_header *hdr);

#endif
