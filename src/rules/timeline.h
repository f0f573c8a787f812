/* timeline.h - the pipelined mode (the reference's plot_manual_timeline):
 * its entry is tf_mode_timeline in mode.h. */
#ifndef TF_RULES_TIMELINE_H
#define TF_RULES_TIMELINE_H

#include "rules/mode.h"

/* The largest --num-candidates (or num_candidates in a trace) the rules
 * accept. */
#define TF_MAX_NUM_CANDIDATES 1000

#endif
