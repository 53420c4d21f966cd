/* exported by common */
/* opttable.h: a command line declared once. Each command of gorewrite and
 * gostat has ONE static table of its options (name, letter, argument,
 * kind, where the value goes, help lines, manual text); from it come
 *   - parsing: gr_opt_parse (GNU getopt_long rules: clusters, prefixes,
 *     --name=value, operands anywhere) or gr_opt_parse_exact (whole words
 *     only, gorewrite's rules); values are checked (ranges, choices) and
 *     stored; errors come back as a gr_opt_result for the program to word;
 *   - the --help text: gr_opt_print_help (opttable_help.c);
 *   - the manual page's options list: gr_opt_print_man (opttable_man.c).
 * So an option cannot be parsed without being documented, nor documented
 * differently in --help and the manual. */
#ifndef GR_OPTTABLE_H
#define GR_OPTTABLE_H

#include <stddef.h>
#include <stdio.h>

enum gr_opt_kind {
    GR_OPT_FLAG,        /* no value: sets the bool (or int) at offset to true */
    GR_OPT_SET,         /* no value: stores .set in the int (or enum) at offset */
    GR_OPT_STRING,      /* the value itself, a const char * at offset */
    GR_OPT_UINT,        /* a whole number in [min, max], size bytes at offset */
    GR_OPT_DOUBLE,      /* a finite number in [min, max] (min excluded with .open_min) */
    GR_OPT_CHOICE,      /* one of .choices: its value in the int (or enum) at offset */
    GR_OPT_REPEAT,      /* each value appended to the const char * array at
                           offset, its size_t count at .count, at most max times */
    GR_OPT_CALL,        /* .call(value or NULL, dest) stores it; < 0: bad value */
    GR_OPT_STOP,        /* parsing stops here (--help, --version): the caller acts */
    GR_OPT_DOC,         /* documented only: parsed elsewhere, or a second row of
                           help for the option above (--value calls) */
    GR_OPT_TEXT,        /* not an option: help lines printed as they are, inside
                           the list (a heading such as "Other options:") */
};

struct gr_opt_choice {
    const char *name;
    int value;
};

struct gr_opt {
    const char *name;           /* long name without "--", or NULL */
    char letter;                /* short option letter, or 0 */
    const char *arg;            /* the value's name in help ("N", "FILE"), NULL: none */
    enum gr_opt_kind kind;
    size_t offset, size;        /* where in the command's struct the value goes */
    size_t count;               /* GR_OPT_REPEAT: offset of the size_t count */
    double min, max;            /* GR_OPT_UINT, GR_OPT_DOUBLE; GR_OPT_REPEAT: max times */
    int open_min;               /* GR_OPT_DOUBLE: min itself is refused */
    int set;                    /* GR_OPT_SET */
    const struct gr_opt_choice *choices;    /* GR_OPT_CHOICE, ended by a NULL name */
    int (*call)(const char *value, void *dest);
    const char *bad;            /* message for a bad value: printf format, one %s (the value) */
    const char *head;           /* help's left column when not "-l, --name ARG" */
    const char *const *help;    /* help lines, NULL-ended; a first line "" puts the
                                   text under the option instead of beside it */
    const char *man;            /* the manual's roff text (NULL: the help lines) */
};

/* A field of a command's struct, for .offset and .size. */
#define GR_OPT_AT(type, field) offsetof(type, field), sizeof(((type *)0)->field)
/* Help lines. */
#define GR_OPT_HELP(...) ((const char *const[]){ __VA_ARGS__, NULL })

struct gr_opt_table {
    const char *program;        /* "gostat clean": messages and the manual */
    const char *intro;          /* --help text before the options (usage line, prose) */
    const char *outro;          /* --help text after them */
    const struct gr_opt *opts;  /* in help order: GR_OPT_TABLE_OPTS(array) */
    size_t nopts;
    /* How many operands the command takes (max -1: any number), and the
     * usage errors for fewer (text) and more (printf format, %s: the first
     * operand too many). Checked by the program's parse wrapper. */
    int min_operands, max_operands;
    const char *too_few, *too_many;
    int column;                 /* help text starts in this column */
    int long_indent;            /* indent of an option without a letter (2 or 6) */
    /* The text of "${NAME}" in help text, known only at run time; NULL:
     * no such placeholders. */
    const char *(*expand)(const char *name);
};

#define GR_OPT_TABLE_OPTS(array) .opts = (array), .nopts = sizeof(array) / sizeof((array)[0])

enum gr_opt_status {
    GR_OPT_DONE,                /* all options parsed; operands from .next */
    GR_OPT_STOPPED,             /* a GR_OPT_STOP option: .opt */
    GR_OPT_UNKNOWN,             /* .word (as given), .letter inside a cluster */
    GR_OPT_MISSING,             /* .opt needs a value; .word as given */
    GR_OPT_BAD,                 /* .opt's value .value is bad: gr_opt_bad_message */
    GR_OPT_EXTRA,               /* gr_opt_parse_exact: .word is an operand too many */
};

struct gr_opt_result {
    enum gr_opt_status status;
    const struct gr_opt *opt;
    const char *word;           /* the command-line word of the option */
    const char *value;
    int letter;                 /* getopt's optopt when it names a letter, else 0 */
    int next;                   /* index in argv of the first operand */
};

/* Parses argv[1..] by getopt_long's rules (which permute argv: operands
 * end up from r->next on) into dest. Returns r->status. */
enum gr_opt_status gr_opt_parse(const struct gr_opt_table *t, int argc, char **argv, void *dest,
                                struct gr_opt_result *r);

/* Parses argv[1..] word by word: an option is its whole word ("-v",
 * "--sample"), its value the next word (missing at the end: the option
 * is then unknown); any other word starting with '-' (but "-") is unknown;
 * the rest are operands, collected in argv's order into operands (at most
 * max_operands, r->next their count; one more is GR_OPT_EXTRA).
 * Returns r->status. */
enum gr_opt_status gr_opt_parse_exact(const struct gr_opt_table *t, int argc, char **argv,
                                      void *dest, const char **operands, int max_operands,
                                      struct gr_opt_result *r);

/* The GR_OPT_BAD message: opt->bad with the value. */
void gr_opt_bad_message(const struct gr_opt_result *r, char *buf, size_t size);

/* Checks t's rows (a value's name and bad-value message where it takes
 * one, field sizes that fit the kind, help lines, no name or letter
 * twice) and that its operand counts have their usage errors.
 * Returns 0, or -1 after one stderr line per fault. */
int gr_opt_check(const struct gr_opt_table *t);

/* The --help text: intro, one row per option, outro. */
void gr_opt_print_help(FILE *out, const struct gr_opt_table *t);

/* The manual's options list in roff: one .TP per option, a GR_OPT_TEXT's
 * lines as a paragraph. */
void gr_opt_print_man(FILE *out, const struct gr_opt_table *t);

/* Copies a roff page from in to out, replacing the lines between
 * '.\" options: PROGRAM' and '.\" end of options' with the options list of
 * the table find(PROGRAM) returns. Returns 0, or -1 (message on stderr)
 * for a marker naming no table or one left open, or a table
 * gr_opt_check finds faults in. */
int gr_opt_splice_man(FILE *in, FILE *out,
                      const struct gr_opt_table *(*find)(const char *program));

#endif
