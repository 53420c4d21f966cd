/* opttable_help.c: a command's --help text from its option table: the
 * intro, one row per option ("  -o, --output FILE  help..." with the help
 * lines in the table's column), the outro. */
#include "common/opttable.h"

#include <string.h>

/* Prints text, replacing each "${NAME}" with t->expand(NAME). */
static void put_text(FILE *out, const struct gr_opt_table *t, const char *text)
{
    const char *p;
    while (t->expand && (p = strstr(text, "${")) != NULL) {
        const char *end = strchr(p, '}');
        if (!end)
            break;
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(end - p - 2), p + 2);
        fwrite(text, 1, (size_t)(p - text), out);
        fputs(t->expand(name), out);
        text = end + 1;
    }
    fputs(text, out);
}

/* "-o, --output FILE", "--filter REGEX", "-v", or the row's own head. */
static int put_head(FILE *out, const struct gr_opt_table *t, const struct gr_opt *o)
{
    if (o->head)
        return fprintf(out, "  %s", o->head);
    int n = fprintf(out, "%*s", o->letter ? 2 : t->long_indent, "");
    if (o->letter)
        n += fprintf(out, o->name ? "-%c, " : "-%c", o->letter);
    if (o->name)
        n += fprintf(out, "--%s", o->name);
    if (o->arg)
        n += fprintf(out, " %s", o->arg);
    return n;
}

static void put_row(FILE *out, const struct gr_opt_table *t, const struct gr_opt *o)
{
    const char *const *line = o->help;
    if (o->kind == GR_OPT_TEXT) {
        for (; *line; line++) {
            put_text(out, t, *line);
            fputc('\n', out);
        }
        return;
    }
    int width = put_head(out, t, o);
    if (**line == '\0') {           /* the text goes under the option */
        fputc('\n', out);
        line++;
    } else {
        fprintf(out, "%*s", width < t->column ? t->column - width : 2, "");
        put_text(out, t, *line++);
        fputc('\n', out);
    }
    for (; *line; line++) {
        fprintf(out, "%*s", t->column, "");
        put_text(out, t, *line);
        fputc('\n', out);
    }
}

void gr_opt_print_help(FILE *out, const struct gr_opt_table *t)
{
    put_text(out, t, t->intro);
    for (size_t i = 0; i < t->nopts; i++)
        put_row(out, t, &t->opts[i]);
    if (t->outro)
        put_text(out, t, t->outro);
}
