/* gorewrite_man.c: copies gorewrite's manual page from stdin to stdout
 * with its '.\" options: gorewrite' list rewritten from the option table
 * (`make man`; tests/project/t_man.sh checks the committed page is so). */
#include "common/opttable.h"
#include "rewriter/arguments.h"

#include <string.h>

static const struct gr_opt_table *find(const char *program)
{
    return strcmp(program, gr_gorewrite_options.program) == 0 ? &gr_gorewrite_options : NULL;
}

int main(void)
{
    return gr_opt_splice_man(stdin, stdout, find) < 0 ? 1 : 0;
}
