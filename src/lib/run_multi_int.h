/* run_multi_int.h - the state of a figure of several traces, shared by
 * run_multi.c (the steps: read, align, draw, compose), run_ranks.c (the
 * ranks of a job: --ranks, --order-ranks, and the overview when they are
 * more than the figure's height holds) and run_lanes.c (the lanes of each
 * rank that say most, between the two).  Not an interface: lib/run.h is.
 */
#ifndef TF_LIB_RUN_MULTI_INT_H
#define TF_LIB_RUN_MULTI_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "lib/run.h"
#include "load/load.h"
#include "model/overview.h"

/* What a unit keeps once its figure is reduced to the strip of its row's
 * lane (run_ranks.c): the rest is what the overview's figure needs of it.
 * Strings are its own (malloc'd). */
struct reduced {
    struct tf_ov_strip strip;
    struct tf_category *cats;
    size_t n_cats;
    struct tf_legend_entry *legend; /* cat: an index into cats */
    size_t n_legend;
    char **notes;
    size_t n_notes;
    char *file, *title, *mode; /* its entry's strings */
    char *lane;                /* its lane's label, or NULL (no lane of slices) */
    bool flame;
    double width_pt;
};

/* A rank's lanes by role (run_lanes.c), each role's busiest first: its
 * main thread (at most one), its other threads, its GPU compute streams,
 * its GPU communication streams; the order is the figure's. */
enum { TF_ROLE_MAIN, TF_ROLE_THREAD, TF_ROLE_COMPUTE, TF_ROLE_COMM, TF_ROLES };
struct roles {
    size_t *lane[TF_ROLES];
    size_t n[TF_ROLES];
    size_t n_lanes; /* its figure's */
};

struct unit {
    struct tf_figure fig;
    bool built;
    struct tf_trace_ref ref;   /* who it is (title decided later) */
    struct tf_align_in al;     /* where its time lies */
    int64_t xo;                /* its figure's x = 0, ns on its clock */
    bool from_model;
    double per;                /* ns per axis unit of its figure */
    /* a trace with a second pass left */
    struct tf_load_job *job;
    const struct tf_mode *mode;
    struct tf_rewindow rw;
    bool dropped;              /* not of the ranks --ranks asks for */
    bool reduced;              /* fig is gone: `red` holds what is left */
    struct reduced red;
    struct roles roles;        /* its lanes' roles (run_lanes.c) */
};

struct input {
    const char *path;
    bool is_model;
    struct tf_trace trace;
    struct tf_modes modes;
    bool modes_on;             /* modes begun, not yet released */
    struct unit *units;
    size_t n_units;
    struct tf_diag d;
    struct tf_buf held;        /* its warnings */
};

struct multi {
    const struct tf_multi_run *r;
    struct input *in;
    size_t n_in;
    struct unit **u;           /* every unit, in order */
    size_t n_u;
    /* Figures built and kept: their lanes together, and the most of one;
     * once all but one fill `lanes_max` (the most any figure of this size
     * holds) the ranks are reduced as they come (run_ranks.c).  The
     * workers share these under mu. */
    pthread_mutex_t mu;
    size_t kept_lanes, most_lanes, lanes_max;
    bool reducing;
    struct tf_arena arena; /* the units' titles (the figure copies them) */
    /* The most lanes of each role a rank has, and of any kind
     * (run_lanes.c). */
    size_t most[TF_ROLES];
    size_t most_lanes_of_rank;
};

/* --- run_ranks.c ---------------------------------------------------------- */

/* Whether unit u is of the ranks --ranks asks for (true without it). */
bool tf_ranks_selected(const struct multi *m, const struct unit *u);
/* After u's figure is built (on a worker): reduce it now when the figure
 * already holds more lanes than any height does; false when out of
 * memory (d says so). */
bool tf_ranks_built(struct multi *m, struct unit *u, struct tf_diag *d);
/* Reduces u's figure to its strip and what the overview needs; false when
 * out of memory. */
bool tf_ranks_reduce(struct multi *m, struct unit *u);
void tf_ranks_reduced_fini(struct reduced *r);
/* --ranks chose none: the message names the ranks there are. */
bool tf_ranks_none(const struct multi *m, struct tf_diag *d);
/* The figure holds more lanes than any height and not every trace is a
 * rank: the message says so. */
bool tf_ranks_mixed(const struct multi *m, struct tf_diag *d);
/* Whether every unit is a rank (each has one). */
bool tf_ranks_all(const struct multi *m);
/* --order-ranks for a figure that draws every lane: the units sorted by
 * their row's lane's finish or busy share (plan: the figure's window). */
bool tf_ranks_order_units(struct multi *m, const struct tf_align_plan *plan, struct tf_diag *d);
/* The overview: every unit reduced, composed into f as rows of ranks that
 * fit its height (plan: the figure's window). */
bool tf_ranks_compose(struct multi *m, const struct tf_align_plan *plan, struct tf_figure *f,
                      struct tf_diag *d);
/* The lanes the plan of f at the size asked leaves out, and whether they
 * hold a whole rank (*rank_out). */
size_t tf_ranks_cut(const struct multi *m, const struct tf_figure *f, bool *rank_out);
/* The notes of the units' figures into f, each once after the ranks that
 * give it; false when out of memory. */
bool tf_ranks_notes(const struct multi *m, struct tf_figure *f);

/* --- run_lanes.c: the lanes of each rank that say most ---------------------- */

/* Every unit's lanes' roles, and m->most; false when out of memory. */
bool tf_lanes_roles(struct multi *m);
void tf_lanes_fini(struct roles *r);
/* The slots there are (the roles' places that some rank has). */
size_t tf_lanes_slots(const struct multi *m);
/* u's lanes of the first k slots, in the figure's order, into out (room
 * for its figure's lanes); their count. */
size_t tf_lanes_pick(const struct multi *m, const struct unit *u, size_t k, size_t *out);
/* The note that says which lanes each rank keeps with k slots. */
bool tf_lanes_note(const struct multi *m, size_t k, struct tf_figure *f);

#endif
