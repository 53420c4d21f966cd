/* cmd_coverage.c: "gostat coverage": per Go package, how many of its
 * instrumented functions were called, and the ones never called. */
#include "gostat/cmd/cmdline.h"
#include "common/regex_compile.h"
#include "gostat/cmd/commands.h"
#include "gostat/cmd/exitcode.h"
#include "gostat/profile/gopkg.h"
#include "gostat/render/json.h"
#include "gostat/profile/profile.h"
#include "gostat/profile/profile_load.h"
#include "gostat/render/term.h"

#include <inttypes.h>
#include <regex.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define NO_PACKAGE "(no package)"

struct coverage_cli {
    bool json, wide;
    const char *pattern;       /* --package, or NULL */
    const char *target;
};

/* A function with its package (owned). */
struct entry {
    char *package;
    const struct gst_pfunc *func;
};

/* One package: entries [first, first + count) of the sorted list. */
struct package {
    const char *name;
    size_t first, count, called;
};

struct coverage {
    struct entry *entries;
    size_t nentries;
    struct package *packages;
    size_t npackages;
    size_t functions, called;  /* over the packages listed */
};

static const struct gr_opt coverage_opts[] = {
    { "package", 'p', "REGEX", GR_OPT_STRING, GR_OPT_AT(struct coverage_cli, pattern),
      .help = GR_OPT_HELP("only packages whose path matches REGEX (POSIX",
                          "extended, unanchored: use ^...$ for a whole path)"),
      .man =
          "Only packages whose path matches.\n" },
    { "json", 'j', NULL, GR_OPT_FLAG, GR_OPT_AT(struct coverage_cli, json),
      .help = GR_OPT_HELP("JSON instead of text"),
      .man =
          "JSON instead of text.\n" },
    GST_WIDE_OPTION(struct coverage_cli),
    GST_HELP_OPTION,
};

const struct gr_opt_table gst_coverage_options = {
    .program = "gostat coverage",
    .intro =
        "usage: gostat coverage [--json] [--wide] [--package REGEX] PID|FILE\n"
        "\n"
        "Per Go package: how many of its instrumented functions were called, and\n"
        "the ones that never were. FILE is a stats file or JSON from gostat --json\n"
        "or gostat merge (e.g. all test shards merged).\n"
        "\n"
        "Only instrumented functions are in a stats file: functions gorewrite\n"
        "skipped (no stack check: small leaves, nosplit, most assembly; see\n"
        "gorewrite -v) and calls the compiler inlined are not seen, so this is not\n"
        "statement coverage and a small function can be missing altogether.\n"
        "\n",
    .outro =
        "\n"
        "The package of a function is its name up to the first '.' after the last\n"
        "'/', once type arguments [...] are removed (Go's debug/gosym rule):\n"
        "methods pkg.(*T).M, closures pkg.F.func1 and instances pkg.F[...] all\n"
        "count in pkg. Compiler-generated functions (type:.eq.*, go:*) are listed\n"
        "as \"" NO_PACKAGE "\" (\"\" in JSON).\n"
        "\n"
        "Text: PACKAGE, CALLED, FUNCTIONS, COVERED (called/functions in %), one\n"
        "line per package sorted by path, a total line, then per package with\n"
        "functions never called: \"PACKAGE: N never called\" and one indented line\n"
        "per function (name, file:line), sorted by name.\n"
        "JSON: {\"functions\",\"called\",\"packages\":[{\"package\",\"functions\",\n"
        "\"called\",\"never_called\":[{\"name\",\"file\",\"line\"}..]}..]}.\n"
        "\n"
        "exit status: 0 ok, 1 usage error (also a bad REGEX), 2 the input is\n"
        "missing or invalid\n",
    GR_OPT_TABLE_OPTS(coverage_opts),
    .min_operands = 1, .max_operands = 1,
    .too_few = "wants one PID|FILE", .too_many = "wants only one PID|FILE",
    .column = 23,
    .long_indent = 6,
};

static int by_package_then_name(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    int c = strcmp(x->package, y->package);
    return c ? c : strcmp(x->func->name, y->func->name);
}

/* Entries for p's functions whose package matches filter (NULL: all). */
static int collect(struct coverage *cov, const struct gst_profile *p, const regex_t *filter,
                   struct gr_error *err)
{
    cov->entries = calloc(p->nfuncs + 1, sizeof *cov->entries);
    if (!cov->entries)
        return gr_fail(err, "out of memory");
    for (size_t i = 0; i < p->nfuncs; i++) {
        char *package = gst_go_package(p->funcs[i].name);
        if (!package)
            return gr_fail(err, "out of memory");
        if (filter && regexec(filter, package, 0, NULL, 0) != 0) {
            free(package);
            continue;
        }
        cov->entries[cov->nentries++] = (struct entry){ package, &p->funcs[i] };
    }
    qsort(cov->entries, cov->nentries, sizeof *cov->entries, by_package_then_name);
    return 0;
}

static int group(struct coverage *cov, struct gr_error *err)
{
    cov->packages = calloc(cov->nentries + 1, sizeof *cov->packages);
    if (!cov->packages)
        return gr_fail(err, "out of memory");
    for (size_t i = 0; i < cov->nentries; i++) {
        struct package *pk = &cov->packages[cov->npackages ? cov->npackages - 1 : 0];
        if (cov->npackages == 0 || strcmp(pk->name, cov->entries[i].package) != 0) {
            pk = &cov->packages[cov->npackages++];
            *pk = (struct package){ .name = cov->entries[i].package, .first = i };
        }
        bool called = cov->entries[i].func->calls > 0;
        pk->count++;
        pk->called += called;
        cov->functions++;
        cov->called += called;
    }
    return 0;
}

static void coverage_free(struct coverage *cov)
{
    for (size_t i = 0; i < cov->nentries; i++)
        free(cov->entries[i].package);
    free(cov->entries);
    free(cov->packages);
}

static const char *shown(const char *package)
{
    return package[0] ? package : NO_PACKAGE;
}

static void format_percent(char *buf, size_t size, size_t called, size_t total)
{
    if (total == 0)
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%.1f%%", 100.0 * (double)called / (double)total);
}

#define NUMBERS 28   /* "  %6s  %9s  %7s": the columns after PACKAGE */
#define CUT_MIN 16   /* names and paths are cut no shorter */

static void print_row(size_t name_width, const char *name, size_t called, size_t total)
{
    char c[32], t[32], pct[32];
    snprintf(c, sizeof c, "%zu", called);
    snprintf(t, sizeof t, "%zu", total);
    format_percent(pct, sizeof pct, called, total);
    gst_put_cut_cell(stdout, name, name_width, false, false);
    printf("  %6s  %9s  %7s\n", c, t, pct);
}

/* "  NAME  FILE:LINE" in columns (0: no limit): the location gets up to a
 * third of the line, the name the rest. */
static void print_function(const struct gst_pfunc *f, size_t columns)
{
    char location[4200] = "";
    if (f->file[0])
        snprintf(location, sizeof location, "%s:%" PRIu32, f->file, f->line);
    size_t name = gst_text_width(f->name), loc = gst_text_width(location);
    gst_fit_columns(&name, &loc, loc ? 4 : 2, columns, CUT_MIN, CUT_MIN);
    fputs("  ", stdout);
    gst_put_cut_cell(stdout, f->name, name, false, false);
    if (location[0]) {
        fputs("  ", stdout);
        gst_put_cut_cell(stdout, location, loc, false, true);
    }
    putchar('\n');
}

static void print_never_called(const struct coverage *cov, const struct package *pk,
                               size_t columns)
{
    printf("\n");
    gst_put_cell(stdout, shown(pk->name), 0, false);
    printf(": %zu never called\n", pk->count - pk->called);
    for (size_t i = pk->first; i < pk->first + pk->count; i++)
        if (!cov->entries[i].func->calls)
            print_function(cov->entries[i].func, columns);
}

static void print_text(const struct coverage *cov, size_t columns)
{
    size_t width = strlen("PACKAGE");
    for (size_t i = 0; i < cov->npackages; i++) {
        size_t w = gst_text_width(shown(cov->packages[i].name));
        width = w > width ? w : width;
    }
    if (columns && width + NUMBERS > columns)
        width = columns > NUMBERS + CUT_MIN ? columns - NUMBERS : CUT_MIN;
    gst_put_cell(stdout, "PACKAGE", width, false);
    printf("  %6s  %9s  %7s\n", "CALLED", "FUNCTIONS", "COVERED");
    for (size_t i = 0; i < cov->npackages; i++)
        print_row(width, shown(cov->packages[i].name), cov->packages[i].called,
                  cov->packages[i].count);
    print_row(width, "total", cov->called, cov->functions);
    for (size_t i = 0; i < cov->npackages; i++)
        if (cov->packages[i].called < cov->packages[i].count)
            print_never_called(cov, &cov->packages[i], columns);
}

static void print_json_package(const struct coverage *cov, const struct package *pk)
{
    fputs("{\"package\":", stdout);
    gst_json_put_string(stdout, pk->name);
    printf(",\"functions\":%zu,\"called\":%zu,\"never_called\":[", pk->count, pk->called);
    bool first = true;
    for (size_t i = pk->first; i < pk->first + pk->count; i++) {
        const struct gst_pfunc *f = cov->entries[i].func;
        if (f->calls)
            continue;
        fputs(first ? "{\"name\":" : ",{\"name\":", stdout);
        first = false;
        gst_json_put_string(stdout, f->name);
        fputs(",\"file\":", stdout);
        gst_json_put_string(stdout, f->file);
        printf(",\"line\":%" PRIu32 "}", f->line);
    }
    fputs("]}", stdout);
}

static void print_json(const struct coverage *cov)
{
    printf("{\"functions\":%zu,\"called\":%zu,\"packages\":[", cov->functions, cov->called);
    for (size_t i = 0; i < cov->npackages; i++) {
        fputs(i ? ",\n" : "\n", stdout);
        print_json_package(cov, &cov->packages[i]);
    }
    puts("]}");
}

static int report(const struct coverage_cli *c, const regex_t *filter)
{
    struct gst_profile p;
    struct coverage cov = { 0 };
    struct gr_error err;
    int status = GST_EXIT_OK;

    gst_profile_init(&p);
    if (gst_profile_load(c->target, &p, &err) < 0 || collect(&cov, &p, filter, &err) < 0 ||
        group(&cov, &err) < 0) {
        fprintf(stderr, "gostat: coverage: %s\n", err.msg);
        status = gr_error_exit_status(err.kind);
    } else if (c->json) {
        print_json(&cov);
    } else {
        print_text(&cov, c->wide ? 0 : gst_output_columns(stdout));
    }
    coverage_free(&cov);
    gst_profile_free(&p);
    return status;
}

int gst_cmd_coverage(int argc, char **argv)
{
    struct coverage_cli c = { 0 };
    regex_t filter;
    int next;
    int status = gst_parse_command(&gst_coverage_options, argc, argv, &c, &next);
    if (status >= 0)
        return status;
    c.target = argv[next];
    if (c.pattern) {
        struct gr_error err;
        if (gr_regex_compile(&filter, c.pattern, "--package", &err) < 0) {
            fprintf(stderr, "gostat: coverage: %s\n", err.msg);
            return gr_error_exit_status(err.kind);
        }
    }
    status = report(&c, c.pattern ? &filter : NULL);
    if (c.pattern)
        regfree(&filter);
    return status;
}
