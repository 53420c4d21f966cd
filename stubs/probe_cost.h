/* probe_cost.h: the start-up measurement of a probe's cost (probe_cost.c). */
#ifndef GS_PROBE_COST_H
#define GS_PROBE_COST_H

#include "format/stub_abi.h"

/* Fills priv->probe* and the header's copy of them. */
void gs_measure_probe_cost(struct gs_private *priv, struct gs_header *hdr);

#endif
