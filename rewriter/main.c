/* main.c: gorewrite's entry point: does what the command line asks
 * (arguments.c): rewrite INPUT to OUTPUT, or print INPUT's layout. */
#include <stdio.h>
#include <sys/stat.h>

#include "rewriter/arguments.h"
#include "rewriter/print_offsets.h"
#include "rewriter/rewrite.h"

/* Reports err on stderr; its exit status follows from its kind. */
static int failed(const struct gr_error *err)
{
    fprintf(stderr, "gorewrite: %s\n", err->msg);
    return gr_error_exit_status(err->kind);
}

static int print_layout(const struct gr_arguments *a)
{
    struct gr_error err;
    if (gr_print_offsets(a->print_layout, a->opt.strict_release, stdout, &err) < 0)
        return failed(&err);
    return 0;
}

static int rewrite(const struct gr_arguments *a)
{
    const char *const *paths = a->paths;
    struct gr_result res;
    struct gr_error err;
    if (gr_rewrite(paths[0], paths[1], &a->opt, stderr, &res, &err) < 0)
        return failed(&err);
    struct stat st;
    uint64_t out_size = stat(paths[1], &st) == 0 ? (uint64_t)st.st_size : res.out_size;
    char left_out[64] = "";
    if (res.nleft_out)
        snprintf(left_out, sizeof left_out, ", %zu left out by --only/--exclude", res.nleft_out);
    printf("gorewrite: %s -> %s: %zu functions instrumented (%zu timed), %zu skipped%s (%s); "
           "output %.1f MB (+%.1f%%)\n",
           paths[0], paths[1], res.ninstrumented, res.ntimed,
           res.nfuncs - res.ninstrumented - res.nleft_out, left_out, res.go_version,
           out_size / 1e6, res.in_size ? 100.0 * ((double)out_size - (double)res.in_size) / (double)res.in_size : 0.0);
    return 0;
}

int main(int argc, char **argv)
{
    struct gr_arguments a;
    struct gr_error err;
    switch (gr_arguments_parse(argc, argv, &a, &err)) {
    case GR_ACTION_DONE:
        return 0;
    case GR_ACTION_FAILED:
        return failed(&err);
    case GR_ACTION_USAGE:
        gr_opt_print_help(stderr, &gr_gorewrite_options);
        return gr_error_exit_status(GR_ERR_USAGE);
    case GR_ACTION_PRINT_LAYOUT:
        return print_layout(&a);
    default:
        return rewrite(&a);
    }
}
