/* probe_cost.h: the start-up measurement of a probe's cost (probe_cost.c)
 * and the calibration row's layout its functions (probe_cost.S) share. */
#ifndef GS_PROBE_COST_H
#define GS_PROBE_COST_H

#include "format/stub_abi.h"

#define CAL_COUNTER 2048         /* in the calibration's row: the timed function's counter, then the untimed one's */
#define CAL_REC GS_PAGE     /* and the timed one's record, in the row's page 1 */

#ifndef __ASSEMBLER__
/* Fills priv->probe* and the header's copy of them. */
void gs_measure_probe_cost(struct gs_private *priv, struct gs_header *hdr);
#endif

#endif
