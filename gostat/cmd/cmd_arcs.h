/* cmd_arcs.h: "gostat PID|FILE --callers FUNC" and "--callees FUNC", run by
 * the table command when it is given either option. */
#ifndef GOSTAT_CMD_ARCS_H
#define GOSTAT_CMD_ARCS_H

#include "gostat/cmd/options.h"

/* Prints the arcs o asks for; returns a gst_exit status. */
int gst_show_arcs(const struct gst_options *o);

#endif
