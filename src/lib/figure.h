/* figure.h - one figure of the library: its options, what was loaded, the
 * figure model, and its one plan; the pipeline from inputs to rendered
 * bytes that the command line (main.c) and the public API (api.c) share.
 *
 * tf_lib_make runs load -> rules -> figure model once.  The plan (the
 * layout's decisions at the size asked) is made once, at the first render
 * of a drawing format, and every back-end draws from it: one figure
 * written as SVG, PDF, PNG, TikZ and JSON makes one plan (n_plans counts
 * them, for the tests).  One exception: TeX fits a TikZ picture to the
 * width it gives, so TikZ always draws the fit plan; a seed figure kept at
 * its reference layout (no size option) gets that plan as a second one.
 *
 * Nothing here prints: warnings go where d->held points (or are counted
 * when it is NULL and d->quiet is set); errors are d's.
 */
#ifndef TF_LIB_FIGURE_H
#define TF_LIB_FIGURE_H

#include <stdbool.h>

#include "base/buf.h"
#include "base/diag.h"
#include "lib/options.h"
#include "model/figure.h"
#include "model/trace.h"
#include "render/plan.h"
#include "render/render.h"
#include "rules/mode.h"
#include "tracefig.h"

struct tracefig_figure {
    struct tracefig_options opts; /* a copy of the options it was made with */
    struct tf_trace trace;        /* what was loaded (one trace) */
    struct tf_figure fig;
    struct tf_buf cmdline;  /* the recorded command line, "tracefig ..." */
    const char *name;       /* the one trace's name in messages ("the figure": several) */
    struct tf_plan plan;
    bool planned;           /* plan made */
    /* The fit plan of a back-end that always fits (TikZ), when the size
     * asked keeps the reference layout (the seed's modes without a size
     * option); otherwise plan serves it too. */
    struct tf_plan fit_plan;
    bool fit_planned;
    unsigned n_plans;       /* plans made for this figure: 1 once any drawing format rendered
                             * (2 when fit_plan is made too) */
    struct tf_buf warnings; /* the public API's held warnings */
    /* The marks, every --marks file read (strings in opts.arena). */
    struct tf_mark_spec *marks;
    size_t n_marks, cap_marks;
    /* The one trace's window and origin (for --zoom; zeroed otherwise),
     * and whether the figure is of one trace read from a file. */
    struct tf_span span;
    bool zoomable;
    const char *path;
    /* Inputs in memory are read where they are, under paths that begin
     * with mem (load/input.h, tf_input_memory_add) while they load; only
     * what a library reads from a path alone (an OTF2 archive) is staged
     * as files in a private folder, tmp.  Messages name them without
     * either. */
    char mem[64];
    char tmp[256];
};

/* Makes *F (uninitialised) from options c and n inputs (n == 0: c's
 * traces); record_inputs: the inputs' base names go into the recorded
 * command line (the command line records its own words instead).
 * tf_lib_fini(F) after, also on failure. */
bool tf_lib_make(struct tracefig_figure *F, const struct tracefig_options *c,
                 const struct tracefig_input *in, size_t n, bool record_inputs,
                 struct tf_diag *d);

/* The same, taking c's contents (c is left empty, tf_options_init()ed):
 * the command line's options are made once and need no copy. */
bool tf_lib_make_taking(struct tracefig_figure *F, struct tracefig_options *c,
                        const struct tracefig_input *in, size_t n, bool record_inputs,
                        struct tf_diag *d);

/* Renders with back-end b, or the statistics when b is NULL (as a table,
 * or CSV with st == TF_STATS_CSV), appending to out. */
bool tf_lib_render(struct tracefig_figure *F, const struct tf_backend *b,
                   enum tf_stats_format st, struct tf_buf *out, struct tf_diag *d);

void tf_lib_fini(struct tracefig_figure *F);

#endif
