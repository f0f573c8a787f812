/* model.h - figure models written by `--format json` (render/json.c),
 * read back as what they draw, so that per-trace models made elsewhere (a
 * cluster's job array) combine into one figure without their traces.
 *
 * Schemas tracefig-figure-1 (the pipelined and legacy PyTorch modes) and
 * tracefig-figure-2 (the Chrome mode): lanes, categories, bars, arrows,
 * legend, notes, axis, window and statistics as written.  What a model
 * does not hold (tooltips, in-bar names, a bar's own colour) the rules
 * make again from what it holds (rules/chrome.h, tf_chrome_model_texts);
 * so a figure drawn from a model may differ from one drawn from its trace
 * in tooltips and in colours given by --color or cname.  A model of
 * several traces ("traces") gives each trace apart, with its entry.
 *
 * A file is a model when its first member is "schema" with a value
 * starting "tracefig-"; a model of another schema is an error that says so.
 */
#ifndef TF_LOAD_MODEL_H
#define TF_LOAD_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "model/figure.h"

/* Whether `path` holds a figure model (looking at its first bytes);
 * false with a message when it cannot be opened. */
bool tf_load_is_model(const char *path, bool *is_model, struct tf_diag *d);

/* One trace of a model. */
struct tf_model_trace {
    struct tf_figure fig;     /* what it draws, on the model's axis */
    bool has_ref;             /* the model is of several traces: */
    struct tf_trace_ref ref;  /* this trace's entry (strings in fig's arena) */
    int64_t xo_ns;            /* the model's x = 0 on this trace's clock */
    double per_ns;            /* ns per axis unit */
};

/* Reads the model at `path`: *out gets *n traces (caller frees with
 * tf_model_traces_free).  False with a located message. */
bool tf_load_model(const char *path, struct tf_model_trace **out, size_t *n, struct tf_diag *d);
void tf_model_traces_free(struct tf_model_trace *t, size_t n);

/* A model as one figure, to draw it again: *fig as the model holds it, or
 * *several true (and *fig untouched) when it holds several traces. */
bool tf_load_model_figure(const char *path, struct tf_figure *fig, bool *several,
                          struct tf_diag *d);

#endif
