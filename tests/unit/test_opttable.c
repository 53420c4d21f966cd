/* test_opttable.c: common/opttable*.c on a small table of every kind:
 * values checked and stored (ranges, choices, repeats, callbacks),
 * getopt_long's rules (clusters, prefixes, --name=value, permuted
 * operands) and their errors, the whole-word parser, the --help rows
 * (columns, overflow, text under the option, headings, placeholders), the
 * manual's items, and the table check. */
#include "common/opttable.h"
#include "tests/unit/unit.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct args {
    bool dry;
    int verbose;
    int mode;
    uint32_t count;
    uint64_t big;
    double seconds;
    const char *out;
    const char *hosts[2];
    size_t nhosts;
    int called;
};

static const struct gr_opt_choice modes[] = { { "fast", 1 }, { "slow", 2 }, { NULL, 0 } };

static int call_twice(const char *value, void *dest)
{
    struct args *a = dest;
    a->called = 2;
    return value && strcmp(value, "no") == 0 ? -1 : 0;
}

static const struct gr_opt rows[] = {
    { .kind = GR_OPT_TEXT, .help = GR_OPT_HELP("Modes:") },
    { "dry-run", 'n', NULL, GR_OPT_FLAG, GR_OPT_AT(struct args, dry),
      .help = GR_OPT_HELP("nothing is done") },
    { NULL, 'v', NULL, GR_OPT_FLAG, GR_OPT_AT(struct args, verbose), .help = GR_OPT_HELP("more") },
    { "mode", 0, "fast|slow", GR_OPT_CHOICE, GR_OPT_AT(struct args, mode), .choices = modes,
      .bad = "--mode: not '%s'", .help = GR_OPT_HELP("", "how, under the option") },
    { "slow", 0, NULL, GR_OPT_SET, GR_OPT_AT(struct args, mode), .set = 2,
      .help = GR_OPT_HELP("as --mode slow") },
    { "count", 'c', "N", GR_OPT_UINT, GR_OPT_AT(struct args, count), .min = 1, .max = 10,
      .bad = "--count: 1 to 10, not '%s'", .help = GR_OPT_HELP("how many", "second line") },
    { "big", 0, "N", GR_OPT_UINT, GR_OPT_AT(struct args, big), .min = 0, .max = (double)UINT64_MAX,
      .bad = "--big '%s'", .help = GR_OPT_HELP("a long option whose head is wide") },
    { "wait", 'w', "SECONDS", GR_OPT_DOUBLE, GR_OPT_AT(struct args, seconds), .min = 0,
      .open_min = 1, .max = 60, .bad = "--wait '%s'", .help = GR_OPT_HELP("seconds ${WHO}") },
    { "output", 'o', "FILE", GR_OPT_STRING, GR_OPT_AT(struct args, out),
      .help = GR_OPT_HELP("write FILE"), .man = "Write\n.I FILE" },
    { "host", 0, "NAME", GR_OPT_REPEAT, GR_OPT_AT(struct args, hosts),
      .count = offsetof(struct args, nhosts), .max = 2, .bad = "--host more than twice",
      .help = GR_OPT_HELP("up to twice") },
    { "call", 0, "X", GR_OPT_CALL, .call = call_twice, .bad = "--call '%s'",
      .help = GR_OPT_HELP("a callback") },
    { "help", 'h', NULL, GR_OPT_STOP, .help = GR_OPT_HELP("this text") },
    { "version", 0, NULL, GR_OPT_DOC, .help = GR_OPT_HELP("answered elsewhere") },
    { .head = "(note)", .kind = GR_OPT_DOC, .help = GR_OPT_HELP("a row of its own") },
};

static const char *expand(const char *name)
{
    return strcmp(name, "WHO") == 0 ? "(expanded)" : "?";
}

static const struct gr_opt_table table = {
    .program = "demo",
    .intro = "usage: demo [options] FILE...\n\n",
    .outro = "\nthe end\n",
    GR_OPT_TABLE_OPTS(rows),
    .min_operands = 0, .max_operands = -1,
    .column = 16,
    .long_indent = 6,
    .expand = expand,
};

/* Parses the words by getopt_long's rules into *a. */
static enum gr_opt_status parse(struct args *a, struct gr_opt_result *r, const char *words)
{
    static char buf[256];
    static char *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "demo %s", words);
    for (char *w = strtok(buf, " "); w && argc < 31; w = strtok(NULL, " "))
        argv[argc++] = w;
    argv[argc] = NULL;
    *a = (struct args){ 0 };
    return gr_opt_parse(&table, argc, argv, a, r);
}

static void stores_each_kind(void)
{
    struct args a;
    struct gr_opt_result r;
    if (!CHECK_INT(parse(&a, &r, "-nv --mode slow -c 7 --big 18446744073709551615 -w 0.5 "
                             "-o f --host x --host y --call ok"), GR_OPT_DONE))
        return;
    CHECK(a.dry);
    CHECK_INT(a.verbose, 1);
    CHECK_INT(a.mode, 2);
    CHECK_U64(a.count, 7);
    CHECK_U64(a.big, UINT64_MAX);
    CHECK_DBL(a.seconds, 0.5);
    CHECK_STR(a.out, "f");
    CHECK_U64(a.nhosts, 2);
    CHECK_STR(a.hosts[1], "y");
    CHECK_INT(a.called, 2);
    CHECK_INT(parse(&a, &r, "--slow"), GR_OPT_DONE);
    CHECK_INT(a.mode, 2);
}

static void getopt_rules(void)
{
    struct args a;
    struct gr_opt_result r;
    CHECK_INT(parse(&a, &r, "a --cou=3 b -c4 --dry"), GR_OPT_DONE);   /* prefix, =, attached */
    CHECK_U64(a.count, 4);
    CHECK(a.dry);
    CHECK_INT(r.next, 4);                   /* operands permuted to the end */
    CHECK_INT(parse(&a, &r, "-- -n"), GR_OPT_DONE);
    CHECK(!a.dry);
}

static void errors_say_what(void)
{
    struct args a;
    struct gr_opt_result r;
    char msg[64];
    CHECK_INT(parse(&a, &r, "-nx"), GR_OPT_UNKNOWN);
    CHECK_INT(r.letter, 'x');
    CHECK_INT(parse(&a, &r, "--bogus"), GR_OPT_UNKNOWN);
    CHECK_STR(r.word, "--bogus");
    CHECK_INT(r.letter, 0);
    CHECK_INT(parse(&a, &r, "--dry-run=1"), GR_OPT_UNKNOWN);
    CHECK_INT(parse(&a, &r, "--c 1"), GR_OPT_UNKNOWN);        /* --count or --call */
    CHECK_INT(parse(&a, &r, "x -o"), GR_OPT_MISSING);
    CHECK_STR(r.word, "-o");
    CHECK_STR(r.opt ? r.opt->name : NULL, "output");
    CHECK_INT(parse(&a, &r, "--count 11"), GR_OPT_BAD);
    gr_opt_bad_message(&r, msg, sizeof msg);
    CHECK_STR(msg, "--count: 1 to 10, not '11'");
    CHECK_INT(parse(&a, &r, "--host a --host b --host c"), GR_OPT_BAD);
    gr_opt_bad_message(&r, msg, sizeof msg);
    CHECK_STR(msg, "--host more than twice");
    CHECK_INT(parse(&a, &r, "-h --bogus"), GR_OPT_STOPPED);
    CHECK_STR(r.opt->name, "help");
    CHECK_INT(parse(&a, &r, "--version"), GR_OPT_UNKNOWN);    /* documented only */
    CHECK_INT(parse(&a, &r, "--call no"), GR_OPT_BAD);
}

static void ranges(void)
{
    static const char *const refused[] = {
        "-c 0", "-c 11", "-c -1", "-c +3", "-c 3x", "-c ''", "--big 18446744073709551616",
        "-w 0", "-w 1e-310", "-w 60.1", "-w nan", "-w inf", "-w x", "--mode Fast",
    };
    static const char *const taken[] = { "-c 1", "-c 10", "-c 010", "-w 60", "-w 1e-3", "--big 0" };
    struct args a;
    struct gr_opt_result r;
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (parse(&a, &r, refused[i]) != GR_OPT_BAD)
            unit_fail(__FILE__, __LINE__, "'%s' taken", refused[i]);
    for (size_t i = 0; i < sizeof taken / sizeof taken[0]; i++)
        if (parse(&a, &r, taken[i]) != GR_OPT_DONE)
            unit_fail(__FILE__, __LINE__, "'%s' refused", taken[i]);
}

static void whole_words(void)
{
    char *argv[] = { "demo", "in", "-n", "--count", "3", "out", "more", NULL };
    const char *ops[2];
    struct args a = { 0 };
    struct gr_opt_result r;
    CHECK_INT(gr_opt_parse_exact(&table, 6, argv, &a, ops, 2, &r), GR_OPT_DONE);
    CHECK_INT(r.next, 2);
    CHECK_STR(ops[1], "out");
    CHECK_U64(a.count, 3);
    CHECK_INT(gr_opt_parse_exact(&table, 7, argv, &a, ops, 2, &r), GR_OPT_EXTRA);
    CHECK_STR(r.word, "more");
    char *cluster[] = { "demo", "-nv", NULL };
    CHECK_INT(gr_opt_parse_exact(&table, 2, cluster, &a, ops, 2, &r), GR_OPT_UNKNOWN);
    char *prefix[] = { "demo", "--cou", "3", NULL };
    CHECK_INT(gr_opt_parse_exact(&table, 3, prefix, &a, ops, 2, &r), GR_OPT_UNKNOWN);
    char *last[] = { "demo", "--count", NULL };     /* a value missing: unknown, as before */
    CHECK_INT(gr_opt_parse_exact(&table, 2, last, &a, ops, 2, &r), GR_OPT_UNKNOWN);
    CHECK_STR(r.word, "--count");
}

/* What print(out, &table) writes. */
static char *printed(void (*print)(FILE *, const struct gr_opt_table *))
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    print(out, &table);
    fclose(out);
    return text;
}

static void help_rows(void)
{
    char *text = printed(gr_opt_print_help);
    CHECK_STR(text,
              "usage: demo [options] FILE...\n"
              "\n"
              "Modes:\n"
              "  -n, --dry-run nothing is done\n"
              "  -v            more\n"
              "      --mode fast|slow\n"
              "                how, under the option\n"
              "      --slow    as --mode slow\n"
              "  -c, --count N how many\n"
              "                second line\n"
              "      --big N   a long option whose head is wide\n"
              "  -w, --wait SECONDS  seconds (expanded)\n"
              "  -o, --output FILE  write FILE\n"
              "      --host NAME  up to twice\n"
              "      --call X  a callback\n"
              "  -h, --help    this text\n"
              "      --version answered elsewhere\n"
              "  (note)        a row of its own\n"
              "\n"
              "the end\n");
    free(text);
}

static void manual_items(void)
{
    char *text = printed(gr_opt_print_man);
    CHECK(strstr(text, ".PP\nModes:\n.TP\n\\fB\\-n\\fR, \\fB\\-\\-dry\\-run\\fR\nnothing is done\n"));
    CHECK(strstr(text, ".TP\n\\fB\\-\\-mode\\fR \\fBfast|slow\\fR\nhow, under the option\n"));
    CHECK(strstr(text, ".TP\n\\fB\\-o\\fR, \\fB\\-\\-output\\fR \\fIFILE\\fR\nWrite\n.I FILE\n"));
    CHECK(strstr(text, ".TP\n\\fB(note)\\fR\na row of its own\n"));
    free(text);
}

static const struct gr_opt_table *find(const char *program)
{
    return strcmp(program, "demo") == 0 ? &table : NULL;
}

static void splice_replaces_between_markers(void)
{
    static const char page[] = ".SH A\n.\\\" options: demo\nold\n.\\\" end of options\n.SH B\n";
    FILE *in = fmemopen((void *)page, strlen(page), "r");
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    CHECK_INT(gr_opt_splice_man(in, out, find), 0);
    fclose(in);
    fclose(out);
    CHECK(strncmp(text, ".SH A\n.\\\" options: demo\n.PP\nModes:\n", 35) == 0);
    CHECK(!strstr(text, "old\n"));
    CHECK(strstr(text, "a row of its own\n.\\\" end of options\n.SH B\n"));
    free(text);
}

static const struct gr_opt faulty[] = {
    { "count", 0, NULL, GR_OPT_UINT, GR_OPT_AT(struct args, count), .help = GR_OPT_HELP("x") },
    { "mode", 0, "M", GR_OPT_CHOICE, GR_OPT_AT(struct args, big), .choices = modes,
      .bad = "b", .help = GR_OPT_HELP("x") },
    { "count", 0, NULL, GR_OPT_FLAG, GR_OPT_AT(struct args, dry), .help = GR_OPT_HELP("x") },
};
/* no usage error for its operands (max_operands 0, too_many NULL): a fault too */
static const struct gr_opt_table bad = { .program = "faulty", GR_OPT_TABLE_OPTS(faulty) };

static void check_finds_faults(void)
{
    CHECK_INT(gr_opt_check(&table), 0);
    fprintf(stderr, "(four faults expected: the operands, and three rows)\n");
    CHECK_INT(gr_opt_check(&bad), -1);
}

UNIT_CASES("opttable",
           UNIT_CASE(stores_each_kind),
           UNIT_CASE(getopt_rules),
           UNIT_CASE(errors_say_what),
           UNIT_CASE(ranges),
           UNIT_CASE(whole_words),
           UNIT_CASE(help_rows),
           UNIT_CASE(manual_items),
           UNIT_CASE(splice_replaces_between_markers),
           UNIT_CASE(check_finds_faults));
