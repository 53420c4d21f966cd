/* gopkg.c: package paths from Go symbol names. */
#include "gostat/profile/gopkg.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Characters no import path holds, but a type literal does: the methods
 * of anonymous structs ("go.(*struct { *a/b.T; io.Reader }).Read") are
 * no package's. */
#define NOT_IN_PATHS " {}();*"

static bool compiler_generated(const char *name)
{
    return strncmp(name, "type:", 5) == 0 || strncmp(name, "go:", 3) == 0 ||
           strncmp(name, "type..", 6) == 0;
}

/* name without its type arguments; a new string. */
static char *without_type_args(const char *name)
{
    const char *open = strchr(name, '[');
    const char *close = strrchr(name, ']');
    if (!open || !close || close < open)
        return strdup(name);
    size_t head = (size_t)(open - name);
    char *s = malloc(head + strlen(close + 1) + 1);
    if (s) {
        memcpy(s, name, head);
        strcpy(s + head, close + 1);
    }
    return s;
}

char *gst_go_package(const char *name)
{
    if (compiler_generated(name))
        return strdup("");
    char *s = without_type_args(name);
    if (!s)
        return NULL;
    char *slash = strrchr(s, '/');
    char *dot = strchr(slash ? slash : s, '.');
    if (dot)
        *dot = '\0';
    if (!dot || strpbrk(s, NOT_IN_PATHS))
        s[0] = '\0';
    return s;
}
