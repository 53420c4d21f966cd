/* gostat_man.c: copies a gostat manual page from stdin to stdout with
 * each '.\" options: PROGRAM' list rewritten from that command's option
 * table (`make man`; tests/project/t_man.sh checks the committed page is so). */
#include "common/opttable.h"
#include "gostat/cmd/commands.h"

int main(void)
{
    return gr_opt_splice_man(stdin, stdout, gst_command_options) < 0 ? 1 : 0;
}
