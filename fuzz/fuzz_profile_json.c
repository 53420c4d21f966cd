/* fuzz_profile_json.c: libFuzzer harness over gostat's JSON reader
 * (profile_json.c: what "gostat --json" prints and "gostat merge" writes,
 * read by merge, diff and coverage), and what those commands do with a
 * profile read: sort, merge into another, diff against itself and an
 * empty one, write back as JSON. The input is served from a memfd, read
 * by its /proc/self/fd path as a named file would be. */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz/fuzz_input.h"
#include "gostat/profile/profdiff.h"
#include "gostat/profile/profile.h"
#include "gostat/profile/profile_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* p written out, a second read of path merged into an empty profile, and
 * both diffed. */
static void use(FILE *out, const struct gst_profile *p, const char *path)
{
    struct gr_error err;
    struct gst_profile copy, again, empty;
    gst_profile_init(&copy);
    gst_profile_init(&again);
    gst_profile_init(&empty);
    gst_profile_write_json(out, p);
    if (gst_profile_read_json(path, &again, &err) < 0) {
        gst_profile_free(&again);
        return;
    }
    gst_profile_sort(&again);
    if (gst_profile_absorb(&copy, &again, &err) == 0) {
        gst_profile_sort(&copy);
        struct gst_diff_options o = { .threshold = 1.1, .metric = GST_METRIC_TIME, .sigma = 3 };
        struct gst_diff d;
        if (gst_diff_profiles(p, &copy, &o, &d, &err) == 0)
            gst_diff_free(&d);
        if (gst_diff_profiles(&empty, p, &o, &d, &err) == 0)
            gst_diff_free(&d);
    }
    gst_profile_free(&copy);
    gst_profile_free(&again);
    gst_profile_free(&empty);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *devnull = fuzz_sink();
    int fd = fuzz_input_fd(data, size);
    if (fd < 0 || !devnull)
        return 0;
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    struct gst_profile p;
    struct gr_error err;
    gst_profile_init(&p);
    if (gst_profile_read_json(path, &p, &err) == 0) {
        gst_profile_sort(&p);
        use(devnull, &p, path);
    }
    gst_profile_free(&p);
    close(fd);
    return 0;
}
