/* tikz_int.h - the TikZ back-end's parts (tikz.c: its entry;
 * tikz_common.c: text, units, styles and the primitives; tikz_fit.c: the
 * figure fit to its width by templates/tikz-fit.tex).  Internal to
 * render/. */
#ifndef TF_TIKZ_INT_H
#define TF_TIKZ_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/diag.h"
#include "model/figure.h"
#include "render/render.h"

#define DEC 3

enum { KEY_LEN = 64 };

/* A named style: tracefig/<key> = {<prop>=tracefig-<colour name>}. */
struct style {
    char key[KEY_LEN];
    char color[KEY_LEN + 16];
    const char *prop; /* "fill", "text" or "draw" */
    uint32_t rgb;
    bool lost; /* the style of TF_LOST_CAT's bars: hatched (\tracefighatch) */
};

/* One class's busy-share boxes of the lane being written, as a path. */
struct tz_fill {
    size_t cls;         /* its class (tz_class) */
    size_t n;           /* boxes */
    struct tf_buf path; /* "\tracefigR{x0}{y0}{x1}{y1}" each */
};

struct tikz {
    const struct tf_figure *f;
    bool share_key; /* the plan's legend has the key to share bars */
    struct tf_buf *b;
    int exp10;       /* x unit = 10^exp10 ms */
    double span;     /* in x units */
    struct style *styles;
    size_t n_styles, cap_styles;
    bool oom;        /* the style table could not grow */
    char (*cat_key)[KEY_LEN]; /* per category: its style name (tz_cat_keys) */
    struct tz_fill *fills;    /* the lane's share boxes, per class (tz_flush_shares) */
    size_t n_fills, cap_fills;
    /* Classes: the TikZ options of each kind of ink, read once by TeX
     * (\tracefigclass), then drawn in runs (\tracefigrun). */
    char **classes;
    size_t n_classes, cap_classes;
    size_t run;      /* the class of the open run, or TZ_NO_RUN */
    size_t run_n;    /* its items so far */
    char opts[4 * KEY_LEN + 96]; /* a class's options, being made */
    /* --zoom: k + 1 while zoom panel k of the row is written, else 0. */
    size_t zoom_panel;
};

#define TZ_NO_RUN ((size_t)-1)

/* Frees what t holds (not t->f or t->b). */
void tz_fini(struct tikz *t);

/* Free text for TeX (non-ASCII as commands). */
void tz_text(struct tf_buf *b, const char *s);
/* A number with DEC decimals; ms from the window start in x units. */
void tz_num(struct tikz *t, double v);
double tz_xu(const struct tikz *t, double ms);
bool tz_pick_unit(struct tikz *t, double span_ms, struct tf_diag *d);
/* Styles: the categories' unique names, then the styles a figure uses. */
bool tz_cat_keys(struct tikz *t);
struct style *tz_bar_style(struct tikz *t, const struct tf_bar *r);
struct style *tz_legend_style(struct tikz *t, size_t i);
/* The share key's style (written here, only in figures that use it), then
 * its legend entry's opening "\tracefiglegendentry{share key}{TEXT}". */
void tz_share_key_entry(struct tikz *t);
struct style *tz_slice_style(struct tikz *t, const struct tf_slice *s);
const char *tz_label_style(struct tikz *t, uint32_t rgb);
struct style *tz_counter_style(struct tikz *t, uint32_t rgb);
void tz_collect_styles(struct tikz *t);
bool tz_any_lost(const struct tikz *t);
void tz_emit_styles(struct tikz *t);
bool tz_annotated(const struct tf_figure *f);
void tz_emit_header(struct tikz *t, const struct tf_render_opts *o);
void tz_emit_label(struct tikz *t, const char *style, double x0, double x1, double y,
                   const char *text);
/* A point (x,y). */
void tz_coord(struct tikz *t, double x, double y);
/* One bar whose row starts at y0 (y in rows, down); a dense bar's busy
 * shares wait for tz_flush_shares, which writes those of a lane, one path
 * per colour, before its in-bar labels. */
void tz_emit_bar(struct tikz *t, const struct tf_bar *r, double y0);
void tz_flush_shares(struct tikz *t);
/* The class of ink drawn as a TikZ path with these options would be (its
 * id; TZ_NO_RUN when out of memory). */
size_t tz_class(struct tikz *t, const char *opts);
/* Opens a run of class cls unless one is open (closing another); closes
 * the open run.  A run's items are basic-layer path commands. */
void tz_run(struct tikz *t, size_t cls);
void tz_run_end(struct tikz *t);
/* Before the next item of the open run: a line break now and then. */
void tz_run_item(struct tikz *t);
/* "\tracefigclass{id}{options}" of every class, in order. */
void tz_emit_classes(struct tikz *t);
/* \tracefigM, \tracefigL, \tracefigR with numbers in x units and rows. */
void tz_path(struct tikz *t, const char *cmd, double x, double y);
void tz_rect(struct tikz *t, bool own, double x0, double y0, double x1, double y1);
/* The right end, in %, of a breakdown slice drawn from `left`. */
double tz_slice_right(const struct tf_slice *s, double left);
/* The breakdown panel's titles and legend entries (each label three
 * times: the fit template's candidates), after `comment`. */
void tz_emit_panel_legend(struct tikz *t, const char *comment);

struct tf_template;
/* A template, with the \tikzset defaults it leaves to the style table
 * (render/style.h: bars, flame edges, dense spans, busy shares, instants)
 * at its %%TRACEFIG-STYLE%% marker. */
void tz_put_template(struct tikz *t, const struct tf_template *tpl);

/* The fragment of a figure the fit policy lays out (tikz_fit.c). */
/* The marks the plan placed (tikz_marks.c), for templates/tikz-marks.tex. */
void tz_emit_marks(struct tikz *t, const struct tf_plan *p);

/* The zoom bands and the main plot's place (a plan with zooms), or a zoom
 * panel's plot's place (t->zoom_panel), for the row under the figure
 * (tikz_zoom.c, templates/tikz-zoom.tex). */
void tz_emit_zoom_marks(struct tikz *t, const struct tf_plan *p);

bool tz_render_fit(struct tikz *t, const struct tf_render_opts *o, const struct tf_plan *plan,
                   struct tf_diag *d);

#endif
