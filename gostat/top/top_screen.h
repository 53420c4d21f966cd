/* exported by gostat/top */
/* top_screen.h: gostat top's curses screen: draws a top_model (through
 * top_format.h's lines) with the header, the column names in reverse
 * video, the rows from the scroll position, and a bottom line for the
 * keys' help, the filter prompt or a message; and the help screen. Only
 * A_BOLD and A_REVERSE are used, so any terminal (vt100 too) works. */
#ifndef GOSTAT_TOP_SCREEN_H
#define GOSTAT_TOP_SCREEN_H

#include "common/error.h"
#include "gostat/top/top_model.h"

#include <stdbool.h>
#include <stddef.h>

/* What the keys have set, beyond the model. */
struct top_ui {
    bool paused;
    bool help;                 /* the help screen instead of the rows */
    bool goroutines;           /* goroutine sites instead of functions (key g) */
    size_t scroll;             /* first row shown */
    bool prompting;            /* typing a filter on the bottom line */
    char input[256];           /* the filter typed so far */
    char message[320];         /* bottom line until the next key, if set */
};

/* Takes over the terminal on stdin/stdout. Returns -1 with err if curses
 * cannot drive it (e.g. an unknown TERM). */
int top_screen_start(struct gr_error *err);

/* Rows of functions the screen has room for. */
size_t top_screen_rows(void);

size_t top_screen_cols(void);

/* Redraws everything; first clamps ui->scroll to the rows there are. */
void top_screen_draw(const struct top_model *m, struct top_ui *ui);

/* The next key already typed (curses' KEY_* codes), or -1 if none. */
int top_screen_key(void);

/* Gives the terminal back as it was. Safe to call twice. */
void top_screen_stop(void);

#endif
