/* cmd_top.c: "gostat top [PID|FILE]": a full-screen live view like
 * top(1). This file holds the command line, the refresh loop and the
 * keys; top_model.c computes what is shown, top_format.c words it and
 * top_screen.c draws it.
 *
 * SIGINT and SIGTERM are blocked except while waiting, and the wait uses
 * ppoll, which unblocks them atomically (as in watch.c): a signal ends the
 * wait at once, and the loop then gives the terminal back before exiting.
 * SIGWINCH is treated the same way, so curses reports the new size as
 * KEY_RESIZE as soon as it happens. */
#include "gostat/cmd/cmdline.h"
#include "gostat/cmd/commands.h"
#include "gostat/cmd/exitcode.h"
#include "gostat/cmd/stop_signals.h"
#include "gostat/read/statsdir.h"
#include "gostat/read/target.h"
#include "gostat/top/top_format.h"
#include "gostat/top/top_model.h"
#include "gostat/render/term.h"
#include "gostat/top/top_screen.h"

#include <curses.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define KEY_ESC 27
#define CTRL(c) ((c) & 0x1f)

struct top_options {
    double delay;
    const char *target;        /* NULL: every live file in the directory */
};

/* How the loop ended. */
enum top_end { TOP_RUNNING, TOP_QUIT, TOP_EXITED, TOP_FAILED, TOP_NO_TERMINAL };

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
    stop_signal = sig;
}

static const struct gr_opt top_opts[] = {
    { "delay", 'd', "SECONDS", GR_OPT_DOUBLE, GR_OPT_AT(struct top_options, delay),
      .min = 0.01, .max = 86400, .bad = "-d wants seconds from 0.01 to 86400, not '%s'",
      .help = GR_OPT_HELP("time between refreshes (default 1; fractions allowed)"),
      .man =
          "Time between refreshes (default 1; fractions allowed).\n" },
    GST_HELP_OPTION,
};

const struct gr_opt_table gst_top_options = {
    .program = "gostat top",
    .intro =
        "usage: gostat top [-d SECONDS] [PID|FILE]\n"
        "\n"
        "A full-screen view of a running instrumented program's functions,\n"
        "refreshed like top(1). With PID|FILE, one process; without, every\n"
        "live stats file in $GOSTAT_DIR (default " GST_DEFAULT_DIR "), with a PID column:\n"
        "processes that start appear, those that exit leave at the next refresh.\n"
        "\n"
        "Header: the exe, pid, running or exited, uptime; calls per second and\n"
        "calls of all functions; functions in the file and rows shown; goroutines\n"
        "created, exited and live (\"-\" when the file cannot tell); sort and filter.\n"
        "Columns (\"-\" where unknown):\n"
        "  CALLS/S   calls in the last interval / its length in seconds\n"
        "  CALLS     calls since the program started\n"
        "  TIME%     time spent in the function during the last interval, as a\n"
        "            percentage of the interval's wall time; over 100 when several\n"
        "            goroutines run it at once; \"-\" for untimed functions and\n"
        "            files built with --count-only\n"
        "  MEAN, P99 mean and 99th percentile duration since the program started\n"
        "  FUNCTION  the function's name\n"
        "Only functions that were called are listed (key a shows all).\n"
        "\n"
        "Keys: c n t m 9 f sort by calls/s, calls, time%, mean, p99, name;\n"
        "/ filter by extended regex (Enter applies, Esc cancels, empty clears);\n"
        "space or p pause; g goroutines by creation site (again: functions);\n"
        "arrows, PgUp, PgDn, Home, End scroll; ? or h help; q quit.\n"
        "\n"
        "When the one process watched exits, its final numbers are shown marked\n"
        "exited, and printed again to standard output after the screen is restored,\n"
        "so they stay visible; gostat top then exits with status 0. Without a\n"
        "target it runs until q. Standard output must be a terminal; for a log\n"
        "use gostat --watch SECONDS PID|FILE.\n"
        "\n",
    .outro =
        "\n"
        "exit status: 0 quit (q, SIGINT, SIGTERM) or the process exited; 1 usage\n"
        "error or standard output not a terminal; 2 the stats file is missing,\n"
        "unreadable or became invalid, or the directory is unreadable\n",
    GR_OPT_TABLE_OPTS(top_opts),
    .min_operands = 0, .max_operands = 1,
    .too_many = "unexpected argument '%s'",
    .column = 23,
    .long_indent = 6,
};

/* Returns -1 to go on, else the exit status. */
static int parse(int argc, char **argv, struct top_options *o)
{
    int next;
    *o = (struct top_options){ .delay = 1 };
    int status = gst_parse_command(&gst_top_options, argc, argv, o, &next);
    if (status < 0 && next < argc)
        o->target = argv[next];
    return status;
}

static void apply_filter(struct top_model *m, struct top_ui *ui)
{
    struct gr_error err;
    ui->prompting = false;
    if (top_model_set_filter(m, ui->input, &err) < 0)
        snprintf(ui->message, sizeof ui->message, "%.*s", (int)sizeof ui->message - 1, err.msg);
}

/* Backspace removes one whole UTF-8 character. */
static void erase_last_char(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && ((unsigned char)s[n - 1] & 0xC0) == 0x80)
        n--;
    if (n > 0)
        n--;
    s[n] = '\0';
}

static void prompt_key(struct top_model *m, struct top_ui *ui, int ch)
{
    size_t n = strlen(ui->input);

    if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
        apply_filter(m, ui);
    else if (ch == KEY_ESC)
        ui->prompting = false;
    else if (ch == KEY_BACKSPACE || ch == 127 || ch == CTRL('h'))
        erase_last_char(ui->input);
    else if (ch == CTRL('u'))
        ui->input[0] = '\0';
    else if (ch >= 0x20 && ch <= 0xFF && ch != 127 && n + 1 < sizeof ui->input) {
        ui->input[n] = (char)ch;
        ui->input[n + 1] = '\0';
    }
}

static bool sort_key(struct top_model *m, int ch)
{
    static const struct { int key; enum top_sort sort; } keys[] = {
        { 'c', TOP_SORT_RATE }, { 'n', TOP_SORT_CALLS }, { 't', TOP_SORT_TIME },
        { 'm', TOP_SORT_MEAN }, { '9', TOP_SORT_P99 }, { 'f', TOP_SORT_NAME },
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        if (keys[i].key == ch) {
            m->sort = keys[i].sort;
            return true;
        }
    }
    return false;
}

static bool scroll_key(struct top_ui *ui, int ch)
{
    size_t page = top_screen_rows() > 1 ? top_screen_rows() - 1 : 1;
    switch (ch) {
    case KEY_UP: ui->scroll = ui->scroll > 0 ? ui->scroll - 1 : 0; return true;
    case KEY_DOWN: ui->scroll++; return true;
    case KEY_PPAGE: ui->scroll = ui->scroll > page ? ui->scroll - page : 0; return true;
    case KEY_NPAGE: ui->scroll += page; return true;
    case KEY_HOME: ui->scroll = 0; return true;
    case KEY_END: ui->scroll = SIZE_MAX; return true;   /* clamped when drawn */
    default: return false;
    }
}

/* Returns TOP_QUIT on q, else TOP_RUNNING. */
static enum top_end handle_key(struct top_model *m, struct top_ui *ui, int ch)
{
    if (ch == KEY_RESIZE)
        return TOP_RUNNING;   /* curses has the new size; the redraw follows */
    if (ui->prompting) {
        prompt_key(m, ui, ch);
        return TOP_RUNNING;
    }
    ui->message[0] = '\0';
    if (ui->help) {
        ui->help = false;     /* q quits, any other key leaves the help (as it says) */
        return ch == 'q' ? TOP_QUIT : TOP_RUNNING;
    }
    if (ch == 'q')
        return TOP_QUIT;
    if (ch == '?' || ch == 'h')
        ui->help = true;
    else if (ch == ' ' || ch == 'p')
        ui->paused = !ui->paused;
    else if (ch == 'a')
        m->show_uncalled = !m->show_uncalled;
    else if (ch == 'g') {
        ui->goroutines = !ui->goroutines;
        ui->scroll = 0;
    }
    else if (ch == '/') {
        ui->prompting = true;
        snprintf(ui->input, sizeof ui->input, "%s", m->filter_text);
    } else if (!sort_key(m, ch) && !scroll_key(ui, ch))
        snprintf(ui->message, sizeof ui->message, "unknown key; press ? for help");
    return TOP_RUNNING;
}

static struct timespec to_timespec(double seconds)
{
    struct timespec ts;
    if (seconds < 0)
        seconds = 0;
    ts.tv_sec = (time_t)seconds;
    ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
    if (ts.tv_nsec >= 1000000000L)
        ts.tv_nsec = 999999999L;
    return ts;
}

/* Waits until a key, a signal or the deadline. Returns true if stdin has
 * input (or its end) to read. */
static bool wait_for_input(double deadline, const sigset_t *wait_mask, bool *stdin_open)
{
    struct pollfd pfd = { .fd = *stdin_open ? STDIN_FILENO : -1, .events = POLLIN };
    struct timespec ts = to_timespec(deadline - top_now());

    if (ppoll(&pfd, 1, &ts, wait_mask) <= 0)
        return false;
    if (pfd.revents & (POLLHUP | POLLERR | POLLNVAL))
        *stdin_open = false;   /* no more keys: only refreshes and signals */
    return (pfd.revents & POLLIN) != 0;
}

struct top_loop {
    struct top_model *m;
    struct top_ui ui;
    double delay;
    struct gr_error err;
    size_t final_rows, final_cols;   /* of the last frame drawn */
};

static enum top_end draw(struct top_loop *t)
{
    if (top_model_build_rows(t->m, &t->err) < 0)
        return TOP_FAILED;
    top_screen_draw(t->m, &t->ui);
    t->final_rows = top_screen_rows();
    t->final_cols = top_screen_cols();
    return TOP_RUNNING;
}

static enum top_end run_loop(struct top_loop *t, const sigset_t *wait_mask)
{
    double next_refresh = top_now() + t->delay;
    bool stdin_open = true;

    for (;;) {
        if (draw(t) == TOP_FAILED)
            return TOP_FAILED;
        if (!t->m->all && !t->m->procs[0]->st.live)
            return TOP_EXITED;
        bool readable = wait_for_input(next_refresh, wait_mask, &stdin_open);
        if (stop_signal)
            return TOP_QUIT;
        int keys = 0;
        for (int ch; (ch = top_screen_key()) >= 0; keys++)
            if (handle_key(t->m, &t->ui, ch) == TOP_QUIT)
                return TOP_QUIT;
        if (readable && keys == 0)
            stdin_open = false;   /* readable yet no key: end of input, do not spin */
        if (top_now() < next_refresh)
            continue;
        next_refresh = top_now() + t->delay;
        if (!t->ui.paused && top_model_refresh(t->m, &t->err) < 0)
            return TOP_FAILED;
    }
}

/* Runs the screen with SIGINT, SIGTERM and SIGWINCH deliverable only while
 * waiting; restores the terminal, the signal mask and the actions. */
static enum top_end run_screen(struct top_loop *t)
{
    static const int sigs[] = { SIGINT, SIGTERM };
    struct gst_stop_signals stop;
    stop_signal = 0;
    /* before curses: it keeps our actions */
    gst_stop_signals_catch(&stop, sigs, 2, SIGWINCH, on_stop_signal);
    enum top_end end = top_screen_start(&t->err) < 0 ? TOP_NO_TERMINAL : run_loop(t, &stop.wait_mask);
    top_screen_stop();
    gst_stop_signals_restore(&stop);
    return end;
}

static int open_model(struct top_model *m, const struct top_options *o, struct gr_error *err)
{
    if (!o->target) {
        top_model_open_dir(m, gst_stats_dir());
        return top_model_refresh(m, err);
    }
    return top_model_open_target(m, o->target, err);
}

int gst_cmd_top(int argc, char **argv)
{
    struct top_options o;
    struct top_model m;
    int status = parse(argc, argv, &o);

    int64_t pid;

    if (status >= 0)
        return status;
    if (o.target && gst_parse_pid(o.target, &pid) && pid < 0) {
        char safe[256];
        gst_safe_text(safe, sizeof safe, o.target);
        fprintf(stderr, "gostat: top: '%s' is not a valid pid (use ./%s for a file)\n", safe, safe);
        return GST_EXIT_USAGE;
    }
    if (!isatty(STDOUT_FILENO)) {
        fprintf(stderr, "gostat: top: standard output is not a terminal "
                        "(for a refreshed table in a log or pipe use gostat --watch SECONDS PID|FILE)\n");
        return GST_EXIT_USAGE;
    }
    setlocale(LC_ALL, "");   /* curses and screen_line.c decode names in the user's locale */

    struct top_loop t = { .m = &m, .delay = o.delay };
    if (open_model(&m, &o, &t.err) < 0) {
        fprintf(stderr, "gostat: %s\n", t.err.msg);
        return GST_EXIT_STATS;
    }
    enum top_end end = run_screen(&t);
    if (end == TOP_EXITED)
        top_format_print(stdout, &m, t.ui.paused, t.ui.scroll, t.final_rows, t.final_cols);
    else if (end == TOP_FAILED || end == TOP_NO_TERMINAL)
        fprintf(stderr, "gostat: %s\n", t.err.msg);
    top_model_close(&m);
    if (end == TOP_NO_TERMINAL)
        return GST_EXIT_USAGE;
    return end == TOP_FAILED ? GST_EXIT_STATS : GST_EXIT_OK;
}
