/* test_timing_mode.c: format/timing_mode.h, the timing mode as one type:
 * what each mode writes into the stats header and the stubs' sample word,
 * and that the header reads back as the same mode. */
#include "format/timing_mode.h"
#include "tests/unit/unit.h"

#include <string.h>

static void round_trip(struct gs_timing_mode t)
{
    struct gs_timing_mode back = gs_mode_of_header(gs_mode_header_flags(t), gs_mode_sample_word(t));
    CHECK_STR(gs_mode_name(back.mode), gs_mode_name(t.mode));
    CHECK_INT(back.sample_every, t.sample_every);
    CHECK_INT(gs_mode_header_consistent(gs_mode_header_flags(t), gs_mode_sample_word(t)), 1);
}

static void every_mode_reads_back(void)
{
    round_trip((struct gs_timing_mode){ GS_MODE_COUNT, 0 });
    round_trip((struct gs_timing_mode){ GS_MODE_SAMPLED, 0 });
    round_trip((struct gs_timing_mode){ GS_MODE_SAMPLED, 8 });
    round_trip((struct gs_timing_mode){ GS_MODE_EVERY_CALL, 0 });
    round_trip((struct gs_timing_mode){ GS_MODE_CALL_GRAPH, 0 });
}

static void what_each_mode_writes(void)
{
    struct gs_timing_mode dflt = { GS_MODE_SAMPLED, 0 }, n = { GS_MODE_SAMPLED, 8 };
    struct gs_timing_mode all = { GS_MODE_EVERY_CALL, 0 }, cg = { GS_MODE_CALL_GRAPH, 0 };
    struct gs_timing_mode count = { GS_MODE_COUNT, 0 };
    CHECK_INT(gs_mode_header_flags(count), 0);
    CHECK_INT(gs_mode_header_flags(dflt), GS_HDR_TIMING | GS_HDR_ADAPTIVE);
    CHECK_INT(gs_mode_header_flags(n), GS_HDR_TIMING);
    CHECK_INT(gs_mode_header_flags(all), GS_HDR_TIMING);
    CHECK_INT(gs_mode_header_flags(cg), GS_HDR_TIMING | GS_HDR_PATHS | GS_HDR_PATH_TOTALS);
    CHECK_INT(gs_mode_sample_word(count), 0);
    CHECK_INT(gs_mode_sample_word(dflt), 0);
    CHECK_INT(gs_mode_sample_word(n), 8);
    CHECK_INT(gs_mode_sample_word(all), 1);
    CHECK_INT(gs_mode_sample_word(cg), 1);
}

static void headers_of_no_mode(void)
{
    CHECK_INT(gs_mode_header_consistent(GS_HDR_TIMING | GS_HDR_PATHS | GS_HDR_ADAPTIVE, 0), 0);
    CHECK_INT(gs_mode_header_consistent(GS_HDR_TIMING | GS_HDR_PATHS, 2), 0);
    CHECK_INT(gs_mode_header_consistent(GS_HDR_TIMING | GS_HDR_ADAPTIVE, 8), 0);
    CHECK_INT(gs_mode_header_consistent(GS_HDR_TIMING, 1), 1);  /* time-all */
    CHECK_INT(gs_mode_header_consistent(GS_HDR_TIMING, 0), 1);  /* an older writer's time-all */
    CHECK_STR(gs_mode_name(gs_mode_of_header(GS_HDR_TIMING, 0).mode), "time-all");
    CHECK_STR(gs_mode_name(gs_mode_of_header(GS_HDR_ADAPTIVE, 0).mode), "count-only");
}

UNIT_CASES("timing_mode",
           UNIT_CASE(every_mode_reads_back),
           UNIT_CASE(what_each_mode_writes),
           UNIT_CASE(headers_of_no_mode));
