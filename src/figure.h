/* figure.h - the figure model: WHAT is drawn, in data units.
 *
 * The rules (timeline.c, breakdown.c, pytorch.c) build it from the trace
 * model; `--format json` prints it as it is; layout.c turns it into a scene
 * of primitives in points; tikz.c writes it for TeX to lay out.  Nothing
 * here knows about JSON input or about any output language.
 *
 * x is in ms from the window start (0 .. window_end - window_start).  Lanes
 * are listed top to bottom; bars are in drawing order (later bars paint over
 * earlier ones).  All strings are owned by the figure, or are static.
 */
#ifndef TF_FIGURE_H
#define TF_FIGURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "trace.h"

enum tf_mode { TF_MODE_TIMELINE = 0, TF_MODE_PYTORCH = 1 };

/* Colours as 0xRRGGBB (the reference's palette). */
#define TF_COLOR_IO 0xB8B8B8u
#define TF_COLOR_WAIT_FOR_IO 0xD35400u
#define TF_COLOR_AWAIT_DISPATCH 0xE67E22u
#define TF_COLOR_TRSM_HOST 0x5B2C6Fu
#define TF_COLOR_GPU0 0x2E8B57u
#define TF_COLOR_GPU1 0x3DA56Au
#define TF_COLOR_BLACK 0x000000u
#define TF_COLOR_WHITE 0xFFFFFFu
#define TF_COLOR_CAST 0xAA3377u
#define TF_COLOR_TRSM 0x004488u
#define TF_COLOR_GEMM_CHOL 0xC9A227u

/* Constants of the reference's figure rules. */
#define TF_MAIN_MIN_MS 1.0
#define TF_LABEL_MIN_MS 40.0
#define TF_EDGE_CLIP_EPS_MS 0.5
#define TF_ZIGZAG_TEETH 4
#define TF_ZIGZAG_AMP_FRAC 0.012
#define TF_ZIGZAG_AMP_MIN_MS 6.0
#define TF_ZIGZAG_AMP_MAX_MS 14.0
#define TF_ZIGZAG_MAX_WIDTH_FRAC 0.35
#define TF_WINDOW_PAD_FRAC 0.03
#define TF_DEFAULT_NUM_CANDIDATES 3
#define TF_IN_BAR_LABEL_MIN_PCT 10.0
#define TF_WHITE_TEXT_MIN_PCT 20.0 /* strictly above: white text */
#define TF_MIN_BAR_VIS_PCT 1.2
/* The narrowest window the rules hand to back-ends (1 ns): below it there is
 * nothing to draw, and no axis can be scaled. */
#define TF_MIN_SPAN_MS 1e-6

/* Figure geometry (inches / points) the reference fixes. */
#define TF_FIG_WIDTH_IN 10.0
#define TF_FIG_BASE_HEIGHT_IN 2.2
#define TF_FIG_MAIN_EXTRA_IN 0.55
#define TF_FIG_BOTTOM_EXTRA_IN 0.42
#define TF_BAR_EDGE_PT 0.6
#define TF_BAR_ANNOT_PT 8.5
#define TF_LEGEND_PT 9.0
#define TF_TICK_PT 11.44  /* seaborn "paper" context, font_scale 1.3 */
#define TF_LABEL_PT 12.48

enum { TF_MAX_LANES = 16, TF_MAX_LEGEND = 8, TF_MAX_SLICES = 8, TF_MAX_TICKS = 32 };

struct tf_lane {
    char id[16];    /* "main", "io", "gpu0", "gpu1", "gpu2", ...; "gpu" in pytorch mode */
    char label[32]; /* "Main Thread", "GPU Stream 2", ... */
};

struct tf_bar {
    int lane;            /* index into figure.lanes */
    const char *name;    /* static: "hdf5_io", "compute", "wait_for_io", ... */
    bool has_candidate;  /* false in pytorch mode */
    long long candidate;
    double start_ms;     /* the whole event, trace clock */
    double dur_ms;
    double x0, x1;       /* drawn extent, ms from the window start */
    bool clip_left, clip_right;
    bool has_label;
    char label[24];      /* in-bar text when has_label */
    uint32_t color;      /* face colour */
    uint32_t label_color;/* black on I/O bars, white elsewhere */
};

struct tf_legend_entry {
    const char *label; /* static, UTF-8 ("Ready → launch") */
    uint32_t color;
};

struct tf_slice {
    const char *key;   /* static: "cast", "trsm", "gemm_chol" */
    const char *label; /* static: "Preprocess", ... */
    double pct;        /* share of the GPU total */
    double width_pct;  /* drawn width after the 1.2 % minimum, normalised */
    uint32_t color;
    bool has_text;
    char text[32];     /* "18%" when has_text (room for any double's %.0f) */
    uint32_t text_color;
};

struct tf_breakdown {
    bool has_candidate;
    long long candidate;
    char title[40]; /* "Candidate 5" or "Candidate ?" */
    struct tf_slice slices[TF_MAX_SLICES];
    size_t n_slices;
};

struct tf_figure {
    enum tf_mode mode;
    bool has_start_candidate; /* false in pytorch mode */
    long long start_candidate;
    int num_candidates;
    double window_start_ms; /* trace clock */
    double window_end_ms;
    double zigzag_amp_ms;   /* clamp(1.2 % of span, 6, 14) */
    struct tf_lane lanes[TF_MAX_LANES];
    size_t n_lanes;
    struct tf_bar *bars;
    size_t n_bars;
    size_t cap_bars;
    struct tf_legend_entry legend[TF_MAX_LEGEND];
    size_t n_legend;
    bool has_breakdown;
    struct tf_breakdown breakdown;
    double xticks[TF_MAX_TICKS]; /* major ticks inside [0, span] */
    size_t n_xticks;
    /* Layout hints carried from the command line. */
    bool has_legend_y;
    double legend_y;   /* --legend_y: legend row height relative to the plot row */
    bool has_main_lane;
};

void tf_figure_init(struct tf_figure *f);
void tf_figure_fini(struct tf_figure *f);
/* Appends a bar; returns a pointer to it, or NULL when out of memory. */
struct tf_bar *tf_figure_add_bar(struct tf_figure *f);
/* The span of the x axis: window_end - window_start. */
double tf_figure_span(const struct tf_figure *f);

/* Options of the rules, from the command line. */
struct tf_rules_opts {
    struct tf_opt_int start_candidate; /* --start_candidate, else --focus_candidate */
    struct tf_opt_int num_candidates;  /* --num_candidates */
    bool has_min_runtime_pct;
    double min_runtime_pct;            /* --min_runtime_pct */
    bool has_legend_y;
    double legend_y;                   /* --legend_y */
};

/* timeline.c: the reference's plot_manual_timeline rules.  `bd` may be NULL
 * (no breakdown file).  Returns false with a message in *d on bad input
 * (e.g. no events in the window). */
bool tf_timeline_figure(const struct tf_timeline *t, const struct tf_breakdown_in *bd,
                        const struct tf_rules_opts *o, struct tf_figure *out,
                        struct tf_diag *d);

/* breakdown.c: slices of the GPU breakdown panel.  Leaves out->has_breakdown
 * false when the panel is hidden (total <= 0). */
void tf_breakdown_figure(const struct tf_breakdown_in *bd, double min_runtime_pct,
                         struct tf_figure *out);

/* pytorch.c: the reference's plot_pytorch_trace rules, improved (zigzags,
 * legend, --start_candidate). */
bool tf_pytorch_figure(const struct tf_pytorch *p, const struct tf_rules_opts *o,
                       struct tf_figure *out, struct tf_diag *d);

/* ticks.c: matplotlib's MaxNLocator (steps 1, 2, 2.5, 5, 10) for [vmin, vmax]
 * with at most nbins intervals; writes the ticks inside [vmin, vmax] and
 * returns how many (at most max_out). */
size_t tf_nice_ticks(double vmin, double vmax, int nbins, double *out, size_t max_out);

/* The fewest decimals (0..9) that print every tick exactly: the labels of
 * a 0.25-ms step need 2, of a 200-ms step none.  Shared by every back-end
 * so ticks never print as duplicates. */
int tf_tick_decimals(const double *ticks, size_t n);

/* The outline of a bar in data units: x in ms from the window start, y from
 * y_bottom to y_top (any units), with zigzag teeth on clipped sides, as the
 * reference draws it (counter-clockwise from bottom-left).  Writes at most
 * TF_BAR_OUTLINE_MAX points to xs/ys and returns the count. */
#define TF_BAR_OUTLINE_MAX (4 + 2 * (2 * TF_ZIGZAG_TEETH + 1))
size_t tf_bar_outline(const struct tf_figure *f, const struct tf_bar *b, double y_bottom,
                      double y_top, double *xs, double *ys);

/* The part of a bar inside the window, in ms from its start: x0/x1 clamped
 * to [0, span].  Timeline bars are inside already; PyTorch-mode bars keep
 * the reference's unclipped extent in the model, so drawing uses this. */
void tf_bar_drawn_extent(const struct tf_figure *f, const struct tf_bar *b, double *x0,
                         double *x1);

/* The tooltip text of a bar: "HDF5 read · candidate 6 · 280.9 ms". */
void tf_bar_tooltip(const struct tf_bar *b, char *out, size_t n);

/* Human name of a bar's event ("HDF5 read", "GPU compute", ...). */
const char *tf_bar_title(const struct tf_bar *b);

#endif
