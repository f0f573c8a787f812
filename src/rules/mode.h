/* mode.h - the modes: one table entry per way of turning a trace into a
 * figure, as render.h has one entry per output format.
 *
 * A mode names the trace kind it reads, sets up what the loader keeps of
 * such a trace (its keep test: the window rule lives in the mode, once, and
 * the streaming loader asks it per event), and builds the figure model.
 * main.c picks a mode (--mode, or the one that claims the trace's kind)
 * and dispatches through the table; a new mode is a new file in rules/ and
 * a line in tf_modes[], and touches no back-end.
 */
#ifndef TF_MODE_H
#define TF_MODE_H

#include <stdbool.h>

#include "base/diag.h"
#include "model/figure.h"
#include "model/trace.h"

/* --color PATTERN=COLOR: a glob on an event's name or category. */
struct tf_color_rule {
    const char *pattern;
    uint32_t rgb;
};

/* --group NAME=PATTERN,...: a statistics group of the lanes whose label
 * matches one of the globs. */
struct tf_group_opt {
    const char *name;
    const char *const *patterns;
    size_t n_patterns;
};

/* --color-by: what a Chrome figure's colours tell apart. */
enum tf_color_by {
    TF_COLOR_BY_AUTO = 0, /* names when the slices carry one category or none */
    TF_COLOR_BY_CATEGORY,
    TF_COLOR_BY_NAME
};

/* Options of the rules, from the command line. */
struct tf_opts {
    struct tf_opt_int start_candidate; /* --start_candidate, else --focus_candidate */
    struct tf_opt_int num_candidates;  /* --num_candidates */
    bool has_min_runtime_pct;
    double min_runtime_pct;            /* --min_runtime_pct */
    bool has_legend_y;
    double legend_y;                   /* --legend_y */
    /* The generic Chrome mode. */
    bool has_from, has_to;
    int64_t from_ns, to_ns;            /* --from, --to: from the trace's origin */
    const char *window_event;          /* --window-event NAME */
    long long occurrence;              /* --occurrence K (1-based; 0 means 1) */
    double pad_pct;                    /* --pad P: % of the window's span */
    const char *const *lanes;          /* --lanes PATTERN,...: kept, in this order */
    size_t n_lanes;
    const char *const *hide;           /* --hide PATTERN,... */
    size_t n_hide;
    long long max_lanes;               /* --max-lanes N (0: the default) */
    long long depth;                   /* --depth N (0: the default) */
    const struct tf_color_rule *colors; /* --color PATTERN=COLOR, first match wins */
    size_t n_colors;
    bool flows;                        /* --flows: draw flow arrows */
    bool async;                        /* --async: draw async (b/e/n) events */
    bool all_lanes;                    /* --all-lanes: hide no lane by the default rules */
    enum tf_color_by color_by;         /* --color-by */
    int counters;                      /* --counters 1, --no-counters -1; 0: drawn when the
                                          window holds any */
    long long max_counters;            /* --max-counters N (0: the default) */
    bool osrt;                         /* --osrt: an export's OS runtime calls too */
    unsigned kernel_detail;            /* --kernel-detail: TF_KDETAIL_* (model/trace.h) */
    /* The ranks of a job (several traces, an OTF2 archive): --ranks LIST
     * (ranges, in any order; n_ranks 0: all) and --order-ranks. */
    const struct tf_rank_range *ranks;
    size_t n_ranks;
    enum tf_rank_order order_ranks;
    /* The statistics (rules/stats.h). */
    const struct tf_group_opt *groups; /* --group NAME=PATTERN,..., in the order given */
    size_t n_groups;
    bool stats_trace_scope;            /* --stats-scope trace: the GPU breakdown of the
                                          whole trace, not of the window */
    bool critical_path;                /* --critical-path (rules/critpath.h) */
    bool stats_compat_hta;             /* --stats-compat hta: the GPU breakdown as HTA
                                          computes it (rules/hta.h) */
    /* The event globs of the marks (rules/marks.h): a mode that can keeps
     * every event in the window whose name one matches, whole
     * (tf_figure's mark_events), for the marks to name. */
    const char *const *mark_globs;
    size_t n_mark_globs;
    bool no_stats;                     /* TRACEFIG_STATS=off (make bench): compute none */
    bool no_fold;                      /* TRACEFIG_FOLD=off (tests): keep every interval */
};

/* --- several traces in one figure (run_multi.c) --- */

/* Where a trace's time lies once its first pass is read: ns on its own
 * clock. */
struct tf_span {
    int64_t w0, w1;      /* the window it would draw alone */
    int64_t event;       /* the start of its --window-event occurrence; w0 without one */
    int64_t origin, end; /* its main run of time, first event to last */
};

/* What it draws instead: [w0, w1] (its part of the figure's window), with
 * x measured from x0 on an axis `axis` long (ns on its clock), and
 * `share` of a figure's bar budget. */
struct tf_rewindow {
    int64_t w0, w1, x0, axis;
    double share;
};

/* What a mode builds from. */
struct tf_mode_input {
    const struct tf_trace *trace;
    const struct tf_breakdown_in *breakdown; /* NULL: no breakdown file */
    const char *file;                        /* the trace, for messages */
    const char *breakdown_file;              /* the breakdown, for messages */
};

struct tf_mode {
    const char *name;        /* --mode NAME; "mode" in the JSON model */
    const char *summary;     /* one line for --help */
    enum tf_trace_kind kind; /* the kind of trace it reads */
    /* Fills in k's member for `kind` (state in k->state); false when out
     * of memory.  NULL: the loader keeps everything of that kind. */
    bool (*begin)(const struct tf_opts *o, struct tf_trace *t, struct tf_keep *k,
                  struct tf_diag *d);
    void (*end)(struct tf_keep *k); /* frees k->state; may be NULL */
    /* Frees the state begin() made when it outlives the load (the trace
     * points at it until build); may be NULL. */
    void (*release)(void *state);
    /* Several traces (run_multi.c), for a mode whose loader reads in two
     * passes: after the first, where the trace's time lies (`state` is
     * trace->generic_state); then the window to draw instead.  NULL: the
     * trace is read in one pass and drawn as it is, its figure's window
     * saying where it lies. */
    bool (*span)(void *state, struct tf_span *s, struct tf_diag *d);
    void (*rewindow)(void *state, const struct tf_rewindow *w);
    /* The figure; false with a message for a trace it cannot draw. */
    bool (*build)(const struct tf_mode_input *in, const struct tf_opts *o, struct tf_figure *f,
                  struct tf_diag *d);
};

/* All modes, in --help order; NULL-terminated.  For each trace kind, the
 * first mode of that kind is the one `--mode auto` uses. */
extern const struct tf_mode *const tf_modes[];

const struct tf_mode *tf_mode_by_name(const char *name);
/* The mode --mode auto uses for a kind (NULL: none). */
const struct tf_mode *tf_mode_for_kind(enum tf_trace_kind kind);

/* The entries (rules/timeline.c, rules/pytorch.c, rules/chrome/mode.c). */
extern const struct tf_mode tf_mode_timeline;
extern const struct tf_mode tf_mode_pytorch;
extern const struct tf_mode tf_mode_chrome;

#endif
