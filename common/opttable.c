/* opttable.c: parsing a command line by its option table (opttable.h):
 * the getopt_long arrays built from the table, and each value checked
 * and stored where the table says. */
#include "common/opttable.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPTS 64
#define LONG_VAL_BASE 256       /* getopt's value of an option without a letter: base + index */

static bool parsed(const struct gr_opt *o)
{
    return o->kind != GR_OPT_DOC && o->kind != GR_OPT_TEXT && (o->name || o->letter);
}

static bool takes_value(const struct gr_opt *o)
{
    return o->kind == GR_OPT_STRING || o->kind == GR_OPT_UINT || o->kind == GR_OPT_DOUBLE ||
           o->kind == GR_OPT_CHOICE || o->kind == GR_OPT_REPEAT ||
           (o->kind == GR_OPT_CALL && o->arg);
}

static bool parse_uint(const struct gr_opt *o, const char *s, uint64_t *v)
{
    char *end;
    errno = 0;
    unsigned long long n = strtoull(s, &end, 10);
    if (*s < '0' || *s > '9' || *end || errno || (double)n < o->min || (double)n > o->max)
        return false;
    *v = n;
    return true;
}

static bool parse_double(const struct gr_opt *o, const char *s, double *v)
{
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(d) || d < o->min || d > o->max ||
        (o->open_min && d == o->min))
        return false;
    *v = d;
    return true;
}

static bool store_uint(char *at, size_t size, uint64_t v)
{
    if (size == sizeof(uint32_t)) {
        uint32_t n = (uint32_t)v;
        memcpy(at, &n, size);
    } else if (size == sizeof(uint64_t)) {
        memcpy(at, &v, size);
    } else {
        return false;
    }
    return true;
}

static bool store_choice(const struct gr_opt *o, const char *s, char *at)
{
    for (const struct gr_opt_choice *c = o->choices; c->name; c++) {
        if (strcmp(c->name, s) == 0) {
            memcpy(at, &c->value, sizeof c->value);
            return true;
        }
    }
    return false;
}

static bool store_repeat(const struct gr_opt *o, const char *s, char *dest)
{
    size_t n;
    memcpy(&n, dest + o->count, sizeof n);
    if ((double)n >= o->max)
        return false;
    memcpy(dest + o->offset + n * sizeof s, &s, sizeof s);
    n++;
    memcpy(dest + o->count, &n, sizeof n);
    return true;
}

/* Stores o's value (NULL for options without one) into dest. Returns
 * false for a bad value. */
static bool store(const struct gr_opt *o, const char *value, void *dest)
{
    char *at = (char *)dest + o->offset;
    uint64_t n;
    double d;
    bool yes = true;
    int one = 1;
    switch (o->kind) {
    case GR_OPT_FLAG:       /* a bool, or an int */
        if (o->size == sizeof one)
            memcpy(at, &one, sizeof one);
        else
            memcpy(at, &yes, sizeof yes);
        return true;
    case GR_OPT_SET: memcpy(at, &o->set, sizeof o->set); return true;
    case GR_OPT_STRING: memcpy(at, &value, sizeof value); return true;
    case GR_OPT_UINT: return parse_uint(o, value, &n) && store_uint(at, o->size, n);
    case GR_OPT_DOUBLE:
        if (!parse_double(o, value, &d))
            return false;
        memcpy(at, &d, sizeof d);
        return true;
    case GR_OPT_CHOICE: return store_choice(o, value, at);
    case GR_OPT_REPEAT: return store_repeat(o, value, dest);
    case GR_OPT_CALL: return o->call(value, dest) >= 0;
    default: return true;
    }
}

/* One parsed option: stored, or the result that ends parsing. */
static bool take(const struct gr_opt *o, const char *word, const char *value, void *dest,
                 struct gr_opt_result *r)
{
    r->opt = o;
    r->word = word;
    r->value = value;
    if (o->kind == GR_OPT_STOP) {
        r->status = GR_OPT_STOPPED;
        return false;
    }
    if (!store(o, value, dest)) {
        r->status = GR_OPT_BAD;
        return false;
    }
    return true;
}

/* getopt_long's optstring and options from the table: a letter's value
 * is the letter, other options' LONG_VAL_BASE + their index. */
static void getopt_arrays(const struct gr_opt_table *t, char *shorts, struct option *longs)
{
    size_t ns = 0, nl = 0;
    shorts[ns++] = ':';
    for (size_t i = 0; i < t->nopts && i < MAX_OPTS; i++) {     /* gr_opt_check: no more */
        const struct gr_opt *o = &t->opts[i];
        if (!parsed(o))
            continue;
        int val = o->letter ? o->letter : LONG_VAL_BASE + (int)i;
        if (o->letter) {
            shorts[ns++] = o->letter;
            if (takes_value(o))
                shorts[ns++] = ':';
        }
        if (o->name)
            longs[nl++] = (struct option){ o->name, takes_value(o) ? required_argument : no_argument,
                                           NULL, val };
    }
    shorts[ns] = '\0';
    longs[nl] = (struct option){ NULL, 0, NULL, 0 };
}

/* The option getopt_long returned as val, or NULL. */
static const struct gr_opt *by_val(const struct gr_opt_table *t, int val)
{
    if (val >= LONG_VAL_BASE && (size_t)(val - LONG_VAL_BASE) < t->nopts)
        return &t->opts[val - LONG_VAL_BASE];
    for (size_t i = 0; i < t->nopts; i++)
        if (val > 0 && t->opts[i].letter == val && parsed(&t->opts[i]))
            return &t->opts[i];
    return NULL;
}

enum gr_opt_status gr_opt_parse(const struct gr_opt_table *t, int argc, char **argv, void *dest,
                                struct gr_opt_result *r)
{
    char shorts[2 * MAX_OPTS + 2];
    struct option longs[MAX_OPTS + 1];
    int c;

    getopt_arrays(t, shorts, longs);
    *r = (struct gr_opt_result){ .status = GR_OPT_DONE };
    opterr = 0;     /* the program words its own messages */
    optind = 0;     /* glibc: start afresh, also after an earlier parse */
    while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        const char *word = argv[optind - 1];
        if (c == '?' || c == ':') {
            r->status = c == ':' ? GR_OPT_MISSING : GR_OPT_UNKNOWN;
            r->opt = by_val(t, optopt);
            r->word = word;
            r->letter = optopt > 0 && optopt < LONG_VAL_BASE ? optopt : 0;
            return r->status;
        }
        if (!take(by_val(t, c), word, optarg, dest, r))
            return r->status;
    }
    r->next = optind;
    return r->status;
}

static const struct gr_opt *by_word(const struct gr_opt_table *t, const char *word)
{
    for (size_t i = 0; i < t->nopts; i++) {
        const struct gr_opt *o = &t->opts[i];
        if (!parsed(o))
            continue;
        if ((o->letter && word[1] == o->letter && !word[2]) ||
            (o->name && strncmp(word, "--", 2) == 0 && strcmp(word + 2, o->name) == 0))
            return o;
    }
    return NULL;
}

enum gr_opt_status gr_opt_parse_exact(const struct gr_opt_table *t, int argc, char **argv,
                                      void *dest, const char **operands, int max_operands,
                                      struct gr_opt_result *r)
{
    *r = (struct gr_opt_result){ .status = GR_OPT_DONE };
    for (int i = 1; i < argc; i++) {
        const char *word = argv[i];
        const struct gr_opt *o = word[0] == '-' ? by_word(t, word) : NULL;
        if (o && takes_value(o) && i + 1 < argc) {
            if (!take(o, word, argv[++i], dest, r))
                return r->status;
        } else if (o && !takes_value(o)) {
            if (!take(o, word, NULL, dest, r))
                return r->status;
        } else if (word[0] == '-' && word[1]) {
            r->status = GR_OPT_UNKNOWN;
            r->word = word;
            return r->status;
        } else if (r->next == max_operands) {
            r->status = GR_OPT_EXTRA;
            r->word = word;
            return r->status;
        } else {
            operands[r->next++] = word;
        }
    }
    return r->status;
}

void gr_opt_bad_message(const struct gr_opt_result *r, char *buf, size_t size)
{
    snprintf(buf, size, r->opt->bad, r->value);
}

static int complain(const struct gr_opt_table *t, const struct gr_opt *o, const char *what)
{
    fprintf(stderr, "%s: option table row %s%s: %s\n", t->program, o->name ? "--" : "",
            o->name ? o->name : o->head ? o->head : "(text)", what);
    return 1;
}

static bool same_option(const struct gr_opt *a, const struct gr_opt *b)
{
    return (a->name && b->name && strcmp(a->name, b->name) == 0) ||
           (a->letter && a->letter == b->letter);
}

/* What is wrong with parsed option o, or NULL. */
static const char *row_fault(const struct gr_opt *o)
{
    bool value = takes_value(o);
    if (value != (o->arg != NULL))
        return value ? "takes a value but names none" : "names a value but takes none";
    if (value && o->kind != GR_OPT_STRING && !o->bad)
        return "has no message for a bad value";
    if ((o->kind == GR_OPT_SET || o->kind == GR_OPT_CHOICE) && o->size != sizeof(int))
        return "stores an int into a field of another size";
    if (o->kind == GR_OPT_FLAG && o->size != sizeof(bool) && o->size != sizeof(int))
        return "sets a field that is neither a bool nor an int";
    if (o->kind == GR_OPT_UINT && o->size != sizeof(uint32_t) && o->size != sizeof(uint64_t))
        return "stores a number into a field that is not 32 or 64 bits";
    if (o->kind == GR_OPT_STRING && o->size != sizeof(const char *))
        return "stores a string into a field that is not a pointer";
    return NULL;
}

int gr_opt_check(const struct gr_opt_table *t)
{
    int faults = 0;
    if (t->nopts > MAX_OPTS) {
        fprintf(stderr, "%s: more than %d rows in the option table\n", t->program, MAX_OPTS);
        faults++;
    }
    if ((t->min_operands > 0 && !t->too_few) || (t->max_operands >= 0 && !t->too_many)) {
        fprintf(stderr, "%s: no usage error for too few or too many operands\n", t->program);
        faults++;
    }
    for (size_t i = 0; i < t->nopts; i++) {
        const struct gr_opt *o = &t->opts[i];
        if (!o->help || !o->help[0])
            faults += complain(t, o, "has no help");
        if (!parsed(o))
            continue;
        const char *fault = row_fault(o);
        if (fault)
            faults += complain(t, o, fault);
        for (size_t j = 0; j < i; j++)
            if (parsed(&t->opts[j]) && same_option(o, &t->opts[j]))
                faults += complain(t, o, "repeats an earlier option's name or letter");
    }
    return faults ? -1 : 0;
}
