/* chrome_int.h - the generic Chrome mode's own header: the state its files
 * share and the functions they call in each other.  Private to
 * src/rules/chrome/; everyone else sees rules/chrome.h and tf_mode_chrome.
 *
 * The mode turns any Trace Event Format trace into a figure of the window
 * the author picks.  Pure rules: the loader (load/tef.c) hands over
 * records in two passes (see load/tef.h); nothing here reads a file or
 * draws.  The files, in the order the data flows:
 *
 *   events.c   the loader's sink: pass 1 (index) and pass 2 (collect) turn
 *              records into what the other files keep; flow ends and arrows
 *   lanes.c    who a lane is (processes, threads, metadata), its label,
 *              the lane order and which lanes the figure draws
 *   window.c   the window: --from/--to, --window-event, the far-clock
 *              clusters, --pad
 *   rows.c     a lane's slices in nesting rows, --depth, and the level of
 *              detail (thin slices merged into dense spans)
 *   colors.c   the colour of each bar and category, one class per colour
 *   system.c   a system trace's (CPU lanes'): threads by busy time, counters
 *              by variation, the CPU lanes' processes and their colours
 *   names.c    the texts: short names in bars, device paths, tooltips
 *   counters.c counter tracks: the series of C events and [memory]
 *              instants, their value at the window's start, thinned
 *              samples, min, max and mean
 *   stats.c    the overlap statistics and the GPU breakdown
 *   mode.c     the state's life, the table entry and build()
 *
 * Time is in nanoseconds on the trace clock, as int64_t; the figure's x
 * axis is in us, ms or s from the window start, whichever suits the span.
 * Strings the figure shows (names, categories, args text) live once in
 * c->strs and are kept as their ids.
 *
 * Ownership: struct chrome is made by the mode's begin() and freed by its
 * release() (mode.c), which frees every array below.  Out of memory sets
 * c->oom and the sink's callbacks then return false.
 */
#ifndef TF_RULES_CHROME_INT_H
#define TF_RULES_CHROME_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/str.h" /* tf_strdup_oom(s, &c->oom): the files' copies of strings */
#include "base/strtab.h"
#include "model/figure.h"
#include "model/overview.h"
#include "model/trace.h"
#include "rules/chrome.h"
#include "rules/critpath.h"
#include "rules/critpath_marks.h"
#include "rules/hta.h"
#include "rules/stats.h"

/* Disjoint intervals pass 1 keeps of the events' extents (window.c). */
#define TF_CHROME_CLUSTERS 64
/* GPU event names whose kernel class stats.c remembers (at most), in a
 * table of twice as many slots. */
#define TF_CHROME_CLASS_CACHE 4096

struct tf_chrome_class_slot {
    const char *name; /* in the cache's arena; NULL: empty */
    uint32_t hash;
    size_t len;
    unsigned char cls; /* enum tf_kernel_class */
};

/* Addresses whose name stats.c remembers the class of (a power of 2). */
#define TF_CHROME_CLASS_MEMO 64

struct tf_chrome_class_cache {
    struct tf_chrome_class_slot *slots; /* 2 * TF_CHROME_CLASS_CACHE, NULL until used */
    size_t n;
    struct tf_arena arena;
    /* The slot of the name last seen at an address, tried first (a loader
     * hands the same string over at the same address; checked byte for
     * byte, the address never read through). */
    struct {
        uintptr_t addr;
        const struct tf_chrome_class_slot *slot;
    } memo[TF_CHROME_CLASS_MEMO];
    /* The category last seen, and what it says (stats.c's cat_kind). */
    uintptr_t cat_addr;
    char cat[32];
    int cat_kind;
};
/* Bytes of a name in a tooltip (names.c; rows.c counts them). */
#define TF_CHROME_TIP_NAME_MAX 400
/* Threads found last, looked up first (lanes.c). */
#define TF_CHROME_THREAD_CACHE 8
/* A colour slot with no colour (no cname, not yet chosen). */
#define TF_CHROME_NO_COLOR UINT32_MAX

/* --- who is who (lanes.c) ----------------------------------------------------- */

struct proc {
    struct tf_id pid;
    char *pid_str;
    char *name, *labels;
    bool has_sort;
    long long sort;
    bool has_ppid; /* its parent's pid, from a system trace's process tree */
    long long ppid;
    /* a device's kind ("GPU", "TPU"), name and vendor (a "process_device"
     * record), or NULL */
    char *dev_kind, *dev_name, *dev_vendor;
};

/* Pass 1: where a thread's events lie, as at most TF_CHROME_CLUSTERS
 * disjoint intervals (window.c). */
struct cluster {
    int64_t lo, hi;
    size_t count;
};

struct extent {
    struct cluster *v;
    size_t n, cap;
    int64_t gap;      /* intervals closer than this are merged */
    size_t count;     /* events */
    bool any_slice;
    bool all_total;   /* every slice is named "Total ..." (clang's summaries) */
};

struct thr {
    size_t proc;
    struct tf_id tid;
    char *tid_str;
    char *name;
    bool has_sort;
    long long sort;
    struct extent ext;
    bool counter; /* not a thread: a counter series of the process, named `name` */
    size_t we_count; /* an HPC job's: its --window-event occurrences so far */
};

/* A lane's label, told apart from the others drawn with it (lanes.c): the
 * whole ("python / thread 5555 (python)"), and its process and thread
 * parts (the whole is the process part alone for a named process's only
 * unnamed lane); `group`: the process part told apart from every other
 * process drawn (with its pid when two share a label), for a header per
 * process.  Owned strings. */
struct chrome_label {
    char *label, *proc, *thread, *group;
};

/* --- pass 2: lanes, rows, bars (rows.c) ---------------------------------------- */

/* A slice or instant waiting for its row. */
struct pend {
    int64_t t0, t1;
    uint32_t name, cat, args;
    uint32_t color; /* cname or TF_CHROME_NO_COLOR */
    unsigned depth; /* a B/E pair: 1 + its depth on the loader's stack; else 0 */
    /* bits, so that a pend stays 40 bytes with the ps (REORDER of them
     * wait per lane) */
    unsigned instant : 1, open_end : 1;
    unsigned span : 1;  /* the profiler's own span (events.c) */
    signed int ps0 : 11, ps1 : 11; /* the record's ps0, ps1 (model/trace.h) */
};

/* The time one class (a name in a category, with its cname colour)
 * covers in a dense bar (rows.c). */
struct part {
    uint32_t name, cat, color;
    int64_t ns;
};

/* A bar ready for the figure. */
struct obar {
    int64_t t0, t1; /* clipped to the window */
    int64_t busy;   /* dense: the time its slices cover */
    uint32_t name, cat, args, color;
    unsigned row;
    uint32_t merged; /* 0: one slice */
    /* dense: its classes, parts[part0 .. part0 + n_parts) of its lane */
    uint32_t part0, n_parts;
    bool clip_left, clip_right, instant;
    bool annot; /* in the lane's stack of annotations (rows.c) */
    bool mixed; /* dense: its slices have more than one name */
};

/* What is being merged in one row: the thin slices of one fine bin
 * (rows.c), or a run of instants. */
struct acc {
    bool on;
    bool whole;  /* b is one whole slice */
    struct obar b;
    int64_t bin; /* its fine bin */
    struct part parts[TF_SHARES_MAX];
    unsigned n_parts;
};

/* A stack of nesting rows (rows.c). */
struct stack {
    int64_t *row_end;  /* per row: end of its last slice, as a tree of
                           minima over cap_rows leaves (rows.c) */
    size_t n_rows, cap_rows;
    struct acc *acc;   /* per row */
    size_t n_acc, cap_acc;
    unsigned max_row;  /* deepest row used + 1 */
};

struct lane {
    size_t thread; /* index into thrs */
    struct pend *pend;
    size_t n_pend, cap_pend;
    int64_t watermark; /* start of the last slice placed */
    bool any_placed;
    /* Its rows: two stacks, [0] its work and [1] the annotations of it
     * (Kineto's gpu_user_annotation on a GPU stream), put one above the
     * other once every slice is placed (rows.c). */
    struct stack st[2];
    struct acc iacc;   /* the instants (row 0 of the work) */
    struct obar *bars;
    size_t n_bars, cap_bars;
    struct part *parts; /* the dense bars' classes */
    size_t n_parts, cap_parts;
    unsigned max_row;    /* deepest row used + 1 */
    unsigned annot_rows; /* its first rows that hold the annotations (figure.h) */
    size_t n_slices, n_hidden;
    size_t n_untimed; /* events of no time counted with n_slices (TF_TEF_UNTIMED) */
    size_t n_annot_hidden; /* of n_hidden: annotations that gave way to the work */
    /* Who it is, for the default rules (lanes.c): a hash of each of its
     * first slices (name, start, end), and whether every slice is named
     * "Total ..." (clang's summaries). */
    uint64_t *sample;
    size_t n_sample, cap_sample;
    bool all_total;
    bool all_span; /* every slice is the profiler's span */
    /* the union of its slices in the window, for the statistics */
    struct tf_ivset busy;
    bool busy_sorted; /* busy is normalized: slices came in start order */
    /* its label (set by tf_chrome_pick_lanes; label is lbl.label) */
    struct chrome_label lbl;
    const char *label;
    size_t counter;   /* a counter lane: its series + 1 (counters.c), else 0 */
    double vary;      /* a counter lane: how much it varies in the window (counters.c) */
    /* A job's overview (ranks.c): the lane reduced to its strip once its
     * location was read, its bars then one per class (for the colours);
     * ov_cls: each strip class's id in strs (its category, or its name
     * with --color-by name). */
    struct tf_ov_strip *ov;
    uint32_t ov_cls[TF_SHARES_MAX];
};

/* One end of a flow arrow (events.c): an s, t or f event at ts, or (v2)
 * a slice [ts, t1] whose bind_id flows out ('s'), in ('f') or both ('t'). */
struct flow_end {
    char *id;
    char ph;
    bool v2;
    size_t lane;
    int64_t ts, t1;
    char bp;
};

/* An instant of a whole process ('p': drawn across its lanes) or of the
 * trace ('g': across the plot), in the window (events.c). */
struct mark {
    int64_t ts, t1;  /* t1 > ts: marks merged by the level of detail */
    uint32_t name, cat, args, color;
    size_t proc;     /* 'p': its process */
    char scope;
    uint32_t merged; /* 0: one instant */
};

/* An occurrence of --window-event (window.c). */
struct occ {
    int64_t t0, t1;
};

/* --- the state ------------------------------------------------------------------ */

struct chrome {
    const struct tf_opts *o;
    /* pass 1: processes and threads (lanes.c) */
    struct tf_strtab proc_keys, thr_keys;
    struct proc *procs;
    size_t n_procs, cap_procs;
    struct thr *thrs;
    size_t n_thrs, cap_thrs;
    size_t thr_cache[TF_CHROME_THREAD_CACHE]; /* thread index + 1, 0 empty */
    size_t thr_cache_next;
    /* pass 1: where the time lies (window.c): per thread (struct thr's
     * ext), and the instants of a process or of the trace, which mark
     * moments but set the window only when nothing else would */
    int64_t marks_lo, marks_hi;
    size_t n_marks;
    struct occ *occ; /* a max-heap on t0 of the earliest K occurrences */
    size_t n_occ, cap_occ, n_occ_all;
    size_t n_complete;       /* complete events (with --window-event) */
    struct tf_strtab wnames; /* their other names, until the name is found */
    size_t *wname_count;     /* by id in wnames */
    size_t n_wname_count, cap_wname_count;
    /* --window-event as a glob: its literal head, which a name must start
     * with (the cheap test before fnmatch); glob false: compared whole. */
    bool we_glob;
    size_t we_head;
    /* With --critical-path, a name that is no glob is also HTA's
     * annotation: the events whose names contain it count as a glob's
     * matches, used when no event has the name itself ("ProfilerStep"). */
    bool we_sub;
    /* With a glob: the earliest of the events it matches (a max-heap on
     * t0, room for 4K + 16) and their names, to tell a step's copies (the
     * host's and the GPU's annotation: one name, overlapping) from the
     * next step. */
    struct tf_strtab we_names;
    struct gocc {
        int64_t t0, t1;
        uint32_t name;
    } *we_occ;
    size_t n_we_occ, cap_we_occ, n_we_all;
    size_t n_stray;
    /* An HPC job's --window-event: the K-th occurrence of each thread, from
     * the earliest start to the latest end of them (window.c) */
    bool we_rank_found;
    int64_t we_rank_lo, we_rank_hi;
    size_t we_rank_most; /* the most occurrences of one thread */
    bool has_clock_origin; /* the trace's own origin (TF_TEF_ORIGIN) */
    bool hpc;              /* an HPC job's trace (TF_TEF_HPC): processes are ranks */
    bool count_events;     /* the lanes say their events (TF_TEF_COUNTS) */
    /* its ranks are more than its lanes' cap holds: each lane is reduced to
     * a strip as its location ends, and the figure is the job's overview
     * (ranks.c); records of a lane after that (none, from OTF2) */
    bool ov;
    size_t ov_late;
    char **notes;          /* the loader's notes (TF_TEF_NOTE), owned */
    size_t n_notes, cap_notes;
    /* an HPC job's time per process and paradigm in the window, as the
     * loader measured it (TF_TEF_PARADIGM; stats.c) */
    struct par_time {
        size_t proc;
        uint32_t cat; /* id in strs; mpi: MPI of any kind */
        bool mpi;
        int64_t ns;
    } *par;
    size_t n_par, cap_par;
    /* a system trace's CPU lanes: each process's time on the CPUs in the
     * window (slices of category "sched" on lanes "CPU N"; stats.c) */
    struct cpu_time {
        uint32_t proc; /* its name, id in strs */
        int64_t ns;
    } *cpu;
    size_t n_cpu, cap_cpu;
    size_t *cpu_of_str;     /* strs id -> index in cpu + 1 */
    size_t n_cpu_of_str;
    int64_t clock_origin;
    /* the window (window.c) */
    int64_t w0, w1, origin;
    int64_t end;            /* the end of the main run of time */
    int64_t event_t0;       /* the --window-event occurrence's start */
    bool chosen;            /* w0, w1 are chosen (span(), or the window callback) */
    /* The x axis: from x_origin, axis_ns long (the window, unless several
     * traces share one axis); the share of the bar budget. */
    int64_t x_origin, axis_ns;
    double budget_share;
    int64_t thr_ns; /* slices at least this long keep their args (rows.c) */
    int64_t bin_ns; /* the fine bins' width, from x_origin on (rows.c) */
    /* pass 2 */
    struct tf_strtab strs; /* names, categories, args text */
    uint32_t empty;        /* the id of "" in strs */
    uint32_t annot_cat;    /* the id of the annotations' category (rows.c) */
    uint32_t lost_cat;     /* the id of TF_LOST_CAT: never busy (rows.c) */
    struct lane *lanes;
    size_t n_lanes, cap_lanes;
    size_t *lane_of_thr; /* thread index -> lane + 1 */
    size_t n_lane_of_thr, cap_lane_of_thr;
    struct flow_end *flows;
    size_t n_flows, cap_flows;
    struct mark *marks;
    size_t n_marks_in, cap_marks;
    /* The events the marks' globs match (o->mark_globs), whole, with the
     * index of their lane, at most TF_CHROME_MARK_EVENTS (events.c). */
    struct mev {
        int64_t t0, t1;
        uint32_t name;
        size_t lane;
    } *mevs;
    size_t n_mevs, cap_mevs;
    size_t n_late; /* slices that came after their time (rows.c) */
    /* GPU work for the breakdown (the window's, or the trace's with
     * --stats-scope trace): every counted event, compute, communication
     * (stats.c) */
    struct tf_ivset gpu_all, gpu_comp, gpu_comm;
    size_t gpu_added; /* intervals added since the last normalize */
    /* Folding the statistics' past (stats.c tf_chrome_fold): a trace whose
     * slices and instants come in start order, or nearly (each at most
     * order_lag before the latest start read before it: pass 1 measures
     * it), has its lanes' busy sets and the GPU sets folded, every so
     * often, up to the latest start read less order_lag, before which no
     * record can start, so memory does not grow with the slices.  A
     * system trace's records come at their end (a CPU's run at the switch
     * that ends it): order_lag is then about the longest run or slice.
     * Nothing is folded past the start of a slice that never ended (it
     * comes at the end).  pos is that time; fold_pos the last cut. */
    bool index_lean;        /* the loader's first pass needs not see every record */
    bool in_order;          /* pass 1: every record so far came within order_lag */
    bool order_any;         /* pass 1: order_ts is set */
    int64_t order_ts;       /* pass 1: the latest start so far */
    int64_t order_lag;      /* pass 1: how far a start came before order_ts, at most */
    bool order_open;        /* pass 1: a slice never ended (open_min is set) */
    int64_t open_min;       /* pass 1: the earliest start of those */
    bool fold_decided;      /* pass 2 has begun: folding is set */
    bool folding;           /* pass 2: fold as we go */
    bool fold_broken;       /* a record came before the last cut after all */
    int64_t pos, fold_pos;
    int64_t pos_max;        /* pass 2: the latest start so far (pos + order_lag) */
    /* The busy sets' ticks (stats.c tf_chrome_busy_tick): ns on the trace
     * clock, or, when the trace's times are finer (fine_seen: its loader
     * says so, TF_TEF_FINE) and the window short enough, ps from the
     * window's start (fine), so that a line of 300 ps events is busy for
     * their exact time; bw0, bw1 the window in those ticks. */
    bool fine_seen, fine, fine_decided;
    int64_t bw0, bw1;
    size_t busy_added;      /* busy intervals added since the last fold */
    struct tf_ivfold fold;  /* the lanes' folded past (ids: lane indexes) */
    struct tf_stats_gpu_past gpu_past;
    struct tf_chrome_class_cache gpu_classes; /* the kernel class by name (stats.c) */
    struct tf_hta *hta; /* --stats-compat hta: HTA's rows instead (rules/hta.h) */
    struct tf_cp *cp;   /* --critical-path (rules/critpath.h) */
    bool cp_own;        /* under --stats-compat hta: the path's window is HTA's */
    int64_t cp_w0, cp_w1; /* instance (window.c), not the drawn one */
    struct tf_cp_set *cp_set; /* its path's events, kept whole (rows.c) */
    /* counters (counters.c) */
    struct series *series;
    size_t n_series, cap_series;
    struct tf_strtab series_keys;
    struct tf_buf ctr_key; /* scratch: an args member's key */
    size_t *ctr_straddle;  /* blocks any series holds on both sides of the start */
    size_t n_ctr_straddle;
    bool pass2;         /* the window is known */
    size_t n_series_cut; /* samples of series past TF_CHROME_MAX_SERIES */
    size_t n_ctr_late;   /* samples that came long after their time */
    size_t n_ctr_bad;    /* values that are no number (in the window) */
    struct tf_buf tmp; /* scratch for any one call */
    bool oom;
};

/* --- events.c: the loader's sink ------------------------------------------------------ */

bool tf_chrome_index(void *ctx, const struct tf_tef_rec *r, struct tf_diag *d);
bool tf_chrome_collect(void *ctx, const struct tf_tef_rec *r, struct tf_diag *d);
bool tf_chrome_finish(void *ctx, struct tf_diag *d);
/* The sink's args_floor (model/trace.h): thinner slices keep no args. */
int64_t tf_chrome_args_floor(void *ctx);
/* Arrows between the drawn lanes (fig_lane: lane index -> figure lane or
 * SIZE_MAX); `per` is ns per axis unit.  False when out of memory. */
bool tf_chrome_add_arrows(struct chrome *c, struct tf_figure *f, const size_t *fig_lane,
                          double per);

/* --- lanes.c ---------------------------------------------------------------------- */

/* The process of pid, created when new; SIZE_MAX when out of memory. */
size_t tf_chrome_process(struct chrome *c, const struct tf_id *pid);
/* The thread (pid, tid), created when new; SIZE_MAX when out of memory. */
size_t tf_chrome_thread(struct chrome *c, const struct tf_id *pid, const struct tf_id *tid);
/* The pseudo-thread of counter series `series` of process p, named
 * `label` (its lane is a counter lane), created when new; SIZE_MAX when
 * out of memory. */
size_t tf_chrome_counter_thread(struct chrome *c, size_t p, size_t series, const char *label);
/* An M record: process and thread names, labels and sort indices. */
void tf_chrome_meta(struct chrome *c, const struct tf_tef_rec *r);
/* The lane of thread t, created when new; NULL when out of memory. */
struct lane *tf_chrome_lane_for(struct chrome *c, size_t t);
/* Notes what the default rules need to know of a slice placed on ln (not
 * an instant); false when out of memory. */
bool tf_chrome_lane_note(struct chrome *c, struct lane *ln, const struct pend *p);
/* Text with numbers in it, in the order people count ("stream 7" before
 * "stream 20"); a total order. */
int tf_chrome_natural_cmp(const char *a, const char *b);
/* Ids compare as numbers before strings, numbers numerically, strings
 * naturally (lanes.c). */
int tf_chrome_cmp_id(const struct tf_id *a, const struct tf_id *b);
/* A process's label, appended to out; true when it has a name (labels.c,
 * like the three below). */
bool tf_chrome_proc_label(const struct proc *p, struct tf_buf *out);
/* The labels of the threads ts[0 .. n), drawn together: "process /
 * thread" from the metadata, else from the ids; labels that would be
 * alike get the tid, or the pid, that tells them apart.  out[0 .. n) is
 * filled; tf_chrome_labels_fini frees it.  False when out of memory. */
bool tf_chrome_labels(const struct chrome *c, const size_t *ts, size_t n,
                      struct chrome_label *out);
void tf_chrome_labels_fini(struct chrome_label *l, size_t n);
/* The parts of lane ln's label for a header per process (figure.h's
 * tf_lane group, name, id): false when the label is one part (the process
 * alone).  ln's label must be set (tf_chrome_pick_lanes). */
bool tf_chrome_lane_parts(const struct chrome *c, const struct lane *ln, struct tf_buf *group,
                          struct tf_buf *name, struct tf_buf *id);
/* The same parts from a label alone ("PROCESS / THREAD"), as a figure model
 * keeps it; false for a label of one part. */
bool tf_chrome_split_label(const char *label, struct tf_buf *group, struct tf_buf *name,
                           struct tf_buf *id);

/* The rank of thread t (lanes.c; an HPC job's: a rank's process, or a GPU stream
 * named "(rank R)"); false: none. */
bool tf_chrome_rank_of(const struct chrome *c, size_t t, long long *rank);
/* Whether thread t is of a rank --ranks asks for (true without it, and in
 * a trace that is no HPC job's). */
bool tf_chrome_rank_selected(const struct chrome *c, size_t t);
/* The lanes a figure draws, in its order.  Caller-owned: _fini frees. */
struct chrome_pick {
    size_t *lanes;       /* indices into c->lanes */
    const char **rename; /* per picked lane: the LABEL of --lanes PATTERN=LABEL, or NULL */
    size_t n;
    size_t cap;          /* --max-lanes, or the default */
    size_t n_cut;        /* lanes left out by the cap */
    size_t ccap;         /* --max-counters, or the default */
    size_t n_ccut;       /* counter lanes left out by it */
    size_t n_counters;   /* counter lanes picked */
    size_t n_by_default; /* lanes hidden by the default rules */
};
/* Orders the lanes with something drawn, applies --hide, the default
 * rules, --lanes and the cap.  False with a message (nothing to draw,
 * every lane hidden, no --lanes match, out of memory). */
bool tf_chrome_pick_lanes(struct chrome *c, const struct tf_opts *o, struct chrome_pick *p,
                          struct tf_diag *d);
void tf_chrome_pick_fini(struct chrome_pick *p);
/* After pass 1: the threads with events whose lanes a figure would draw by
 * the rules pass 1 can apply, in drawing order: *def by the default ones
 * (unless --all-lanes), *shown also by --hide, --lanes and the cap.  Both
 * caller-freed.  False when out of memory. */
bool tf_chrome_window_threads(struct chrome *c, const struct tf_opts *o, size_t **def,
                              size_t *n_def, size_t **shown, size_t *n_shown);

/* --- a system trace: CPU lanes (system.c) ------------------------------------------ */

/* Processes a CPU legend names at most (the others: "other processes"). */
#define TF_CHROME_LEGEND_PROCS 6
/* Whether lane i is a CPU's lane ("CPU 3": a system trace's scheduling). */
bool tf_chrome_cpu_lane(const struct chrome *c, size_t i);
/* Whether thread t is the kernel's: a child of kthreadd (pid 2) or
 * kthreadd, else (no process tree) named like one (kworker/N...). */
bool tf_chrome_kernel_thread(const struct chrome *c, size_t t);
/* The time lane i's slices cover in the window (ns). */
int64_t tf_chrome_lane_busy(struct chrome *c, size_t i);
/* Which of lanes[0 .. n) a system trace's figure keeps when it has room
 * for `room`: threads by their busy time (users' before the kernel's of
 * the same), counters (`counters`) by their variation; keep[i] says.
 * False when out of memory. */
bool tf_chrome_system_keep(struct chrome *c, const size_t *lanes, size_t n, size_t room,
                           bool counters, bool *keep);
/* Whether class cls (an id in strs) is a process of the CPU lanes. */
bool tf_chrome_cpu_class(const struct chrome *c, uint32_t cls);
/* A CPU lane process's place among them by CPU time (0: the most), and
 * *ns its time; SIZE_MAX when cls is none. */
size_t tf_chrome_cpu_rank(const struct chrome *c, uint32_t cls, int64_t *ns);

/* --- window.c -------------------------------------------------------------------- */

/* Pass 1: the extent [lo, hi] of an event drawn on thread t's lane (a
 * slice, an instant, an async event, a counter sample); an instant of a
 * process or of the trace at ts; a --window-event occurrence. */
void tf_chrome_add_extent(struct chrome *c, size_t t, int64_t lo, int64_t hi);
void tf_chrome_add_mark(struct chrome *c, int64_t ts);
/* With --window-event: a complete event (an occurrence when its name is
 * the one asked for; else counted by name, for the message on a miss). */
void tf_chrome_window_name(struct chrome *c, const char *name, int64_t t0, int64_t t1);
/* The same for an HPC job's trace, whose occurrences count per thread t
 * (the K-th iteration of a loop is the K-th of every rank). */
void tf_chrome_window_rank(struct chrome *c, size_t t, const char *name, int64_t t0, int64_t t1);
/* Sets up the --window-event test (once, at the start). */
void tf_chrome_window_event_init(struct chrome *c);
/* Fixes c->w0, c->w1 (once: later calls keep them), or fails with a
 * message.  The sink's window callback (mode.c) calls it first. */
bool tf_chrome_window_fix(struct chrome *c, struct tf_diag *d);
/* The mode's span() and rewindow() (mode.h). */
bool tf_chrome_span(void *state, struct tf_span *s, struct tf_diag *d);
void tf_chrome_rewindow(void *state, const struct tf_rewindow *w);

/* The events of the marks kept at most. */
#define TF_CHROME_MARK_EVENTS 200000
/* Keeps p (on lane ln, named `name`) when a mark's glob matches it (events.c);
 * false when out of memory. */
bool tf_chrome_mark_event(struct chrome *c, const struct lane *ln, const struct pend *p,
                          const char *name);
/* The figure's mark_events from those kept, on the lanes drawn (fig_lane:
 * lane -> figure lane or SIZE_MAX); false when out of memory. */
bool tf_chrome_mark_events(const struct chrome *c, struct tf_figure *f, const size_t *fig_lane,
                           double per);

/* --- rows.c ---------------------------------------------------------------------- */

/* The category of the annotations a lane's work is drawn apart from:
 * Kineto's GPU copy of the host's record_function ranges. */
#define TF_CHROME_ANNOT_CAT "gpu_user_annotation"
/* Whether a category is that of the annotations. */
bool tf_chrome_is_annotation(const char *cat);

/* The fine bins (c->bin_ns) and the args threshold (c->thr_ns), once the
 * window is known. */
void tf_chrome_lod_threshold(struct chrome *c);
/* A slice or instant for ln (in about start order); false when out of
 * memory. */
bool tf_chrome_rows_add(struct chrome *c, struct lane *ln, const struct pend *p);
/* After pass 2: every slice of ln placed, its bars complete. */
void tf_chrome_rows_finish(struct chrome *c, struct lane *ln);
/* The deepest drawn bar of ln that holds time t (or, with `next`, the
 * first that starts at or after it): its row, -1 when none. */
int tf_chrome_row_at(const struct lane *ln, int64_t t, bool next);
/* The row of the bar drawn for the slice [t0, t1] of ln (its extent in the
 * window), else the deepest that holds t0; -1 when none. */
int tf_chrome_row_of(const struct chrome *c, const struct lane *ln, int64_t t0, int64_t t1);
/* ln's bars in row order, then by start. */
void tf_chrome_sort_bars(struct lane *ln);
/* The classes of bar b of ln into out[TF_SHARES_MAX] (a slice or instant:
 * itself, its time t1 - t0); their count. */
size_t tf_chrome_bar_parts(const struct lane *ln, const struct obar *b, struct part *out);
/* Sorts the marks and merges those closer than the merging threshold
 * until at most `max_bars` bars would draw them, `rows` bars a global
 * mark and proc_rows[p] a mark of process p. */
void tf_chrome_fit_marks(struct chrome *c, size_t rows, const size_t *proc_rows,
                         size_t max_bars);

/* --- colors.c -------------------------------------------------------------------- */

/* A class's colour for this figure: a category (NCCL kernels apart), or
 * a process of the CPU lanes (colors.c). */
enum { CC_PLAIN, CC_CPU, CC_NCCL };              /* cat_color.sub */
enum { CC_OWN, CC_OTHER, CC_OTHER_PROCS };       /* cat_color.kind */
struct cat_color {
    uint32_t cat; /* id in c->strs */
    uint32_t rgb;
    int64_t ns;   /* its drawn time */
    unsigned char sub;  /* CC_PLAIN, CC_CPU (cat is a process), CC_NCCL */
    unsigned char kind; /* its own colour, or drawn in a grey of the rest */
};

/* How a figure's bars are coloured (tf_chrome_color_plan; _fini frees). */
struct color_plan {
    struct cat_color *cc; /* the categories drawn and their colours */
    size_t n_cc;
    size_t n_other;       /* of them, drawn in the grey of "other" */
    bool by_name;         /* --color-by name, or auto with one category or none */
    /* by name: the names drawn, those the legend lists (ids in names, and
     * their colour slots), the share of the time they cover, and whether
     * there is a legend at all */
    struct tf_strtab names;
    size_t n_names;
    uint32_t listed[16];
    size_t listed_slot[16];
    size_t n_listed;
    double covered;
    bool legend;
    /* the figure category of each category key made so far (a figure
     * coloured by name without a legend has one per name): found by hash,
     * not by tf_figure_category's walk over them all */
    struct cat_memo *memo;
};

/* NCCL kernels' colour; the spare colours of categories no palette knows
 * (Tol's light scheme); a known category's colour (false: none). */
#define TF_CHROME_NCCL_COLOR 0xCC6677u
extern const uint32_t tf_chrome_spare_colors[8];
bool tf_chrome_known_color(const char *cat, uint32_t *rgb);
/* Whether two colours are too alike to tell two classes apart. */
bool tf_chrome_alike(uint32_t a, uint32_t b);
/* The colour of one of Chrome's reserved colour names, else
 * TF_CHROME_NO_COLOR. */
uint32_t tf_chrome_cname_color(const char *cname);
/* A category as today's Kineto names it: the older format's "Kernel",
 * "Memcpy", "Memset", "Operator" and "Runtime" are "kernel", "gpu_memcpy",
 * "gpu_memset", "cpu_op" and "cuda_runtime"; others (and NULL) as given. */
const char *tf_chrome_canon_cat(const char *cat);
/* How the picked lanes' bars are coloured; false when out of memory. */
bool tf_chrome_color_plan(struct chrome *c, const struct tf_opts *o, const size_t *pick,
                          size_t n_pick, struct color_plan *plan);
void tf_chrome_color_plan_fini(struct color_plan *plan);
/* The figure category of a bar (made at its first use), the bar's fill
 * and text colours, and *kind: what its kind is called in a dense span's
 * tooltip ("cpu_op", or a name); SIZE_MAX when out of memory. */
size_t tf_chrome_bar_category(const struct chrome *c, const struct tf_opts *o,
                              struct tf_figure *f, const struct obar *ob,
                              const struct color_plan *plan, uint32_t *rgb, uint32_t *label_rgb,
                              const char **kind);
/* The legend of the categories (or names) drawn, or the note that says
 * why there is none; false when out of memory. */
bool tf_chrome_color_legend(const struct chrome *c, const struct color_plan *plan,
                            struct tf_figure *f);

/* --- names.c --------------------------------------------------------------------- */

/* Bytes of a lane label's process or thread part, and of a legend label,
 * at most (a longer one is cut, with an ellipsis: no figure shows more,
 * and measuring it costs the layout the square of its length). */
#define TF_CHROME_LABEL_MAX 200
/* Cuts the text of b after byte `from` to at most max bytes, at the start
 * of a character, and ends it with an ellipsis. */
void tf_chrome_cap(struct tf_buf *b, size_t from, size_t max);
/* s without leading and trailing blanks, appended to out. */
void tf_chrome_trimmed(const char *s, struct tf_buf *out);
/* A process name as people say it (TensorFlow device paths shortened),
 * appended to out. */
void tf_chrome_process_name(const char *s, struct tf_buf *out);
/* The id in c->strs of the args text a tooltip shows. */
uint32_t tf_chrome_args_text(struct chrome *c, const struct tf_tef_rec *r);
/* b's name, label and tooltip from ob (cat_label: its category's legend
 * label); false when out of memory. */
bool tf_chrome_bar_text(const struct chrome *c, struct tf_figure *f, struct tf_bar *b,
                        const struct obar *ob, const char *cat_label, double per,
                        const char *unit);

/* --- counters.c ------------------------------------------------------------------ */

/* Whether counter tracks are drawn (not --no-counters). */
bool tf_chrome_counters_on(const struct chrome *c);
/* Whether r is one of Kineto's [memory] instants (a memory sample). */
bool tf_chrome_is_memory(const struct tf_tef_rec *r);
/* A C record or a [memory] instant, in either pass; false when out of
 * memory. */
bool tf_chrome_counter_record(struct chrome *c, const struct tf_tef_rec *r);
/* Once the window is known: each series' value at its start, as far as
 * pass 1 knows it. */
void tf_chrome_counters_window(struct chrome *c);
/* After pass 2: the series folded, a counter lane for each that holds a
 * value in the window; false when out of memory. */
bool tf_chrome_counters_finish(struct chrome *c);
/* The samples the counter tracks of one figure's model may hold together,
 * thinned at the fine resolution (a trace of a figure of several: its
 * budget_share of them); the plan thins what it draws at the real width
 * (render/plan_counters.c). */
#define TF_CHROME_COUNTER_MODEL_SAMPLES 32768
/* Thins the picked counter lanes coarser until they fit the model's
 * samples; the samples they then hold. */
size_t tf_chrome_counters_fit(struct chrome *c, const size_t *pick, size_t n_pick);
/* The figure's lane of counter lane ln, labelled `label` (`per`: ns per
 * axis unit); false when out of memory. */
bool tf_chrome_add_counter_lane(struct chrome *c, struct tf_figure *f, const struct lane *ln,
                                const char *label, double per);
/* f->stats.counters for the drawn counter lanes (fig_lane: lane index ->
 * figure lane or SIZE_MAX); false when out of memory. */
bool tf_chrome_counter_stats(struct chrome *c, struct tf_figure *f, const size_t *fig_lane);
/* Whether a drawn memory track counts from the trace's start (its trace
 * gives steps, not totals). */
bool tf_chrome_counters_relative(const struct chrome *c, const size_t *fig_lane);
void tf_chrome_counters_free(struct chrome *c);

/* --- stats.c --------------------------------------------------------------------- */

/* A record's GPU work, for the breakdown: in the window (busy ticks), or
 * in the whole trace (ns; pass 1 of --stats-scope trace). */
void tf_chrome_gpu_event(struct chrome *c, const struct tf_tef_rec *r, bool window);
/* The longest window whose ps from its start stay within the statistics'
 * ticks (2^61, rules/stats.c): 26 days. */
#define TF_CHROME_FINE_MAX_NS INT64_C(2305843009213693)

/* Pass 2, before the first record: the busy sets' ticks (fine or ns).
 * (Inline, as rows.c, stats.c and system.c each use them.) */
static inline void tf_chrome_busy_ticks(struct chrome *c)
{
    c->fine_decided = true;
    c->fine = c->fine_seen && !c->hta && c->w1 - c->w0 <= TF_CHROME_FINE_MAX_NS;
    c->bw0 = c->fine ? 0 : c->w0;
    c->bw1 = c->fine ? (c->w1 - c->w0) * 1000 : c->w1;
}

/* A time of the window (ns, and ps past it: a record's ps0 or ps1) as a
 * tick of the busy sets, clipped to [bw0, bw1]. */
static inline int64_t tf_chrome_busy_tick(const struct chrome *c, int64_t ns, int ps)
{
    if (ns < c->w0)
        return c->bw0;
    if (ns > c->w1)
        return c->bw1;
    if (!c->fine)
        return ns;
    int64_t t = (ns - c->w0) * 1000 + ps;
    return t < c->bw0 ? c->bw0 : t > c->bw1 ? c->bw1 : t;
}
/* Pass 1: notes whether records keep coming in start order. */
void tf_chrome_order_note(struct chrome *c, const struct tf_tef_rec *r);
/* Pass 2, for each record before it is placed: decides on folding at the
 * first, and checks the order. */
void tf_chrome_fold_note(struct chrome *c, const struct tf_tef_rec *r);
/* Pass 2: folds the statistics' past up to c->pos when enough has grown
 * (placing first every lane's slices that start before it). */
void tf_chrome_fold_maybe(struct chrome *c);
/* After pass 2 (every lane's rows finished): folds what the busy sets
 * still hold, when the trace was folded before, so that the statistics
 * hold only the folded combinations. */
void tf_chrome_fold_end(struct chrome *c);
/* Places a lane's waiting slices that start before t (rows.c). */
void tf_chrome_rows_before(struct chrome *c, struct lane *ln, int64_t t);
/* The window's statistics of the picked lanes, and the --annotate line;
 * false when out of memory. */
bool tf_chrome_stats(struct chrome *c, const struct tf_opts *o, struct tf_figure *f,
                     const size_t *pick, size_t n_pick);

/* --- an HPC job's ranks (ranks.c) ------------------------------------------------ */

/* After pass 1: whether the figure is the job's overview (c->ov): its
 * lanes, after --lanes, --hide and --ranks, are more than the cap holds
 * and the cap would leave a whole rank out. */
bool tf_chrome_ranks_window(struct chrome *c);
/* A lane's location is read (TF_TEF_LANE_DONE): its lane reduced. */
bool tf_chrome_lane_done(struct chrome *c, const struct tf_tef_rec *r);
/* At the end of pass 2: every lane reduced that was not. */
void tf_chrome_ranks_finish(struct chrome *c);
/* The overview's figure: categories, legend, notes, and f->ov_set, the
 * ranks' strips for the caller to put in rows (model/overview.h). */
bool tf_chrome_ranks_build(struct chrome *c, const struct tf_opts *o,
                           const struct tf_mode_input *in, struct tf_figure *f,
                           struct tf_diag *d);

#endif
