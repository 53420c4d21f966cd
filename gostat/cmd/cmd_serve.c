/* cmd_serve.c: "gostat serve": the counters of every live instrumented
 * process in $GOSTAT_DIR as Prometheus / OpenMetrics metrics over HTTP
 * (http_server.c), or once to stdout. Every scrape re-reads the directory
 * (scrape.c) and writes the exposition (openmetrics.c) into memory. */
#include "gostat/cmd/cmdline.h"
#include "gostat/cmd/commands.h"
#include "gostat/cmd/exitcode.h"
#include "gostat/serve/http_access.h"
#include "gostat/serve/http_server.h"
#include "gostat/serve/listenaddr.h"
#include "gostat/render/expo_top.h"
#include "gostat/render/openmetrics.h"
#include "gostat/read/scrape.h"
#include "gostat/read/statsdir.h"
#include "common/regex_compile.h"

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_LISTEN "127.0.0.1:9464"
#define DEFAULT_TOP 100
#define TOP_UNSET ((size_t)-1)
#define MAX_HOSTS_TEXT "16"
_Static_assert(GST_MAX_ALLOWED_HOSTS == 16, "--allow-host's help and message say 16");

struct serve_opts {
    const char *listen;
    const char *token_file;
    struct gst_http_access access;
    bool once;
    enum gst_expo_format format;   /* of --once */
    const char *filter, *buckets;
    size_t top;                /* TOP_UNSET: not given */
    int top_by;
    bool no_histograms, pid_label, all;
    struct gst_expo_opts expo;
    regex_t filter_re;
};

enum { BY_TIME, BY_CALLS };
static const struct gr_opt_choice top_bys[] = { { "time", BY_TIME }, { "calls", BY_CALLS }, { NULL, 0 } };

static const struct gr_opt serve_opts[] = {
    { "listen", 'l', "HOST:PORT", GR_OPT_STRING, GR_OPT_AT(struct serve_opts, listen),
      .help = GR_OPT_HELP("address to listen on (default " DEFAULT_LISTEN "):",
                          "IPV4:PORT, [IPV6]:PORT, NAME:PORT, or :PORT for",
                          "every IPv4 interface; port 0 picks a free one;",
                          "or unix:PATH, a socket only your user can",
                          "connect to (mode 0600; Prometheus reaches it",
                          "through a local proxy). Any other address than",
                          "loopback gets a warning: other machines can read",
                          "the metrics"),
      .man =
          "Address (default 127.0.0.1:9464):\n"
          ".IB IPV4 : PORT\\fR,\n"
          ".BI [ IPV6 ]: PORT\\fR,\n"
          ".IB NAME : PORT\\fR,\n"
          "or\n"
          ".BI : PORT\n"
          "for every IPv4 interface; port 0 picks a free port. On start,\n"
          ".B serving http://HOST:PORT/metrics\n"
          "is printed. Or\n"
          ".BI unix: PATH\\fR,\n"
          "a unix socket of mode 0600 that only your user can connect to (a stale\n"
          "socket of yours at PATH is replaced; anything else there is an error;\n"
          ".B serving unix:PATH /metrics\n"
          "is printed); Prometheus reaches it through a local proxy. An address that\n"
          "is not loopback gets a warning on stderr: other machines can connect.\n" },
    { "token-file", 0, "FILE", GR_OPT_STRING, GR_OPT_AT(struct serve_opts, token_file),
      .help = GR_OPT_HELP("require \"Authorization: Bearer TOKEN\" (TOKEN:",
                          "the first line of FILE, at least 16 characters;",
                          "FILE yours, mode 0600). Prometheus:",
                          "authorization: {credentials_file: FILE}"),
      .man =
          "Answer only requests carrying\n"
          ".BI \"Authorization: Bearer \" TOKEN\\fR,\n"
          "where TOKEN is the first line of FILE (at least 16 characters); others\n"
          "get 401. FILE must be a regular file owned by you with no group or other\n"
          "permissions (else exit 1). In Prometheus:\n"
          ".BR \"authorization: {credentials_file: FILE}\" .\n" },
    { "allow-host", 0, "NAME", GR_OPT_REPEAT, GR_OPT_AT(struct serve_opts, access.hosts),
      .count = offsetof(struct serve_opts, access.nhosts), .max = GST_MAX_ALLOWED_HOSTS,
      .bad = "--allow-host given more than " MAX_HOSTS_TEXT " times",
      .help = GR_OPT_HELP("accept requests whose Host header names NAME (as",
                          "well as IP addresses and localhost; others get",
                          "403, against DNS rebinding); up to 16 times"),
      .man =
          "Also accept requests whose Host header names NAME (up to 16 times).\n"
          "IP addresses, localhost and the host name of\n"
          ".B \\-\\-listen\n"
          "are always accepted; any other Host gets 403, so a web page cannot read\n"
          "the metrics through DNS rebinding.\n" },
    { "once", 0, NULL, GR_OPT_FLAG, GR_OPT_AT(struct serve_opts, once),
      .help = GR_OPT_HELP("write the metrics to stdout once and exit (e.g.",
                          "for node_exporter's textfile collector)"),
      .man =
          "Write the metrics to standard output once and exit (e.g. for\n"
          "node_exporter's textfile collector).\n" },
    { "openmetrics", 0, NULL, GR_OPT_SET, GR_OPT_AT(struct serve_opts, format),
      .set = GST_EXPO_OPENMETRICS,
      .help = GR_OPT_HELP("with --once: OpenMetrics instead of Prometheus text"),
      .man =
          "With\n"
          ".BR \\-\\-once :\n"
          "OpenMetrics instead of the Prometheus text format.\n" },
    { NULL, 0, NULL, GR_OPT_TEXT, .help = GR_OPT_HELP("", "What is exported (docs/metrics.md \"Cardinality\"):") },
    { "filter", 0, "REGEX", GR_OPT_STRING, GR_OPT_AT(struct serve_opts, filter),
      .help = GR_OPT_HELP("only functions whose name matches (POSIX extended",
                          "regex); goroutine and process series stay"),
      .man =
          "Export only the functions whose name matches REGEX (POSIX extended);\n"
          "the process and goroutine series stay.\n" },
    { "top", 0, "N", GR_OPT_UINT, GR_OPT_AT(struct serve_opts, top),
      .min = 0, .max = 1000000000, .bad = "--top wants a whole number >= 0, got '%s'",
      .help = GR_OPT_HELP("per process the N functions with most time (or",
                          "calls, --top-by) so far (default 100; 0: all); a",
                          "function stays in until one left out has 25 %",
                          "more, so series stay across scrapes"),
      .man =
          "Per process, export only the N functions (default 100; 0: every called\n"
          "function) with the most time so far (or calls: \\-\\-top\\-by). The set\n"
          "is stable across scrapes: a function in it stays until one left out\n"
          "has more than 25 % more than it; a restarted program keeps its set.\n" },
    { "top-by", 0, "time|calls", GR_OPT_CHOICE, GR_OPT_AT(struct serve_opts, top_by),
      .choices = top_bys, .bad = "--top-by takes 'time' or 'calls', not '%s'",
      .help = GR_OPT_HELP("what --top ranks (default time; programs not built",
                          "for timing: calls)"),
      .man =
          "What\n"
          ".B \\-\\-top\n"
          "ranks: total time (the default; calls for programs not built for\n"
          "timing) or calls.\n" },
    { "no-histograms", 0, NULL, GR_OPT_FLAG, GR_OPT_AT(struct serve_opts, no_histograms),
      .help = GR_OPT_HELP("no duration or lifetime histograms (counters of",
                          "calls and seconds stay)"),
      .man =
          "Leave out the histogram families (function durations, goroutine\n"
          "lifetimes); the counters of calls and seconds stay.\n" },
    { "buckets", 0, "LE,...", GR_OPT_STRING, GR_OPT_AT(struct serve_opts, buckets),
      .help = GR_OPT_HELP("the histograms' le bounds, from the fixed ones",
                          "(docs/metrics.md; default 1e-07,1e-06,...,10;",
                          "+Inf always)"),
      .man =
          "The histograms' le bounds, a comma-separated list taken from the fixed\n"
          "bounds (1e-07, 2e-07, 5e-07, ... 100 seconds; docs/metrics.md). Default:\n"
          "the decades 1e-07 to 10. +Inf is always written.\n" },
    { "pid-label", 0, NULL, GR_OPT_FLAG, GR_OPT_AT(struct serve_opts, pid_label),
      .help = GR_OPT_HELP("label pid instead of replica (new series at every",
                          "restart)"),
      .man =
          "Label the series with pid instead of replica. Each restart then makes\n"
          "new series; replica (0 for the oldest live process of an exe, 1 for the\n"
          "next...) gives a restarted program its old series back.\n" },
    { "all", 0, NULL, GR_OPT_FLAG, GR_OPT_AT(struct serve_opts, all),
      .help = GR_OPT_HELP("every called function with every bucket (large:",
                          "MBs per scrape for a big program)"),
      .man =
          "Export every called function with every bucket, whatever\n"
          ".B \\-\\-top\n"
          "says. A large program gives many megabytes per scrape.\n" },
    GST_HELP_OPTION,
};

const struct gr_opt_table gst_serve_options = {
    .program = "gostat serve",
    .intro =
        "usage: gostat serve [--listen HOST:PORT|unix:PATH] [--token-file FILE]\n"
        "                    [--allow-host NAME]... [SELECTION]\n"
        "       gostat serve --once [--openmetrics] [SELECTION]\n"
        "SELECTION: [--filter REGEX] [--top N] [--top-by time|calls]\n"
        "           [--no-histograms] [--buckets LE,...] [--pid-label] [--all]\n"
        "\n"
        "Serves the call counts, durations and goroutine counts of every running\n"
        "instrumented program with a stats file in $GOSTAT_DIR (default " GST_DEFAULT_DIR ") as\n"
        "metrics for Prometheus: GET http://HOST:PORT/metrics. Each request reads\n"
        "the directory again: new processes appear, exited ones are gone. Files\n"
        "that are unreadable or invalid are skipped and counted in\n"
        "gostat_scrape_invalid_files. The reply is OpenMetrics 1.0.0 when the\n"
        "Accept header asks for application/openmetrics-text (as Prometheus does),\n"
        "else the Prometheus text format 0.0.4; gzip-compressed when the client\n"
        "accepts that. By default each process exports its 100 functions with\n"
        "most time, histograms with decade bounds, and labels exe and replica\n"
        "(stable across restarts). docs/metrics.md lists the metrics.\n"
        "Runs until SIGINT or SIGTERM.\n"
        "\n",
    .outro =
        "\n"
        "On start it prints \"serving http://HOST:PORT/metrics\" (or \"serving\n"
        "unix:PATH /metrics\") to stdout. Without --token-file, every local user\n"
        "can read the metrics of your processes: names, pids, counts.\n"
        "\n"
        "exit status: 0 stopped by SIGINT/SIGTERM (or --once done), 1 usage error,\n"
        "2 cannot listen (port in use, bad address) or read $GOSTAT_DIR\n",
    GR_OPT_TABLE_OPTS(serve_opts),
    .min_operands = 0, .max_operands = 0,
    .too_many = "unexpected argument '%s'",
    .column = 26,
    .long_indent = 6,
};

/* The options of what is exported into o->expo; -1, or a usage error. */
static int selection(struct serve_opts *o)
{
    struct gr_error err;
    if (o->all && (o->top != TOP_UNSET || o->buckets)) {
        fprintf(stderr, "gostat: serve: --all exports every function and bucket; "
                "it goes with neither --top nor --buckets\n");
        return GST_EXIT_USAGE;
    }
    o->expo.top = o->all ? 0 : o->top == TOP_UNSET ? DEFAULT_TOP : o->top;
    o->expo.top_by_calls = o->top_by == BY_CALLS;
    o->expo.no_histograms = o->no_histograms;
    o->expo.pid_label = o->pid_label;
    o->expo.buckets = o->all ? gst_expo_all_buckets() : gst_expo_default_buckets();
    if (o->buckets && gst_expo_parse_buckets(o->buckets, &o->expo.buckets) < 0) {
        fprintf(stderr, "gostat: serve: --buckets takes le bounds from the fixed ones "
                "(1e-07, 2e-07, 5e-07, ... 100; docs/metrics.md), not '%s'\n", o->buckets);
        return GST_EXIT_USAGE;
    }
    if (o->filter) {
        if (gr_regex_compile(&o->filter_re, o->filter, "--filter", &err) < 0) {
            fprintf(stderr, "gostat: serve: %s\n", err.msg);
            return GST_EXIT_USAGE;
        }
        o->expo.filter = &o->filter_re;
    }
    return -1;
}

static int parse(int argc, char **argv, struct serve_opts *o)
{
    int next;
    int status = gst_parse_command(&gst_serve_options, argc, argv, o, &next);
    if (status >= 0)
        return status;
    if (o->format == GST_EXPO_OPENMETRICS && !o->once) {
        fprintf(stderr, "gostat: serve: --openmetrics goes with --once; the server negotiates the format\n");
        return GST_EXIT_USAGE;
    }
    return selection(o);
}

/* One scrape into a malloc'd buffer. */
static int expose(const struct serve_opts *o, enum gst_expo_format fmt, char **text, size_t *len,
                  struct gr_error *err)
{
    struct gst_scrape s;
    if (gst_scrape_collect(&s, gst_stats_dir(), err) < 0)
        return -1;
    FILE *out = open_memstream(text, len);
    int rc = out ? gst_expo_write(out, fmt, &s, &o->expo) : -1;
    if (o->expo.memory)
        gst_top_forget_unused(o->expo.memory);
    if (out && fclose(out) != 0)
        rc = -1;
    gst_scrape_free(&s);
    if (rc < 0) {
        if (out)
            free(*text);
        return gr_fail(err, "out of memory writing the metrics");
    }
    return 0;
}

static int reply_metrics(void *ctx, const char *accept, struct gst_http_reply *reply)
{
    const struct serve_opts *o = ctx;
    enum gst_expo_format fmt = gst_expo_negotiate(accept);
    struct gr_error err;

    if (expose(o, fmt, &reply->body, &reply->len, &err) == 0) {
        reply->status = 200;
        reply->content_type = gst_expo_content_type(fmt);
        return 0;
    }
    /* The scrape fails (Prometheus shows up == 0) and says why. */
    fprintf(stderr, "gostat: serve: %s\n", err.msg);
    reply->status = 500;
    reply->content_type = "text/plain; charset=utf-8";
    if (asprintf(&reply->body, "gostat serve: %s\n", err.msg) < 0)
        return -1;
    reply->len = strlen(reply->body);
    return 0;
}

static int run_once(const struct serve_opts *o)
{
    struct gr_error err;
    char *text;
    size_t len;
    if (expose(o, o->format, &text, &len, &err) < 0) {
        fprintf(stderr, "gostat: serve: %s\n", err.msg);
        return GST_EXIT_STATS;
    }
    size_t written = fwrite(text, 1, len, stdout);
    free(text);
    return written == len && fflush(stdout) == 0 ? GST_EXIT_OK : GST_EXIT_STATS;
}

/* Serves until SIGINT or SIGTERM. The signals are blocked before the
 * server's thread starts (it inherits the mask) and taken with sigwait. */
/* Other machines can connect: say so, once, on stderr. */
static void warn_if_exposed(const struct serve_opts *o, int fd, const char *name)
{
    if (gst_listen_is_local(fd))
        return;
    fprintf(stderr, "gostat: serve: warning: listening on %s, which other machines can reach; "
            "%s\n", name, o->access.token ? "they need the token"
            : "anyone who can connect reads the metrics (see --token-file)");
}

/* The --listen host name is accepted in Host headers too. */
static void allow_listen_name(struct serve_opts *o, char *buf, size_t cap)
{
    const char *spec = o->listen;
    size_t len = strcspn(spec, ":");
    if (spec[0] == '[' || strncmp(spec, "unix:", 5) == 0 || len == 0 || len >= cap ||
        o->access.nhosts == GST_MAX_ALLOWED_HOSTS)
        return;
    memcpy(buf, spec, len);
    buf[len] = '\0';
    o->access.hosts[o->access.nhosts++] = buf;
}

static int run_server(struct serve_opts *o)
{
    struct gr_error err;
    char listen_host[256];
    if (o->token_file && gst_http_read_token(&o->access, o->token_file, &err) < 0) {
        fprintf(stderr, "gostat: serve: %s\n", err.msg);
        return GST_EXIT_USAGE;
    }
    allow_listen_name(o, listen_host, sizeof listen_host);
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);

    int fd = gst_listen(o->listen, &err);
    if (fd < 0) {
        fprintf(stderr, "gostat: serve: %s\n", err.msg);
        return GST_EXIT_STATS;
    }
    char name[160];
    gst_listen_name(fd, name, sizeof name);
    bool is_unix = strncmp(name, "unix:", 5) == 0;
    warn_if_exposed(o, fd, name);
    struct gst_top_memory memory = { 0 };
    o->expo.memory = &memory;
    struct gst_http_server *srv = gst_http_start(fd, !is_unix, &o->access, reply_metrics, o, &err);
    if (!srv) {
        fprintf(stderr, "gostat: serve: %s\n", err.msg);
        return GST_EXIT_STATS;
    }
    if (is_unix)
        printf("serving %s /metrics\n", name);
    else
        printf("serving http://%s/metrics\n", name);
    fflush(stdout);

    int sig;
    while (sigwait(&stop, &sig) != 0)
        ;
    gst_http_stop(srv);
    gst_top_memory_free(&memory);
    if (is_unix)
        unlink(name + 5);
    gst_http_access_free(&o->access);
    return GST_EXIT_OK;
}

int gst_cmd_serve(int argc, char **argv)
{
    struct serve_opts o = { .listen = DEFAULT_LISTEN, .format = GST_EXPO_PROMETHEUS, .top = TOP_UNSET };
    int status = parse(argc, argv, &o);
    if (status >= 0)
        return status;
    status = o.once ? run_once(&o) : run_server(&o);
    if (o.expo.filter)
        regfree(&o.filter_re);
    return status;
}
