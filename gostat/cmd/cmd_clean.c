/* cmd_clean.c: "gostat clean": remove the stats files of processes that
 * have exited (with --older-than, only those last changed that long ago).
 * Only the user's own regular files in $GOSTAT_DIR are considered
 * (statsdir.c). A file is live when its writer's pid is or the writer
 * holds its lock on it (proc.h: a process in another pid namespace). A
 * file without a valid header may belong to a program that is still
 * starting up: it is removed only when no process with a pid its name
 * could carry is running and no writer holds its lock. Merged files (GOSTAT_MERGE) hold
 * many processes' results and are kept. */
#include "common/go_duration.h"
#include "gostat/cmd/cmdline.h"
#include "gostat/cmd/commands.h"
#include "gostat/cmd/exitcode.h"
#include "gostat/read/proc.h"
#include "gostat/read/statsdir.h"
#include "gostat/read/statsfile.h"
#include "gostat/render/term.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct clean_state {
    bool dry_run;
    uint64_t older_than_ns;    /* 0: any age */
    unsigned removed, kept_live, kept_starting, kept_young, kept_merged, failed;
};

static int take_older_than(const char *value, void *dest)
{
    struct clean_state *c = dest;
    return gr_go_duration_parse(value, &c->older_than_ns) < 0 || c->older_than_ns == 0 ? -1 : 0;
}

static const struct gr_opt clean_opts[] = {
    { "older-than", 0, "DURATION", GR_OPT_CALL, .call = take_older_than,
      .bad = "--older-than takes a Go duration above 0 (300ms, 1m30s, 2h), not '%s'",
      .help = GR_OPT_HELP("only files last changed at least DURATION ago",
                          "(Go syntax: 300ms, 1m30s, 2h)"),
      .man =
          "Only files last changed at least\n"
          ".I DURATION\n"
          "ago (Go syntax: 300ms, 1m30s, 2h).\n" },
    { "dry-run", 'n', NULL, GR_OPT_FLAG, GR_OPT_AT(struct clean_state, dry_run),
      .help = GR_OPT_HELP("print what would be removed, remove nothing"),
      .man = "Print what would be removed; remove nothing." },
    GST_HELP_OPTION,
};

const struct gr_opt_table gst_clean_options = {
    .program = "gostat clean",
    .intro =
        "usage: gostat clean [-n|--dry-run] [--older-than DURATION]\n"
        "\n"
        "Removes the stats files in $GOSTAT_DIR (default " GST_DEFAULT_DIR ") whose process has\n"
        "exited, and files without a valid header (a program killed while\n"
        "starting) when no process with the pid in their name is running.\n"
        "A running program holds a lock on its file: its file is kept also\n"
        "when it runs in another pid namespace (a container sharing the\n"
        "directory).\n"
        "Only your own regular files named " GS_FILE_PREFIX "* are touched; symlinks\n"
        "and other users' files are left alone, and so are merged files\n"
        "(GOSTAT_MERGE). Prints one line per file removed.\n"
        "\n",
    .outro =
        "\n"
        "exit status: 0 ok, 1 usage error, 2 the directory is unreadable or a\n"
        "file could not be removed\n",
    GR_OPT_TABLE_OPTS(clean_opts),
    .min_operands = 0, .max_operands = 0,
    .too_many = "unexpected argument '%s'",
    .column = 25,
    .long_indent = 2,
};

static bool pid_running(const char *digits, size_t len)
{
    char path[64];
    if (len == 0 || len > 10)
        return false;
    snprintf(path, sizeof path, "/proc/%.*s", (int)len, digits);
    return access(path, F_OK) == 0;
}

/* Names are gostat.<exe>.<pid>[.<n>], and exe may hold dots: the last two
 * all-digit components are both possible pids. */
static bool named_pid_running(const char *name)
{
    const char *end = name + strlen(name);
    for (int tries = 0; tries < 2 && end > name; tries++) {
        const char *dot = end;
        while (dot > name && dot[-1] != '.')
            dot--;
        size_t len = (size_t)(end - dot);
        if (strspn(dot, "0123456789") < len || len == 0)
            return false;
        if (pid_running(dot, len))
            return true;
        end = dot - 1;
    }
    return false;
}

/* Whether the file was last changed less than --older-than ago. */
static bool too_young(const struct clean_state *c, const struct stat *sb)
{
    struct timespec now;
    if (!c->older_than_ns || clock_gettime(CLOCK_REALTIME, &now) < 0)
        return false;
    int64_t age = ((int64_t)now.tv_sec - (int64_t)sb->st_mtim.tv_sec) * 1000000000 +
                  (now.tv_nsec - sb->st_mtim.tv_nsec);
    return age < 0 || (uint64_t)age < c->older_than_ns;
}

/* Unlinks path only if it is still the file fd has open. */
static int remove_file(struct clean_state *c, const char *path, int fd, const char *why)
{
    struct stat open_sb, now_sb;
    if (fstat(fd, &open_sb) < 0 || lstat(path, &now_sb) < 0 ||
        open_sb.st_dev != now_sb.st_dev || open_sb.st_ino != now_sb.st_ino)
        return 0;   /* replaced or removed meanwhile: not ours to judge */
    if (too_young(c, &open_sb)) {
        c->kept_young++;
        return 0;
    }
    if (!c->dry_run && unlink(path) < 0) {
        char safe[512];
        fprintf(stderr, "gostat: clean: cannot remove %s: %m\n", gst_safe_text(safe, sizeof safe, path));
        c->failed++;
        return 0;
    }
    fputs(c->dry_run ? "would remove " : "removed ", stdout);
    gst_put_cell(stdout, path, 0, false);
    printf(" (%s)\n", why);
    c->removed++;
    return 0;
}

static int visit(void *ctx, const char *name, const char *path, int fd,
                 const struct gr_error *open_err)
{
    struct clean_state *c = ctx;
    struct gst_stats st;
    struct gr_error err;
    char why[64];

    if (fd < 0) {
        fprintf(stderr, "gostat: %s\n", open_err->msg);
        c->failed++;
        return 0;
    }
    int keep = dup(fd);   /* gst_stats_open_fd consumes fd */
    if (keep < 0) {
        close(fd);
        c->failed++;
        return 0;
    }
    if (gst_stats_open_fd(&st, fd, path, &err) == 0) {
        bool live = st.live, merged = st.hdr.processes > 0;
        snprintf(why, sizeof why, "pid %lld exited", (long long)st.hdr.pid);
        gst_stats_close(&st);
        if (merged)
            c->kept_merged++;
        else if (live)
            c->kept_live++;
        else
            remove_file(c, path, keep, why);
    } else if (named_pid_running(name) || gst_writer_holds_lock(keep)) {
        c->kept_starting++;
    } else {
        remove_file(c, path, keep, "invalid, and no process has its pid");
    }
    close(keep);
    return 0;
}

int gst_cmd_clean(int argc, char **argv)
{
    struct clean_state c = { 0 };
    struct gr_error err;
    int next;
    int status = gst_parse_command(&gst_clean_options, argc, argv, &c, &next);
    if (status >= 0)
        return status;

    const char *dir = gst_stats_dir();
    if (gst_dir_scan(dir, visit, &c, &err) < 0) {
        fprintf(stderr, "gostat: %s\n", err.msg);
        return GST_EXIT_STATS;
    }
    printf("%s %u file%s in %s; kept %u of running processes",
           c.dry_run ? "would remove" : "removed", c.removed, c.removed == 1 ? "" : "s", dir,
           c.kept_live + c.kept_starting);
    if (c.kept_starting)
        printf(" (%u still starting)", c.kept_starting);
    if (c.older_than_ns)
        printf(", %u younger than --older-than", c.kept_young);
    if (c.kept_merged)
        printf(", %u merged", c.kept_merged);
    printf("\n");
    return c.failed ? GST_EXIT_STATS : GST_EXIT_OK;
}
