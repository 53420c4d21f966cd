/* main.c: gostat's entry point: run the command argv[1] names, or the
 * table command when it names none, and turn a failed write to stdout into
 * an error status. */
#include "gostat/cmd/commands.h"
#include "gostat/cmd/exitcode.h"
#include "format/gostat_format.h"
#include "common/version.h"

#include <stdio.h>
#include <string.h>

/* A full disk or closed pipe on stdout is an error, not a silent success. */
static int finish(int status)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("gostat: writing output");
        return status ? status : GST_EXIT_STATS;
    }
    return status;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("gostat %s\nstats file format version %d: files written by programs that "
               "gorewrite %s instrumented (gorewrite --version lists the Go releases)\n",
               GR_VERSION, GS_VERSION, GR_VERSION);
        return finish(GST_EXIT_OK);
    }
    const struct gst_command *cmd = argc > 1 ? gst_command_find(argv[1]) : NULL;
    if (cmd)
        return finish(cmd->run(argc - 1, argv + 1));
    return finish(gst_cmd_table(argc, argv));
}
