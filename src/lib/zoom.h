/* zoom.h - --zoom (tracefig(1), ZOOM): each zoom's A..B or REF resolved
 * against the figure's events (rules/marks.h, tf_marks_range), checked
 * against its window, padded by --zoom-pad, and the figure of that range
 * alone made by the rules once more, as --from and --to would draw it
 * (same options, no padding), in the main figure's colours, with the
 * marks that lie in it.  The figures go into f->zooms (model/figure.h).
 */
#ifndef TF_LIB_ZOOM_H
#define TF_LIB_ZOOM_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "lib/run.h"
#include "model/figure.h"
#include "model/marks.h"
#include "render/plan.h"
#include "rules/mode.h"

struct tf_zoom_in {
    const struct tf_figure *fig;      /* (set by tf_zoom_make) */
    const char *path;                 /* the one trace, read again */
    const char *breakdown_path;       /* NULL: none */
    const struct tf_mode *mode;       /* NULL: auto */
    const struct tf_opts *rules;      /* the main figure's */
    const struct tf_span *span;       /* its window and origin (tf_run) */
    const struct tf_size *size;       /* the size asked (a job's rows) */
    const struct tf_mark_spec *zooms; /* --zoom, in order */
    size_t n_zooms;
    double pad_pct;                   /* --zoom-pad */
    const struct tf_mark_spec *marks; /* every mark of the figure */
    size_t n_marks;
};

/* Fills f->zooms.  Errors (one line, in d): a range outside the window,
 * empty or reversed (TF_EBADINPUT), a mode without a window (usage). */
bool tf_zoom_make(const struct tf_zoom_in *in, struct tf_figure *f, struct tf_diag *d);

#endif
