/* run.h - the pipeline up to the figure model, as one call: load a trace
 * keeping what the mode's filter asks for, then build the figure.  main.c
 * adds the command line and the back-ends; the tests and fuzz targets call
 * this directly.
 */
#ifndef TF_RUN_H
#define TF_RUN_H

#include <stdbool.h>

#include "base/diag.h"
#include "model/figure.h"
#include "model/trace.h"
#include "rules/mode.h"

struct tf_run {
    const char *trace_path;     /* "-": standard input */
    const char *breakdown_path; /* NULL: none */
    const struct tf_mode *mode; /* NULL: auto, the mode of the trace's kind */
    const struct tf_opts *opts;
};

/* Fills *fig (tf_figure_init()ed by the caller).  *trace holds what was
 * loaded (caller-owned, tf_trace_init()ed; fini it after).  False with a
 * located message in d. */
bool tf_run(const struct tf_run *r, struct tf_trace *trace, struct tf_figure *fig,
            struct tf_diag *d);

#endif
