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
#include "render/plan.h"
#include "rules/align.h"
#include "rules/mode.h"

struct tf_run {
    const char *trace_path;     /* "-": standard input */
    const char *breakdown_path; /* NULL: none */
    const struct tf_mode *mode; /* NULL: auto, the mode of the trace's kind */
    const struct tf_opts *opts;
    /* When not NULL: the window the mode drew and the origin of --from
     * and --to (ns on the trace clock), for --zoom; left zeroed when the
     * mode has none. */
    struct tf_span *span;
};

/* Fills *fig (tf_figure_init()ed by the caller).  *trace holds what was
 * loaded (caller-owned, tf_trace_init()ed; fini it after).  A trace with
 * facts a figure of several uses (tf_run_facts) gets its entry in
 * fig->one_trace.  False with a located message in d. */
bool tf_run(const struct tf_run *r, struct tf_trace *trace, struct tf_figure *fig,
            struct tf_diag *d);

/* Several traces in one figure (run_multi.c): each trace (or figure model,
 * load/model.h) is loaded by its own loader, on worker threads, and drawn
 * as a group of lanes of one figure, all on one time axis (--align,
 * rules/align.h).  *fig (tf_figure_init()ed by the caller) gets one entry
 * in fig->traces per trace.  Every file is opened first, so that a missing
 * one stops the run before anything is read.  False with a message in d
 * (the first failure, in the order of the files). */
struct tf_multi_run {
    const char *const *paths;  /* the traces and models, in their order */
    size_t n;
    const char *const *titles; /* --titles, or NULL */
    size_t n_titles;
    enum tf_align align;       /* --align */
    const struct tf_mode *mode; /* NULL: auto */
    const struct tf_opts *opts;
    /* The size asked (NULL: the defaults): a job of more ranks than its
     * height holds is drawn as an overview of rows that fit it. */
    const struct tf_size *size;
};
bool tf_run_multi(const struct tf_multi_run *r, struct tf_figure *fig, struct tf_diag *d);

/* A figure whose mode reduced a job's ranks (an OTF2 archive of more
 * ranks than lanes: fig->ov_set) gets its rows here, as many ranks to a
 * row as fit the height at `size` (run_ranks.c).  False with a message. */
bool tf_ranks_finish_set(struct tf_figure *fig, const struct tf_size *size,
                         enum tf_rank_order order, struct tf_diag *d);

/* --- the steps of tf_run, for run_multi.c ------------------------------- */

/* The modes that may read a trace: the forced one, or every mode (for
 * each trace kind, the loader keeps what each of them asks for; of two
 * modes of one kind, the loader asks the first whether it claims the trace
 * and gives it to the other otherwise).  begin before the load (its keep
 * is the loader's), end after it, release once the figure is built (it
 * frees what the modes kept, trace->generic_state). */
struct tf_modes {
    struct tf_keep keep;
    const struct tf_mode *begun[8];
    void *state[8]; /* for end() */
    void *kept[8];  /* for release() */
    size_t n;
};
bool tf_modes_begin(const struct tf_mode *forced, const struct tf_opts *o, struct tf_trace *t,
                    struct tf_modes *m, struct tf_diag *d);
void tf_modes_end(struct tf_modes *m);
void tf_modes_release(struct tf_modes *m, struct tf_trace *t);

/* The mode that reads a loaded trace (NULL: none). */
const struct tf_mode *tf_mode_of_trace(const struct tf_trace *t);

/* A trace's facts as a figure of several uses them (into ref): its rank
 * and world size (distributedInfo), and its base time when its times
 * count from it (baseTimeNanoseconds, the times, from `origin` on, smaller
 * than it). */
void tf_run_facts(const struct tf_trace_facts *fa, int64_t origin, struct tf_trace_ref *ref);

/* The figure of a loaded trace (r->trace_path names it in messages; the
 * breakdown file is read here). */
bool tf_run_build(const struct tf_run *r, struct tf_trace *trace, struct tf_figure *fig,
                  struct tf_diag *d);

#endif
