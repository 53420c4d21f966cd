/* commands.c: the table of gostat's subcommands. */
#include "commands.h"

#include <string.h>

static const struct gst_command commands[] = {
    { "clean", "remove stats files of processes that have exited", gst_cmd_clean },
    { "top", "full-screen live view of functions' calls/s and time, like top(1)", gst_cmd_top },
};

const struct gst_command *gst_command_find(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

void gst_commands_print(FILE *out)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  gostat %-10s %s\n", commands[i].name, commands[i].summary);
}
