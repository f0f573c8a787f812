/* figure.h - the figure model: WHAT is drawn, in data units.
 *
 * A mode (rules/) fills it from a trace; `--format json` prints it; the
 * layout (render/layout.c) turns it into a scene of primitives in points;
 * TikZ (render/tikz.c) writes it for TeX to lay out.  Nothing here knows
 * about JSON input, about any output language, or about any one mode:
 * every mode says what it draws with the same lanes, bars, categories,
 * legend entries, axis and optional side panel.
 *
 * Units.  The trace clock is in `clock_unit` ("ms" for the pipelined and
 * PyTorch modes); the window is [window_start, window_end] on it.  The x
 * axis runs from 0 (the window start) to x_span, in `axis.unit` ("ms",
 * "us", "s"); bar extents x0/x1 are in axis units.  Bars keep the whole
 * event too (start_ms, dur_ms: milliseconds on the trace clock), for
 * tooltips and data attributes.
 *
 * Order.  Lanes are listed top to bottom; a lane has `rows` sub-rows (its
 * nesting depth; row 0 on top).  Bars are in drawing order (later bars
 * paint over earlier ones).  Categories are in first-use order; legend
 * entries in the order they are shown.
 *
 * Ownership.  Every string the figure points to is owned by the figure
 * (its arena, filled by the tf_figure_* functions below) or is a static
 * string; tf_figure_fini frees them all.  Arrays grow through TF_GROW.
 */
#ifndef TF_FIGURE_H
#define TF_FIGURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/diag.h"
#include "model/marks.h"
#include "model/trace.h" /* struct tf_id */

/* Black and white: the only colours the layout itself uses for bars
 * (edges) and in-bar text. */
#define TF_COLOR_BLACK 0x000000u
#define TF_COLOR_WHITE 0xFFFFFFu

/* The narrowest window the rules hand to back-ends (1 ns, in ms): below it
 * there is nothing to draw, and no axis can be scaled. */
#define TF_MIN_SPAN_MS 1e-6

/* Teeth of a torn (zigzag) bar edge, and the widest share of a bar the
 * teeth may take. */
#define TF_ZIGZAG_TEETH 4
#define TF_ZIGZAG_MAX_WIDTH_FRAC 0.35

/* Level of detail.  The rules keep slices too thin to draw apart as a
 * fine busy histogram: per lane, row and class, the time covered in each
 * of TF_LOD_FINE_BINS bins across the axis (dense bars, one per bin that
 * holds more than one slice).  The plan re-bins it at the plot's real
 * width, in bins of TF_LOD_PT (render/plan_busy.c).  A dense bar holds at
 * most TF_SHARES_MAX classes (the rest are counted in the last). */
#define TF_LOD_FINE_BINS 2048
#define TF_LOD_PT 1.0
#define TF_SHARES_MAX 8

/* A key/value pair a mode attaches to the figure, the side panel or a bar:
 * JSON writes it as a member (a number when `number`, else a string; null
 * when value is NULL), SVG as a data-KEY attribute. */
struct tf_prop {
    const char *key;   /* a plain identifier */
    const char *value; /* the text of the value, or NULL */
    bool number;       /* value is a JSON number literal */
};

/* What a lane holds: bars (slices, dense spans, instants), or one counter
 * series drawn as a step line. */
enum tf_lane_kind { TF_LANE_SLICES = 0, TF_LANE_COUNTER };

/* One sample of a counter: from x on (axis units from the window start)
 * the series holds v, until the next sample or the window's end.  v NaN:
 * the series has no value from x on (it stopped; a later sample restarts
 * it).  t_ns is the sample's time on the trace clock in nanoseconds (the
 * first sample of a series that held a value at the window's start is at
 * the start itself). */
struct tf_sample {
    int64_t t_ns;
    double x, v;
};

/* The step line of a counter lane: its samples in time order, thinned to
 * what the output can show (the extremes of each stretch narrower than the
 * level of detail are kept), and its scale: the least and the greatest
 * value it holds in the window (lo == hi: a flat line; has_range false: no
 * value at all). */
struct tf_counter {
    struct tf_sample *samples;
    size_t n_samples, cap_samples;
    bool has_range;
    double lo, hi;
    const char *unit; /* of the values ("B"), or NULL */
    uint32_t color;   /* the line; the area under it is a light tint of it */
};

struct tf_lane {
    const char *key;   /* short identifier for classes and data-lane ("io"), or NULL */
    const char *label; /* the full label: --lanes matches it, JSON and tooltips show it */
    struct tf_id pid, tid;
    unsigned rows;     /* sub-rows, >= 1 (a counter lane: 1) */
    enum tf_lane_kind kind;
    struct tf_counter counter; /* TF_LANE_COUNTER */
    /* The label's parts, for a layout that groups lanes under a header
     * per process (render/plan.c); NULL when the label is one part:
     * `group` the process ("GPU 0"), `name` the thread or stream without
     * ids ("stream 7", "python3.8"), `id` the id that tells it from a
     * namesake in its process ("4037"), or NULL. */
    const char *group, *name, *id;
    size_t trace;      /* its trace (figures of several traces; else 0) */
    /* Its first annot_rows rows hold annotations of the work in the rows
     * below (Kineto's gpu_user_annotation on a GPU stream): a layout that
     * cuts rows leaves them out first (render/plan.h).  0: none. */
    unsigned annot_rows;
    /* When the height budget cuts its rows, keep its innermost ones too (an
     * HPC job's rank: its MPI calls and compute, not only the main() around
     * them): the rows below the last drawn one are folded into it, each
     * slice drawn over the one it is nested in (render/plan_rows.c). */
    bool keep_inner;
    /* A row of a job's overview (tf_overview): the ranks it holds, their
     * count, least and greatest, and their list as --ranks writes one
     * ("16-19", "3,5,17"); n_ranks 0: a lane of its own. */
    size_t n_ranks;
    long long rank_lo, rank_hi;
    const char *ranks;
    /* has_events: the lane says how many events (slices and instants) it
     * holds in the window, drawn or not (an XPlane profile's lines). */
    bool has_events;
    size_t events;
};

/* What colours a bar and names its style: TikZ tracefig/<key>, and a
 * colour tracefig-<key>. */
struct tf_category {
    const char *key;  /* [A-Za-z0-9_/-] */
    uint32_t color;   /* 0xRRGGBB */
    const char *name;  /* as the trace names it ("kernel"), or NULL */
    const char *label; /* for the legend ("NCCL kernel"), or NULL */
    bool faded;        /* --highlight: no event of it is kept (its swatch faded) */
};

/* How a bar is drawn. */
enum tf_bar_shape {
    TF_SHAPE_SLICE = 0, /* a box over [x0, x1] */
    TF_SHAPE_DENSE,     /* slices too thin to draw apart: their busy shares (tf_share) */
    TF_SHAPE_INSTANT    /* a tick at x0 */
};

/* A class's share of a dense bar: the time its slices cover in the bar's
 * span over the span (0 to 1).  The class is a category (the colour class:
 * the trace's category, or the name with --color-by name). */
struct tf_share {
    size_t cat;   /* index into cats */
    double share;
};

struct tf_bar {
    size_t lane;          /* index into lanes */
    unsigned row;         /* sub-row of the lane, 0 = top */
    size_t cat;           /* index into cats */
    const char *name;     /* the event's name */
    const char *title;    /* tooltip / accessible name */
    const char *label;    /* in-bar text, or NULL */
    double start_ms;      /* the whole event, ms on the trace clock */
    double dur_ms;
    double x0, x1;        /* extent in axis units from the window start */
    bool clip_left, clip_right; /* cut by the window: drawn torn */
    uint32_t color;       /* face colour (normally its category's) */
    uint32_t label_color; /* in-bar text colour */
    enum tf_bar_shape shape;
    size_t merged;        /* > 0: a dense span standing for this many slices */
    double busy;          /* dense spans: the time its slices cover (axis units) */
    /* Dense spans: the share of each class, largest first, drawn stacked
     * from the row's bottom (heights = shares).  n_shares 0: one class,
     * `cat`, of share busy / (x1 - x0). */
    const struct tf_share *shares;
    size_t n_shares;
    const struct tf_prop *props;
    size_t n_props;
    bool critical;        /* --critical-path: the event is on the path */
    bool faded;           /* --highlight: drawn faded (tf_color_faded) */
};

/* A flow arrow from one point of the timeline to another. */
struct tf_arrow {
    size_t lane0, lane1;
    unsigned row0, row1;
    double x0, x1; /* axis units */
    bool critical; /* an edge of the critical path (rules/critpath_marks.h) */
};

/* --- marks (rules/marks.h resolves them; model/marks.h the specs) ---------
 * An event a mark names, as the figure draws it: its lane and row, and
 * its whole extent in axis units from the window's start (past the
 * window when the window cuts it). */
struct tf_mark_event {
    const char *name;
    size_t lane;
    unsigned row;
    double start, end;
};

/* A mark resolved: t0, t1 in axis units inside the window [0, x_span]
 * (open0/open1: the mark ran past that edge and was cut there); dur the
 * measured t1 - t0 before cutting.  A callout's t0..t1 is its event's
 * extent; a highlight has none (kept: how many bars keep their colour). */
struct tf_mark {
    enum tf_mark_kind kind;
    const char *text;  /* as drawn; NULL: none */
    const char *title; /* the tooltip: its numbers and events */
    double t0, t1, dur;
    bool open0, open1;
    struct tf_mark_event ev[2];
    size_t n_ev;
    size_t kept;
    bool has_color;
    uint32_t color;
};

struct tf_legend_entry {
    const char *label;
    size_t cat; /* the swatch: index into cats */
    /* A grey class that gathers others ("other"): their names, one a line
     * (its tooltip, and the model's "holds"); else NULL. */
    const char *holds;
    /* A system trace's CPU lanes' process: its time on the CPUs in the
     * window, as --stats counts it (the model's "cpu_ms"). */
    bool has_cpu;
    double cpu_ms;
};

/* A slice of the side panel: a horizontal bar of percentages. */
struct tf_slice {
    const char *key;    /* style name suffix: tracefig/breakdown/<key> */
    const char *label;  /* legend text */
    double pct;         /* share of the total */
    double width_pct;   /* drawn width (small slices widened), normalised */
    uint32_t color;
    const char *text;   /* in-bar text ("18%"), or NULL */
    uint32_t text_color;
};

/* An optional panel right of (or below) the timeline: one stacked bar of
 * percentages with a titled legend (the GPU runtime breakdown). */
struct tf_panel {
    const char *subject;    /* what it shows, for the description ("GPU runtime breakdown") */
    const char *title;      /* the legend's title ("Candidate 5") */
    const char *axis_title; /* under the panel ("GPU Runtime Breakdown (%)") */
    struct tf_prop *props;  /* e.g. candidate, for the JSON model */
    size_t n_props, cap_props;
    struct tf_slice *slices;
    size_t n_slices, cap_slices;
};

/* The x axis: its title, the unit of x values, and the major ticks with
 * their labels (written with `decimals` decimals). */
struct tf_axis {
    const char *title; /* "Time (ms)" */
    const char *unit;  /* "ms" */
    double *ticks;     /* inside [0, x_span] */
    const char **labels;
    size_t n_ticks, cap_ticks, cap_labels;
    int decimals;
};

/* The overlap statistics of the window (rules/stats.h defines them). */
struct tf_stat_group {
    const char *label;
    size_t *lanes; /* indexes into the figure's lanes */
    size_t n_lanes;
    double busy_ms;
    bool has_mpi;  /* a rank of an HPC job (an OTF2 archive) */
    double mpi_ms; /* ... the union of its MPI slices (point-to-point and collective) */
};

/* The time in one paradigm's slices (the category of an HPC job's slices:
 * MPI, OpenMP, user, ...): per rank (process group) the union of its
 * slices of that paradigm in the window, nested ones counted once, and
 * the sum over the ranks. */
/* A system trace's CPU lanes: a process's time on them in the window. */
struct tf_stat_cpu_proc {
    const char *name;
    double ms;        /* summed over the CPUs */
};

struct tf_stat_paradigm {
    const char *name;
    double ms;        /* summed over the ranks */
    double *group_ms; /* per group (0 for a group that is no rank), owned */
};

/* Per candidate (pipelined modes): its I/O time that no GPU work covers. */
struct tf_stat_candidate {
    long long candidate;
    double io_ms, uncovered_io_ms;
};

/* HTA's temporal breakdown of the GPU time, over the window or the whole
 * trace (scope_trace). */
struct tf_gpu_breakdown {
    bool scope_trace;
    double kernel_span_ms, idle_ms, compute_ms, non_compute_ms;
    double comm_ms;               /* union of the communication kernels */
    bool has_comm;
    double comm_comp_overlap_pct; /* |comm & compute| / |comm| */
};

/* A counter lane's values over the window: the least, the greatest and the
 * time-weighted mean (each value weighted by how long it holds in the
 * window; time without a value does not count).  has_value false: the
 * series holds no value in the window. */
struct tf_stat_counter {
    size_t lane; /* index into the figure's lanes */
    bool has_value;
    double min, max, mean;
};

/* --critical-path (rules/critpath.h): the path's categories, events and edges. */
enum { TF_CP_N_CATS = 6 };
extern const char *const tf_cp_cat_names[TF_CP_N_CATS];
struct tf_cp_event {
    char *name, *lane;
    int64_t ts_ns, dur_ns;   /* on the trace clock */
    double start_ms;         /* from the window's start */
};
struct tf_cp_edge {
    const char *type;        /* launch, kernel_kernel, sync, dependency, operator */
    size_t from, to;         /* indexes into events */
    const char *from_end, *to_end; /* "start" or "end" */
    double weight_ms;
};
struct tf_critical {
    double length_ms;
    double cat_ms[TF_CP_N_CATS], cat_pct[TF_CP_N_CATS];
    struct tf_cp_event *events; /* on the path, in its order */
    size_t n_events;
    struct tf_cp_edge *edges;
    size_t n_edges;
};
void tf_critical_free(struct tf_critical *c);

/* A device the trace names (an XPlane profile's GPU or TPU plane): its
 * group's label ("GPU 0"), its kind ("GPU", "TPU"), name (the plane stat
 * device_type_string, "TPU v6 Lite") and vendor (device_vendor); NULL when
 * the trace does not say. */
struct tf_stat_device {
    const char *device, *kind, *name, *vendor;
};

struct tf_stats {
    bool on;               /* computed for this figure */
    int ms_dec;            /* decimals its times are printed with (0:
                              TF_STATS_MS_DEC, to the us; 9: exact to the ps,
                              an XPlane profile's) */
    double window_ms;
    double *lane_busy_ms;  /* one per lane (0 for a counter lane, which no group holds) */
    struct tf_stat_group *groups;
    size_t n_groups;
    double *overlap_ms;    /* n_groups x n_groups, row-major; busy on the diagonal */
    bool pipelined;        /* the pipelined modes: I/O hidden, GPU idle */
    bool has_io_hidden;    /* false: no I/O in the window (io_hidden_pct is null) */
    double io_hidden_pct, gpu_idle_ms;
    struct tf_stat_candidate *candidates;
    size_t n_candidates;
    struct tf_stat_counter *counters; /* one per counter lane, in lane order */
    size_t n_counters;
    struct tf_stat_paradigm *paradigms; /* an HPC job's: by time, largest first */
    size_t n_paradigms;
    struct tf_stat_cpu_proc *cpu_procs; /* the CPU lanes': by time, largest first */
    size_t n_cpu_procs;
    size_t n_cpus;         /* CPU lanes drawn ("CPU N") */
    double cpu_busy_ms;    /* their busy time, summed */
    struct tf_stat_device *devices; /* the groups that are devices, in group order */
    size_t n_devices;
    bool has_gpu;          /* a GPU breakdown */
    struct tf_gpu_breakdown gpu;
    const char *summary;   /* one line for --annotate ("I/O hidden 81 %, GPU idle 7 %") */
    const char *compat;    /* "hta": the GPU breakdown is HTA's (--stats-compat hta) */
    struct tf_critical *critical; /* --critical-path, owned; NULL: none */
};

/* One trace of a figure drawn from several (run_multi.c, compose.c): who
 * it is, how its clock maps to the figure's, and its own statistics.
 * Times are integer nanoseconds (epoch microseconds do not fit a double
 * to the nanosecond), on its own clock unless said otherwise. */
struct tf_trace_ref {
    const char *file;          /* its file's base name */
    const char *title;         /* its lanes' title ("rank 3", "before") */
    const char *mode;          /* the mode that drew it */
    bool has_rank, has_world_size, has_base_time;
    long long rank, world_size; /* distributedInfo */
    long long base_time_ns;    /* baseTimeNanoseconds, when its clock used it */
    int64_t offset_ns;         /* added to its times: its clock -> the figure's */
    int64_t w0_ns, w1_ns;      /* what it draws of the figure's window */
    int64_t event_ns;          /* its --window-event occurrence's start (else its window's) */
    int64_t origin_ns, end_ns; /* its main run of time */
    size_t first_lane, n_lanes;
    struct tf_stats stats;     /* over its window and its lanes (lane indexes: the figure's) */
};

/* --- the overview of a job's ranks (model/overview.h makes it) ----------------
 * When a figure of many ranks has more lanes than its height holds, each
 * rank is drawn as one row, or consecutive ranks (in the order drawn)
 * share a row inked with their mean busy share: the figure's lanes are
 * then those rows (tf_lane.n_ranks > 0) and `overview` says what they
 * hold. */

/* --ranks LIST: one range of it, lo..hi inclusive. */
struct tf_rank_range {
    long long lo, hi;
};

/* --order-ranks: the rows by rank, by when each rank's work in the window
 * ends (its window event), or by busy share (the least busy first). */
enum tf_rank_order { TF_ORDER_RANK = 0, TF_ORDER_FINISH, TF_ORDER_BUSY };

/* One rank of an overview, in the order drawn. */
struct tf_rank_stat {
    long long rank;
    size_t row;      /* the row that holds it */
    size_t trace;    /* its trace (figures of several traces), else SIZE_MAX */
    double busy_ms;  /* its lane's work in its window (each moment once) */
    double window_ms; /* its window */
    bool has_end;
    double end_ms;   /* when its last slice ends, from the figure's window start */
};

struct tf_overview {
    bool on;
    size_t n_ranks, per_row; /* ranks drawn; the most a row holds */
    enum tf_rank_order order;
    const char *axis;        /* the rank axis' text ("1024 ranks, 8 a row") */
    const char *lane;        /* which lane of each rank ("busiest GPU stream, else main thread") */
    struct tf_rank_stat *ranks; /* n_ranks, owned */
    /* The spread across ranks: busy shares in % (least, median,
     * greatest, and the ranks of the least and the greatest), and the
     * rank that ends last, with how long after the median rank's end and
     * after the next rank's (ms). */
    double busy_min, busy_median, busy_max;
    long long min_rank, max_rank;
    bool has_last;
    long long last_rank;
    double last_end_ms, after_median_ms, after_next_ms;
    size_t left_out;         /* lanes of the job not in any rank (GPUs of no rank), noted */
};

struct tf_ov_set;
struct tf_figure;

/* --zoom: a panel of a sub-range under the main panel (tracefig(1), ZOOM).
 * t0..t1 its range in the main figure's axis units (padded by --zoom-pad,
 * inside [0, x_span]); fig the figure of that range alone (as --from and
 * --to draw it, owned); spec the option as written ("--zoom 'A..B'"). */
struct tf_zoom {
    const char *spec;
    double t0, t1;
    int64_t from_ns, to_ns; /* the --from and --to that draw it alone */
    struct tf_figure *fig;
};

struct tf_figure {
    const char *mode;       /* the mode that made it ("timeline") */
    const char *schema;     /* JSON schema name ("tracefig-figure-1") */
    const char *title;      /* short title (SVG <title>, PDF Title) */
    const char *desc;       /* one-paragraph description (<desc>, PDF Subject) */
    struct tf_prop *props;  /* top-level facts for the JSON model */
    size_t n_props, cap_props;

    const char *clock_unit; /* unit of the trace clock ("ms") */
    double window_start;    /* trace clock */
    double window_end;
    double x_span;          /* axis units across the window */
    double zigzag_amp;      /* axis units */
    double width_pt;        /* nominal canvas size, points */
    double height_pt;
    /* Layout hints: the bottom legend row's height relative to the plot;
     * a flame-chart look (thin bar edges, lines between lanes rather than
     * through them) for figures of many small bars. */
    bool has_legend_y;
    double legend_y;
    bool flame;
    /* Its lanes are the ranks of one job (an OTF2 archive): they may be
     * drawn thinner than a label, which then goes on every k-th lane. */
    bool rank_lanes;
    /* The reference script's layout (the seed modes): kept exactly while no
     * size option is given (render/plan.h). */
    bool reference_layout;

    struct tf_lane *lanes;
    size_t n_lanes, cap_lanes;
    struct tf_category *cats;
    size_t n_cats, cap_cats;
    struct tf_bar *bars;
    size_t n_bars, cap_bars;
    struct tf_legend_entry *legend;
    size_t n_legend, cap_legend;
    struct tf_arrow *arrows;
    size_t n_arrows, cap_arrows;
    struct tf_mark *marks; /* in the order given */
    size_t n_marks, cap_marks;
    bool highlight;        /* a highlight mark faded the bars it does not keep */
    /* The events marks may name, when the mode kept them (has_mark_events:
     * every event in the window on a lane drawn whose name a mark's glob
     * matches, whole, thin ones too); else the marks name bars. */
    struct tf_mark_event *mark_events;
    size_t n_mark_events, cap_mark_events;
    bool has_mark_events;
    struct tf_axis axis;
    bool has_panel;
    struct tf_panel panel;

    struct tf_stats stats;
    bool annotate; /* draw stats.summary under the figure */

    /* Notes for the reader of the figure's file (e.g. lanes left out);
     * JSON lists them, the CLI prints them once. */
    const char **notes;
    size_t n_notes, cap_notes;

    /* A figure of several traces: one group of lanes each, in this order
     * (n_traces 0: a figure of one trace, its stats in `stats`). */
    struct tf_trace_ref *traces;
    size_t n_traces, cap_traces;
    /* A figure of one trace that a figure of several would tell apart by
     * its facts (a Chrome trace with distributedInfo, or whose times count
     * from baseTimeNanoseconds): its entry (title NULL, offset 0; no
     * stats), which the JSON model writes as a one-entry "traces", so that
     * models of the ranks of a job combine as the ranks do. */
    bool has_one_trace;
    struct tf_trace_ref one_trace;

    /* Its lanes are the rows of a job's overview (above). */
    struct tf_overview overview;
    /* A job's ranks reduced but not yet in rows (model/overview.h), owned:
     * the caller that knows the size makes the rows. */
    struct tf_ov_set *ov_set;

    /* --zoom: its panels, in the order given (owned; n_zooms 0: none). */
    struct tf_zoom *zooms;
    size_t n_zooms;

    struct tf_arena arena; /* every string and prop above */
};

/* Caller-owned memory: init before use, fini to free everything. */
void tf_figure_init(struct tf_figure *f);
void tf_figure_fini(struct tf_figure *f);

/* --- building (the modes) --------------------------------------------------
 * Each returns NULL (or false) when out of memory and leaves the figure as
 * it was; strings are copied into the figure. */

/* A copy of s owned by the figure. */
const char *tf_figure_str(struct tf_figure *f, const char *s);
/* A copy of the buffer's text (NULL when b->oom). */
const char *tf_figure_buf(struct tf_figure *f, const struct tf_buf *b);
/* Appends a lane (rows 1); returns it. */
struct tf_lane *tf_figure_add_lane(struct tf_figure *f, const char *key, const char *label);
/* The index of the category called key, added with `color` when new;
 * (size_t)-1 when out of memory. */
size_t tf_figure_category(struct tf_figure *f, const char *key, uint32_t color);
/* Appends a counter lane (rows 1, kind TF_LANE_COUNTER, no samples yet);
 * returns it. */
struct tf_lane *tf_figure_add_counter(struct tf_figure *f, const char *label, const char *unit,
                                      uint32_t color);
/* Appends a sample to counter lane `lane`; false when out of memory. */
bool tf_counter_add(struct tf_lane *lane, int64_t t_ns, double x, double v);
/* Appends a zeroed bar; returns it. */
struct tf_bar *tf_figure_add_bar(struct tf_figure *f);
/* Gives a bar its properties (copied). */
bool tf_figure_bar_props(struct tf_figure *f, struct tf_bar *b, const struct tf_prop *props,
                         size_t n);
/* Gives a dense bar its shares (copied). */
bool tf_figure_bar_shares(struct tf_figure *f, struct tf_bar *b, const struct tf_share *s,
                          size_t n);
/* A dense bar's share of class `cat` (0 when it has none). */
double tf_bar_share(const struct tf_bar *b, size_t cat);
/* Appends a dense bar's shares as a JSON object, {"CLASS": share, ...}
 * (CLASS: tf_category_class, each once: the shares of one class summed;
 * shares with `decimals` digits): the model's
 * "busy" and the SVG's data-busy. */
void tf_bar_busy_json(struct tf_buf *out, const struct tf_figure *f, const struct tf_bar *b,
                      int decimals);
bool tf_figure_add_legend(struct tf_figure *f, const char *label, size_t cat);
bool tf_figure_add_note(struct tf_figure *f, const char *note);
bool tf_figure_add_arrow(struct tf_figure *f, const struct tf_arrow *a);
/* A top-level property (key and value copied; value NULL is null). */
bool tf_figure_add_prop(struct tf_figure *f, const char *key, const char *value, bool number);
bool tf_panel_add_prop(struct tf_figure *f, const char *key, const char *value, bool number);
struct tf_slice *tf_panel_add_slice(struct tf_figure *f);
/* Sets the ticks (values in axis units); labels get the fewest decimals
 * that tell them apart (tf_num_decimals). */
bool tf_figure_set_ticks(struct tf_figure *f, const double *ticks, size_t n);
/* title and desc: desc is `subject` followed by the window, the bars and
 * the lanes, and the panel's slices (for screen readers and PDF metadata). */
bool tf_figure_describe(struct tf_figure *f, const char *title, const char *subject);

/* ns per unit of an axis or clock unit: "s", "ms" (and NULL), "ns", else
 * microseconds ("us", "\xC2\xB5s"). */
double tf_unit_ns(const char *unit);

/* --- the frame (frame.c) ------------------------------------------------------ */

/* The time axis's unit for a window span_ns long: s from 10 s, ms from
 * 10 ms, else us ("\xC2\xB5s"); *per: ns per unit. */
void tf_frame_unit(int64_t span_ns, const char **unit, double *per);

/* A trace timeline's frame: the window [w0, w1] (ns on the trace clock,
 * which the figure shows in us), an axis span_ns long in units of `per` ns
 * named `unit`, with MaxNLocator ticks of at most `bins` intervals. */
struct tf_frame {
    int64_t w0, w1, span_ns;
    const char *unit;
    double per;
    int bins;
};
/* Sets the window, x_span, the torn sides' amplitude, the axis ("Time
 * (unit)") and its ticks; false when out of memory. */
bool tf_figure_frame(struct tf_figure *f, const struct tf_frame *fr);
/* The nominal canvas of a flame timeline of `rows` rows: width_pt wide
 * (0: TF_FRAME_WIDTH_PT), 60 + 15 per row + 40 high, at least 160. */
#define TF_FRAME_WIDTH_PT 720.0
void tf_figure_frame_size(struct tf_figure *f, double width_pt, double rows);

/* Frees what a struct tf_stats holds and zeroes it. */
void tf_stats_fini(struct tf_stats *s);

/* --- composing: a figure of several traces (compose.c) ----------------------
 * dst is the figure of several, src one trace's figure; strings are copied,
 * src is left as it was (but for its stats, moved into the trace). */

/* Appends src as the next trace of dst: its lanes (their trace set), its
 * bars, arrows and counter samples with x mapped to x * k + dx (src's axis
 * units to dst's; bars first cut to src's own axis; a sample keeps its
 * time on src's clock), its categories merged into dst's by
 * key (a bar drawn in its category's colour takes dst's colour for it),
 * its legend entries that dst lacks, its notes after "TITLE: ".  `ref` describes the trace (strings copied;
 * first_lane, n_lanes and stats are set here).  False when out of memory. */
bool tf_figure_append(struct tf_figure *dst, struct tf_figure *src, const struct tf_trace_ref *ref,
                      double k, double dx);
/* The same with only src's lanes lanes[0 .. n), in that order (each
 * once): their bars, the arrows between them, the legend entries whose
 * category their bars ink; src's notes are not copied (the caller says
 * them once for all its traces).  lanes NULL: every lane, and its notes.
 * Its statistics are moved only with `stats` (otherwise src keeps them
 * and the trace has their --annotate line only: a trial), their lanes
 * made the kept ones' (a lane not kept leaves its group and its counter
 * row). */
bool tf_figure_append_lanes(struct tf_figure *dst, struct tf_figure *src,
                            const struct tf_trace_ref *ref, double k, double dx,
                            const size_t *lanes, size_t n, bool stats);
/* Moves src's statistics into dst's trace `trace`, which src was
 * appended as, every lane, without them (a trial that is kept). */
bool tf_figure_take_stats(struct tf_figure *dst, size_t trace, struct tf_figure *src);
/* dst's category for c (added when dst has none of its class), as
 * tf_figure_append merges them; (size_t)-1 when out of memory. */
size_t tf_figure_merge_category(struct tf_figure *dst, const struct tf_category *c);
/* A legend entry dst lacks (same label and category), appended; false
 * when out of memory. */
bool tf_figure_merge_legend(struct tf_figure *dst, const char *label, size_t cat);
/* Appends a trace entry without lanes or statistics (ref's strings
 * copied); its index, SIZE_MAX when out of memory. */
size_t tf_figure_add_trace(struct tf_figure *dst, const struct tf_trace_ref *ref);
/* The faded ink of a highlight: rgb's hue at a low saturation, light. */
uint32_t tf_color_faded(uint32_t rgb);
/* A text colour that reads on the fill rgb (black or white). */
uint32_t tf_color_text_on(uint32_t rgb);

/* --- reading (back-ends) ---------------------------------------------------- */

/* A category's colour class as the model and data-busy name it: its
 * legend label, else its name, else its key. */
const char *tf_category_class(const struct tf_category *c);
/* The first property called key, or NULL. */
const struct tf_prop *tf_prop_find(const struct tf_prop *props, size_t n, const char *key);
/* The counter lanes (kind TF_LANE_COUNTER) among the figure's lanes. */
size_t tf_figure_counters(const struct tf_figure *f);
/* Sub-rows of all lanes together (>= 1). */
unsigned tf_figure_rows(const struct tf_figure *f);

/* The part of a bar inside the window: x0/x1 clamped to [0, x_span].  (The
 * PyTorch mode keeps the reference's unclipped extent in the model.) */
void tf_bar_drawn_extent(const struct tf_figure *f, const struct tf_bar *b, double *x0,
                         double *x1);

/* The outline of a bar: x in axis units, y from y_bottom to y_top (any
 * units), with zigzag teeth on clipped sides (counter-clockwise from the
 * bottom-left).  Writes at most TF_BAR_OUTLINE_MAX points to xs/ys and
 * returns the count.  Shared by the layout and TikZ. */
#define TF_BAR_OUTLINE_MAX (4 + 2 * (2 * TF_ZIGZAG_TEETH + 1))
size_t tf_bar_outline(const struct tf_figure *f, const struct tf_bar *b, double y_bottom,
                      double y_top, double *xs, double *ys);

#endif
