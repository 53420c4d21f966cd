/* opttable_man.c: a command's options in its manual page, from its option
 * table: one ".TP" item per option (the option in bold, its value's name
 * in italics), its text the table's manual text or else its help lines;
 * and the splice that puts those lists between the page's markers. */
#include "common/opttable.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#define BEGIN_MARK ".\\\" options: "
#define END_MARK ".\\\" end of options"

/* s with roff's special characters escaped: '\' and '-'. */
static void put_escaped(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", out);
        else if (*s == '-')
            fputs("\\-", out);
        else
            fputc(*s, out);
    }
}

/* A value's name in capitals (FILE) is a placeholder, in italics; a
 * literal one (calls|name) is bold. */
static bool placeholder(const char *arg)
{
    for (; *arg; arg++)
        if (islower((unsigned char)*arg))
            return false;
    return true;
}

static void put_tag(FILE *out, const struct gr_opt *o)
{
    fputs(".TP\n", out);
    if (o->head) {
        fputs("\\fB", out);
        put_escaped(out, o->head);
        fputs("\\fR\n", out);
        return;
    }
    if (o->letter)
        fprintf(out, "\\fB\\-%c\\fR%s", o->letter, o->name ? ", " : "");
    if (o->name) {
        fputs("\\fB\\-\\-", out);
        put_escaped(out, o->name);
        fputs("\\fR", out);
    }
    if (o->arg) {
        fputs(placeholder(o->arg) ? " \\fI" : " \\fB", out);
        put_escaped(out, o->arg);
        fputs("\\fR", out);
    }
    fputc('\n', out);
}

/* The help lines as one roff paragraph. */
static void put_help(FILE *out, const struct gr_opt *o)
{
    for (const char *const *line = o->help; *line; line++) {
        if (!**line)
            continue;
        if ((*line)[0] == '.' || (*line)[0] == '\'')
            fputs("\\&", out);
        put_escaped(out, *line);
        fputc('\n', out);
    }
}

static void put_item(FILE *out, const struct gr_opt *o)
{
    if (o->kind == GR_OPT_TEXT)
        fputs(".PP\n", out);
    else
        put_tag(out, o);
    if (!o->man) {
        put_help(out, o);
        return;
    }
    fputs(o->man, out);
    if (o->man[0] && o->man[strlen(o->man) - 1] != '\n')
        fputc('\n', out);
}

void gr_opt_print_man(FILE *out, const struct gr_opt_table *t)
{
    for (size_t i = 0; i < t->nopts; i++)
        put_item(out, &t->opts[i]);
}

int gr_opt_splice_man(FILE *in, FILE *out,
                      const struct gr_opt_table *(*find)(const char *program))
{
    char line[4096];
    const char *open = NULL;
    char program[sizeof line];
    while (fgets(line, sizeof line, in)) {
        if (open && strncmp(line, END_MARK, strlen(END_MARK)) != 0)
            continue;               /* the old list, replaced */
        fputs(line, out);
        open = NULL;
        if (strncmp(line, BEGIN_MARK, strlen(BEGIN_MARK)) != 0)
            continue;
        snprintf(program, sizeof program, "%s", line + strlen(BEGIN_MARK));
        program[strcspn(program, "\n")] = '\0';
        const struct gr_opt_table *t = find(program);
        if (!t) {
            fprintf(stderr, "no option table for '%s'\n", program);
            return -1;
        }
        if (gr_opt_check(t) < 0)
            return -1;
        gr_opt_print_man(out, t);
        open = t->program;
    }
    if (open) {
        fprintf(stderr, "the options of '%s' have no '%s' line after them\n", open, END_MARK);
        return -1;
    }
    return 0;
}
