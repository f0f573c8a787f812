/* plan.h - the layout policy: from a figure and the size asked, what goes
 * where.  One place decides, for every back-end:
 *
 *   - the canvas (width, height) and the text sizes;
 *   - the lane labels: their text (full, or short under a process header,
 *     or elided in the middle), and where they go (left of the plot, above
 *     their lanes inside it, or nowhere);
 *   - the label column, the rows (their height within the height budget,
 *     the nesting depth drawn, the lanes drawn);
 *   - the ticks, the legend grid, the side panel's place (beside the plot
 *     or under it), the annotation's lines.
 *
 * layout.c places what the plan says (SVG, PDF, PNG); json.c writes the
 * plan's "layout"; tikz.c writes the plan's candidates and the thresholds
 * (tf_plan_limits) for TeX, which measures them with the document's fonts
 * and takes the first that fits by the same rules.
 *
 * Two policies.  A seed-mode figure (timeline, pytorch) with no size option
 * keeps the reference script's layout (10 in wide, its text sizes): its
 * golden files and parity stay exact.  Every other figure is FIT to its
 * width: the plot comes first and everything else gives way.
 *
 * Ownership: tf_plan_make fills a caller-owned plan (tf_plan_fini frees
 * it); its strings live in the plan's arena or the figure's. */
#ifndef TF_PLAN_H
#define TF_PLAN_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/num.h"
#include "base/ticks.h"
#include "model/figure.h"

enum tf_label_place { TF_LABELS_AUTO = 0, TF_LABELS_LEFT, TF_LABELS_ABOVE, TF_LABELS_NONE };

/* The size options (--width, --height, --font-size, --label-width,
 * --labels); 0 and AUTO: not given. */
struct tf_size {
    double width_pt, height_pt, font_pt, label_w_pt;
    enum tf_label_place labels;
    bool given; /* any of them given (also --labels auto) */
};

/* Thresholds of the fit policy: one table, used here and written into
 * every TikZ figure, so C and TeX decide alike. */
struct tf_plan_limits {
    double label_share;     /* lane labels take at most this share of the width */
    double above_below_pt;  /* narrower figures put labels above their lanes */
    double elide_min_chars; /* a label elided to fewer characters goes above */
    double panel_share;     /* the side panel beside the plot takes at most this share */
    double height_max_pt;   /* the height budget: at most this (0.6 \textheight) */
    double height_per_w;    /* ... and at most this times the width */
    double height_min_pt;   /* ... but never less than this */
    double row_min_em;      /* rows get no thinner than this (x the base font) */
    double row_em;          /* a row's natural height (x the base font) */
    double font_min_pt;     /* no text smaller */
    double font_max_pt;     /* the default base font from this width on */
    double font_per_w;      /* the default base font: width / this, clamped */
};
extern const struct tf_plan_limits tf_plan_limits;

/* The default canvas width of a fit figure without --width: the column of
 * a two-column paper (the man page says why). */
#define TF_PLAN_DEFAULT_W 240.0

struct tf_plan_box {
    double x0, y0, x1, y1; /* points, y down */
};

/* A counter lane's height, in rows (never cut by the depth), and the
 * share of its band left above its greatest value and below its least. */
#define TF_PLAN_COUNTER_ROWS 2
#define TF_PLAN_COUNTER_PAD 0.12

struct tf_plan_lane {
    const char *text; /* as drawn (NULL with labels none) */
    const char *tip;  /* the full label, for its tooltip */
    unsigned rows;    /* rows drawn (the depth cut) */
    double band;      /* top of its band (its header and label above it, if any) */
    double top;       /* top of its first row */
    double bottom;    /* end of its band */
    double label_y;   /* the label's baseline */
    double label_x;   /* the label's anchor x (its end when left, its start when above) */
    /* A counter lane: its scale's labels (NULL: none), the greatest value
     * at the band's top right, the least at its bottom right (lo_text NULL
     * when the band is too low for two lines, or the series is flat). */
    const char *hi_text, *lo_text;
};

struct tf_plan_header {
    const char *text;
    size_t first, n; /* its lanes */
    double y;        /* baseline */
};

struct tf_plan_tick {
    double v;      /* axis units */
    double x;      /* points */
    const char *label;
    bool drawn;    /* its label is drawn (the reference drops colliding ones) */
};

struct tf_plan_legend {
    size_t ncol, nrow;
    double *col_w;      /* ncol widths */
    const char **text;  /* per entry, as drawn (elided when wider than the figure) */
    /* The entries drawn, in order (indices into the figure's legend): all
     * of them, less those whose every bar the plan left out. */
    size_t *order;
    size_t n;
    /* The key to share bars (TF_SHARE_KEY_TEXT), drawn when the plan
     * bins at least one dense bar: the entry whose index in order is the
     * figure's n_legend (text[n_legend] is its text; it has no category). */
    bool share_key;
    double x0, y0, w, h;
    double size, pad, row_h, handle_w, handle_h, textpad, colspace, spacing;
};

/* The share key's text: a share bar's height is its classes' busy share
 * of its width, one point. */
#define TF_SHARE_KEY_TEXT "busy share of 1 pt"

/* A mark as placed (plan_marks.c), in points: the plan makes it once, and
 * every back-end draws it so.  x0..x1 its extent (a callout's: its
 * event's); y its line (a span's bracket, a measure's dimension line, a
 * callout's event row's middle); y0..y1 what hangs from it (a span's end
 * ticks go down to y1; a measure's end ticks y0..y1; a region's band).
 * The label: its text as drawn (NULL: none, or no room), its box, and its
 * baseline's start; a leader from (lx0, ly0) to (lx1, ly1) when it stands
 * beside what it names. */
struct tf_plan_mark {
    size_t mark;          /* index into the figure's marks */
    double x0, x1, y, y0, y1;
    unsigned row;         /* a span's row above the plot (0: nearest) */
    const char *text;
    struct tf_plan_box box;
    double tx, ty;        /* the label's baseline start */
    bool leader;
    double lx0, ly0, lx1, ly1;
};

struct tf_binned; /* below */
struct tf_plan_zoom; /* below */

struct tf_plan {
    bool fit;            /* the fit policy (else the reference's layout) */
    double W, H;         /* canvas, points */
    double font;         /* the base text size */
    double margin;       /* canvas edge to any text */
    bool bold;           /* text weight (the reference sets everything bold) */
    double f_lane, f_header, f_tick, f_axis, f_legend, f_inbar, f_note;
    double f_counter;    /* a counter track's scale labels */
    enum tf_label_place labels;
    double label_w;      /* the label column (labels left), else 0 */
    double label_h;      /* the band a label takes above its lane (labels above) */
    struct tf_plan_box plot;
    double row_h;
    unsigned depth;      /* rows drawn per lane at most */
    size_t n_lanes;      /* lanes drawn: the first n_lanes of the figure */
    struct tf_plan_lane *lanes;
    struct tf_plan_header *headers;
    size_t n_headers;
    struct tf_plan_tick *ticks;
    size_t n_ticks;
    double tick_base;    /* tick label baseline */
    double axis_base;    /* axis title baseline */
    bool bottom_legend;
    struct tf_plan_legend legend;
    bool panel;          /* a side panel */
    bool panel_below;    /* ... under the timeline */
    struct tf_plan_box pbox;  /* the panel's plot */
    double ptick_base, paxis_base;
    double annot_y;      /* top of the annotation's first line */
    const char **annot;  /* its lines */
    size_t n_annot;
    double annot_size;
    /* The marks (plan_marks.c), in the figure's order but highlights;
     * f_mark their labels' size; marks_h the band above the plot that
     * holds the spans' rows (marks_rows of them, marks_row_h each). */
    struct tf_plan_mark *marks;
    size_t n_marks;
    double f_mark, marks_h, marks_row_h;
    unsigned marks_rows;
    size_t marks_dropped; /* labels left out: no room */
    /* What the plan left out, for a note (lanes and nesting rows; of
     * these, annotations of GPU work). */
    size_t cut_lanes, cut_rows, cut_annots;
    const char *note;    /* the note saying so, or NULL */
    /* The bars as drawn at this plot width (tf_plan_bin, once per plan);
     * tf_plan_drawn hands them to a back-end in a copy of the figure. */
    struct tf_binned *bins;
    /* --zoom (tf_plan_zooms): the zoom panels in one row under the main
     * panel, in time order (NULL: none). */
    struct tf_plan_zoom *zooms;
    size_t n_zooms;
    struct tf_arena arena;
};

/* A zoom panel (plan_zoom.c): the plan of its figure alone (model/figure.h,
 * struct tf_zoom) at the panel's width, made as any figure's at that
 * width with the main plan's base font and labels none (or above, when
 * its lanes do not line up with the main panel's), and moved by (dx, dy)
 * onto the canvas, where only its timeline is drawn (no legend: the main
 * one holds its classes).  box: its plot on the canvas; top: its
 * panel's top (the connectors' lower ends); band_x0..band_x1: its range
 * over the main plot (the band, and the connectors' upper ends at the
 * main plot's bottom). */
struct tf_plan_zoom {
    size_t zoom;
    struct tf_plan plan;
    struct tf_size size;
    double dx, dy;
    struct tf_plan_box box;
    double top, bottom;
    double band_x0, band_x1;
};

/* The zoom panels of f (f->zooms) into p, made by tf_plan_make for the
 * size asked: the row goes under the main panel's axis, and what the plan
 * put below it (legend, panel, annotation) moves down.  False when out of
 * memory (p then has no zooms). */
bool tf_plan_zooms(const struct tf_figure *f, const struct tf_size *size, struct tf_plan *p);
/* tf_plan_make then tf_plan_zooms; a fit figure whose zooms' row takes it
 * past its height budget (no --height) is planned again with its main
 * panel that much lower (fewer nesting rows, in the plan's note), down to
 * half its own height.  False when out of memory. */
bool tf_plan_make_zoomed(const struct tf_figure *f, const struct tf_size *size, struct tf_plan *p);

/* Fills *p (caller-owned; tf_plan_fini after, also on failure).  False
 * when out of memory. */
bool tf_plan_make(const struct tf_figure *f, const struct tf_size *size, struct tf_plan *p);
void tf_plan_fini(struct tf_plan *p);

/* A lane's rows (plan_rows.c).  tf_plan_row: the row a bar of `lane` in
 * `row` is drawn in, TF_PLAN_NO_ROW when it is not (its lane is not drawn,
 * or its row is cut).  Rows are cut from the bottom, except that a lane's
 * annotations of GPU work (its first tf_lane.annot_rows rows) give way
 * first: the lane keeps its work's rows, moved up, and as many of the
 * annotations' rows above them as remain; a lane that keeps its inner rows
 * (tf_lane.keep_inner) folds the rows below its last drawn one into it,
 * each drawn over the one it is nested in.  tf_plan_row_under: whether a
 * bar of `row` is so folded under deeper ones (its in-bar label is left
 * out: the bars over it would cross it).  tf_plan_row_drawn: the same for
 * a lane that draws `drawn` of its rows.  tf_plan_lane_rows: the rows a
 * lane has (a counter lane TF_PLAN_COUNTER_ROWS); tf_plan_rows_at: those
 * it draws at depth d (a counter lane's are never cut). */
#define TF_PLAN_NO_ROW UINT_MAX
unsigned tf_plan_row(const struct tf_plan *p, const struct tf_figure *f, size_t lane,
                     unsigned row);
bool tf_plan_row_under(const struct tf_plan *p, const struct tf_figure *f, size_t lane,
                       unsigned row);
unsigned tf_plan_row_drawn(const struct tf_lane *ln, unsigned drawn, unsigned row);
/* The row bar b is drawn in: tf_plan_row's, except that a bar of the
 * critical path (tf_bar.critical) in a row the height cuts is drawn in its
 * lane's last drawn row, over the slice it is nested in. */
unsigned tf_plan_bar_row(const struct tf_plan *p, const struct tf_figure *f,
                         const struct tf_bar *b);
unsigned tf_plan_lane_rows(const struct tf_lane *ln);
unsigned tf_plan_rows_at(const struct tf_lane *ln, unsigned d);

/* The bars as drawn at a plot width (plan_busy.c): `fig` is a shallow
 * copy of the figure `f` whose bars are `bars` (a flame chart's rows cut
 * in bins of TF_LOD_PT, slices thinner than a bin drawn as busy shares;
 * any other figure's bars as they are).  Valid while f is; tf_plan_bin
 * fills a caller-owned struct, tf_plan_bin_fini frees it (also after a
 * failure, which is out of memory). */
struct tf_binned {
    struct tf_figure fig;
    const struct tf_figure *f;
    struct tf_bar *bars;
    size_t n_bars, cap_bars;
    double bin_w;          /* axis units (0: not binned) */
    struct tf_lane *lanes; /* f's lanes with their counters thinned, or NULL */
    struct tf_arena arena; /* the new bars' shares and tooltips, the lanes */
};
bool tf_plan_bin(const struct tf_figure *f, double plot_w_pt, struct tf_binned *out);
/* A plan's bins on the heap, into *bins (NULL when out of memory before
 * they exist): *reuse, bins an earlier plan of the same figure made at
 * reuse_w, when that is plot_w_pt (the width alone decides them), else
 * made anew; *reuse is taken either way (NULL after).  tf_plan_bins_free
 * frees such bins (NULL: nothing).  False when out of memory. */
bool tf_plan_bins(const struct tf_figure *f, double plot_w_pt, struct tf_binned **bins,
                  struct tf_binned **reuse, double reuse_w);
void tf_plan_bins_free(struct tf_binned *b);

/* The most samples all counter tracks of a figure draw together (about
 * 100 KB of SVG). */
#define TF_PLAN_COUNTER_SAMPLES 3125
/* Each counter track of f thinned per bin of bw axis units (and coarser
 * until they fit TF_PLAN_COUNTER_SAMPLES; plan_counters.c), into
 * out->lanes; nothing when f has no counter track.  False when out of
 * memory. */
bool tf_plan_thin_counters(const struct tf_figure *f, double bw, struct tf_binned *out);
void tf_plan_bin_fini(struct tf_binned *b);

/* The figure a back-end draws with plan p: *tmp, a shallow copy of f with
 * the plan's binned bars (f itself when the plan binned nothing).  Valid
 * while f and p are.  The bars come from the plan, the rest (notes added
 * after the plan was made) from f. */
const struct tf_figure *tf_plan_drawn(const struct tf_plan *p, const struct tf_figure *f,
                                      struct tf_figure *tmp);

/* The rows of a job's overview (model/figure.h, struct tf_overview): the
 * least height of a row that reads, in points, and how many such rows the
 * height budget of a figure like f holds at this size (its categories and
 * legend count, with the share key; its lanes do not).  The caller puts
 * that many ranks' runs, or fewer, in its rows; the plan then draws them
 * all, as tall as fits. */
#define TF_PLAN_OV_ROW_MIN 2.0
size_t tf_plan_overview_rows(const struct tf_figure *f, const struct tf_size *size);
/* The most lanes any fit figure holds at this size (its rows no thinner
 * than 2 pt in its height budget; NULL: the defaults). */
size_t tf_plan_lanes_max(const struct tf_size *size);

/* Whether a figure is laid out by the fit policy at this size. */
bool tf_plan_fits(const struct tf_figure *f, const struct tf_size *size);

/* The default base font at a width. */
double tf_plan_default_font(double width_pt);

/* Candidate label texts (for TikZ): level 0 is the full label, 1 the short
 * one (under a header when the lane's process has several lanes), 2.. the
 * short one elided in the middle to at most TF_PLAN_ELIDE[level - 2]
 * characters.  header_of: the header index of each lane at level >= 1, or
 * (size_t)-1.  Fills lanes x TF_PLAN_LEVELS texts (level-major: [level *
 * n + lane]) and the headers' texts; false when out of memory. */
#define TF_PLAN_LEVELS 5
extern const unsigned TF_PLAN_ELIDE[TF_PLAN_LEVELS - 2];
struct tf_label_levels {
    const char **text;   /* TF_PLAN_LEVELS x n */
    size_t *header_of;   /* n */
    const char **headers;
    size_t n_headers;
    size_t n;
};
bool tf_plan_label_levels(const struct tf_figure *f, size_t n_lanes, struct tf_arena *a,
                          struct tf_label_levels *out);
void tf_label_levels_fini(struct tf_label_levels *l);

/* A figure of several traces (plan_traces.c): the headers and short labels
 * by trace (tf_plan_label_levels calls it): a trace of one lane labelled by
 * its title; each other trace's lanes under "TITLE · PROCESS" for a run of
 * one process's lanes (named by thread), else under "TITLE" with their
 * full labels.  The full label (level 0, without headers) is then "TITLE ·
 * LABEL", or TITLE for a trace of one lane. */
bool tf_plan_trace_groups(const struct tf_figure *f, size_t n, struct tf_arena *a,
                          struct tf_label_levels *out, const char **shrt);
/* The lanes [i, j) of one process under header h: each named by thread
 * (shrt[k]), with its id when two names are alike; false when out of
 * memory (plan_traces.c). */
bool tf_plan_process_run(const struct tf_figure *f, size_t i, size_t j, size_t h,
                         struct tf_arena *a, struct tf_label_levels *out, const char **shrt);

/* s elided to at most max code points keeping its last `tail` (plan.c
 * says how); legend entry i of f elided to max code points, keeping the
 * part that tells it from the other entries.  Into the arena. */
const char *tf_plan_elide_chars(struct tf_arena *a, const char *s, size_t max, size_t tail);
const char *tf_plan_elide_distinct(struct tf_arena *a, const struct tf_figure *f, size_t i,
                                   size_t max);

/* A counter's value as its scale labels show it: three significant
 * digits, an SI prefix from k on ("2.79 GB" with unit "B", "1.5k"
 * without; "2.11 G" with unit "#", a count), into out (at least
 * TF_PLAN_VALUE_MAX bytes). */
#define TF_PLAN_VALUE_MAX (TF_NUM_MAX + 32)
const char *tf_plan_counter_value(char *out, double v, const char *unit);

/* The vertical place of value v in a counter band, as a share of its
 * height from the top (0 .. 1): the scale runs from lo at the bottom to hi
 * at the top, inside a pad; a flat series (lo == hi) sits in the middle.
 * Shared by the layout and TikZ. */
double tf_plan_counter_y(const struct tf_counter *k, double v);

/* The rule for a row of tick labels, left to right: a label w wide at x,
 * kept inside the margins of a canvas W wide (its centre in *cx), is
 * drawn unless it would come closer than the style's tick gap to the one
 * drawn before, which ended at *end (-1e300 before the first); *end moves
 * past a label drawn.  The plan thins the time axis with it and the
 * layout the panel's axis. */
bool tf_plan_tick_clear(double x, double w, double margin, double W, double *end, double *cx);

/* The tick sets the fit policy tries, in order (render/style.h: the
 * mode's when it has at least tick_min_n ticks, then MaxNLocator with
 * tick_bins_max .. 1 bins, a set of fewer than tick_min_n only at 1 bin),
 * each distinct set once: the plan takes the first whose labels keep
 * apart, else sets[*last] (the 1-bin locator's); TikZ writes them all for
 * TeX to choose the same way.  *mode: sets[0] is the mode's (its labels are
 * the axis's).  Returns how many. */
#define TF_PLAN_TICK_SETS 8
size_t tf_plan_tick_sets(const struct tf_figure *f, double (*sets)[TF_TICKS_MAX], size_t *ns,
                         size_t *last, bool *mode);
/* The width of s as it will be drawn (cleaned as tf_xml_clean does), in
 * points. */
double tf_plan_text_width(const char *s, double size, bool bold);
/* Words of s into lines of at most `avail` points at `size`: p->annot and
 * p->n_annot (the plan's arena holds the lines).  False when out of memory. */
bool tf_plan_wrap_lines(struct tf_plan *p, const char *s, double size, double avail);
/* The code points at the end of legend entry i that tell it from the other
 * entries (0: none shares a prefix with it). */
size_t tf_plan_legend_tail(const struct tf_figure *f, size_t i);

/* Middle elision of s to at most max_w points at `size` (bold or not),
 * keeping `keep_tail` code points of its end when it can (0: halves); into the arena. */
const char *tf_plan_elide(struct tf_arena *a, const char *s, double max_w, double size,
                          bool bold, size_t keep_tail);

#endif
