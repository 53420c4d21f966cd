/* header_layout: prints each field of struct gs_header (format/gostat_format.h)
 * as "OFFSET SIZE NAME", in order, for tests/project/t_stats_format_doc.sh,
 * which holds docs/stats-format.md's header table to it. Exits 1 when the
 * list below leaves a gap or runs past the struct, so a field added to the
 * header without being listed here is caught too. */
#include "format/gostat_format.h"

#include <stddef.h>
#include <stdio.h>

#define FIELD(name) { #name, offsetof(struct gs_header, name), sizeof(((struct gs_header *)0)->name) }

static const struct { const char *name; size_t off, size; } fields[] = {
    FIELD(magic), FIELD(version), FIELD(header_size), FIELD(file_size), FIELD(pid),
    FIELD(start_time_ns), FIELD(proc_start_ticks), FIELD(load_bias), FIELD(nfuncs), FIELD(flags),
    FIELD(functab_off), FIELD(strtab_off), FIELD(strtab_size), FIELD(live_off), FIELD(rows_off),
    FIELD(row_stride), FIELD(max_rows), FIELD(counter_size), FIELD(exe), FIELD(build_id),
    FIELD(go_version), FIELD(ntimed), FIELD(timing_size), FIELD(counts_off), FIELD(timing_off),
    FIELD(tsc0), FIELD(mono0_ns), FIELD(tsc1), FIELD(mono1_ns), FIELD(boot_id), FIELD(sample_every),
    FIELD(reserved32), FIELD(syms_off), FIELD(nsyms), FIELD(path_size), FIELD(paths_off),
    FIELD(arcs_off), FIELD(max_paths), FIELD(max_arcs), FIELD(probe_ticks), FIELD(probe_inner_ticks),
    FIELD(probe_untimed_q8), FIELD(reserved32b), FIELD(trace_off), FIELD(trace_size),
    FIELD(sites_off), FIELD(glive_off), FIELD(max_sites), FIELD(max_glive), FIELD(site_size),
    FIELD(glive_size), FIELD(gostmts_off), FIELD(ngostmts), FIELD(gostmt_size), FIELD(spaths_off),
    FIELD(spath_size), FIELD(reserved32c), FIELD(processes), FIELD(merge_error),
    FIELD(reserved_merge), FIELD(end_time_ns), FIELD(end_tsc), FIELD(end_mono_ns), FIELD(exit_nfuncs),
    FIELD(reserved_exit), FIELD(exit_calls), FIELD(reserved),
};

int main(void)
{
    size_t at = 0;
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        if (fields[i].off != at) {
            fprintf(stderr, "header_layout: %s at %zu, expected %zu: a field is missing from the list\n",
                    fields[i].name, fields[i].off, at);
            return 1;
        }
        printf("%zu %zu %s\n", fields[i].off, fields[i].size, fields[i].name);
        at += fields[i].size;
    }
    if (at != sizeof(struct gs_header)) {
        fprintf(stderr, "header_layout: the list ends at %zu of %zu bytes\n", at, sizeof(struct gs_header));
        return 1;
    }
    return 0;
}
