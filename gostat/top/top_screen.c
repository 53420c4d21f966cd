/* top_screen.c: drawing gostat top with ncurses. */
#include "gostat/top/top_screen.h"

#include "gostat/top/top_format.h"
#include "gostat/top/top_gsites.h"

#include <curses.h>
#include <stdlib.h>

#define FIRST_ROW_LINE (TOP_HEADER_LINES + 2) /* header, blank, column names */

static SCREEN *screen;

static const char *const footer_text =
    "q quit  ? help  / filter  space pause  a uncalled  g goroutines  "
    "sort: c calls/s  n calls  t time%  m mean  9 p99  f function";

static const char *const help_text[] = {
    "gostat top: keys",
    "",
    "  c        sort by calls per second (CALLS/S), the default",
    "  n        sort by calls (CALLS)",
    "  t        sort by share of wall time in the last interval (TIME%)",
    "  m        sort by mean duration (MEAN)",
    "  9        sort by 99th percentile duration (P99)",
    "  f        sort by function name",
    "  /        filter function names by an extended regular expression",
    "           (Enter applies, Esc cancels, an empty one shows all)",
    "  a        show or hide functions that were never called",
    "  g        goroutines by creation site (go statement), most live",
    "           first; g again: back to functions",
    "  space p  pause or resume refreshing",
    "  arrows, PgUp, PgDn, Home, End   scroll",
    "  ? h      this help",
    "  q        quit",
    "",
    "Press q to quit, any other key to return.",
};

int top_screen_start(struct gr_error *err)
{
    const char *term = getenv("TERM");

    screen = newterm(NULL, stdout, stdin);
    if (!screen)
        return gr_fail(err, "top: cannot drive the terminal (TERM=%s)", term ? term : "unset");
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    set_escdelay(25);   /* Esc cancels the prompt without a noticeable wait */
    curs_set(0);
    return 0;
}

size_t top_screen_rows(void)
{
    return LINES > FIRST_ROW_LINE + 1 ? (size_t)(LINES - FIRST_ROW_LINE - 1) : 0;
}

size_t top_screen_cols(void)
{
    return COLS > TOP_MAX_COLS ? TOP_MAX_COLS : (size_t)COLS;
}

/* The last column is left free: writing into the bottom-right cell would
 * scroll some terminals. */
static void draw_line(int y, void (*fill)(struct gst_line *, const void *), const void *arg,
                      attr_t attr, bool full_width)
{
    static char buf[TOP_LINE_BYTES];
    struct gst_line l;
    size_t cols = top_screen_cols();

    if (y >= LINES || cols < 2)
        return;
    gst_line_init(&l, buf, sizeof buf, cols - 1);
    fill(&l, arg);
    if (full_width)
        gst_line_pad_to(&l, cols - 1);
    attron(attr);
    mvaddstr(y, 0, buf);
    attroff(attr);
}

static void fill_text(struct gst_line *l, const void *text)
{
    gst_line_put(l, text);
}

struct header_arg {
    const struct top_model *m;
    size_t index;
    bool paused;
};

static void fill_header(struct gst_line *l, const void *arg)
{
    const struct header_arg *h = arg;
    top_format_header(l, h->m, h->index, h->paused);
}

struct row_arg {
    const struct top_model *m;
    const struct top_widths *w;
    const struct top_row *r;
};

static void fill_column_names(struct gst_line *l, const void *arg)
{
    const struct row_arg *a = arg;
    top_format_column_names(l, a->m, a->w);
}

static void fill_row(struct gst_line *l, const void *arg)
{
    const struct row_arg *a = arg;
    top_format_row(l, a->m, a->r, a->w);
}

static void fill_prompt(struct gst_line *l, const void *input)
{
    gst_line_put(l, "filter (extended regex; Enter applies, Esc cancels): ");
    gst_line_put(l, input);
}

static void draw_bottom_line(const struct top_ui *ui)
{
    int y = LINES - 1;
    if (ui->prompting) {
        draw_line(y, fill_prompt, ui->input, A_NORMAL, false);
        curs_set(1);
        return;
    }
    curs_set(0);
    if (ui->message[0])
        draw_line(y, fill_text, ui->message, A_BOLD, false);
    else
        draw_line(y, fill_text, footer_text, A_NORMAL, false);
}

static void draw_help(void)
{
    for (size_t i = 0; i < sizeof help_text / sizeof help_text[0]; i++)
        draw_line((int)i, fill_text, help_text[i], i == 0 ? A_BOLD : A_NORMAL, false);
}

static void draw_rows(const struct top_model *m, size_t first)
{
    struct top_widths w = top_format_widths(m);
    struct row_arg a = { .m = m, .w = &w };
    size_t shown = top_screen_rows();

    draw_line(FIRST_ROW_LINE - 1, fill_column_names, &a, A_REVERSE, true);
    for (size_t i = 0; i < shown && first + i < m->nrows; i++) {
        a.r = &m->rows[first + i];
        draw_line(FIRST_ROW_LINE + (int)i, fill_row, &a, A_NORMAL, false);
    }
}

struct gsites_arg {
    const struct top_gsites *g;
    size_t i;
};

static void fill_gsite_names(struct gst_line *l, const void *arg)
{
    top_gsites_format_names(l, ((const struct gsites_arg *)arg)->g);
}

static void fill_gsite(struct gst_line *l, const void *arg)
{
    const struct gsites_arg *a = arg;
    top_gsites_format_row(l, a->g, a->i);
}

/* The goroutines view: sites instead of functions; the number of its rows. */
static size_t draw_gsites(const struct top_model *m, size_t first)
{
    struct top_gsites g;
    if (top_gsites_collect(m, &g) < 0)
        return 0;
    struct gsites_arg a = { .g = &g };
    draw_line(FIRST_ROW_LINE - 1, fill_gsite_names, &a, A_REVERSE, true);
    for (size_t i = 0; i < top_screen_rows() && first + i < g.nrows; i++) {
        a.i = first + i;
        draw_line(FIRST_ROW_LINE + (int)i, fill_gsite, &a, A_NORMAL, false);
    }
    size_t n = g.nrows;
    top_gsites_free(&g);
    return n;
}

void top_screen_draw(const struct top_model *m, struct top_ui *ui)
{
    size_t shown = top_screen_rows();
    size_t last_start = m->nrows > shown ? m->nrows - shown : 0;

    if (ui->scroll > last_start)
        ui->scroll = last_start;
    erase();
    if (ui->help) {
        draw_help();
    } else {
        for (size_t i = 0; i < TOP_HEADER_LINES; i++) {
            struct header_arg h = { m, i, ui->paused };
            draw_line((int)i, fill_header, &h, i == 0 ? A_BOLD : A_NORMAL, false);
        }
        if (ui->goroutines) {
            size_t n = draw_gsites(m, ui->scroll);
            if (ui->scroll > 0 && ui->scroll >= n)
                ui->scroll = n ? n - 1 : 0;   /* clamped: next frame */
        } else {
            draw_rows(m, ui->scroll);
        }
    }
    draw_bottom_line(ui);
    refresh();
}

int top_screen_key(void)
{
    int ch = getch();
    return ch == ERR ? -1 : ch;
}

void top_screen_stop(void)
{
    if (!screen)
        return;
    /* Without an alternate screen (vt100) the frame stays; the shell's
     * prompt then starts on a clean bottom line. */
    move(LINES - 1, 0);
    clrtoeol();
    refresh();
    endwin();
    delscreen(screen);
    screen = NULL;
}
