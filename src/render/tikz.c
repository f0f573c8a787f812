/* tikz.c - the TikZ back-end: the figure model as a TikZ picture that TeX
 * lays out, for `\input{fig.tex}` in a paper (or, with --standalone, a whole
 * document).
 *
 * IMPLEMENTATION NOTES
 *
 * What C decides and what TeX decides.  This file writes data: lanes, bars
 * (x in ms from the window start, y in lanes), in-bar labels, ticks, legend
 * entries and breakdown slices, each as one line.  Everything that depends on
 * text size is left to TeX, through the macros of templates/tikz-style.tex:
 * the figure is \tracefigwidth wide (else \linewidth); TeX measures the lane
 * labels, tick labels and legends, places the breakdown panel beside the plot
 * or below it, sets the x unit to plot width / span, and drops any in-bar
 * label wider than its bar and any tick label that would collide.
 *
 * Numbers TeX can hold.  TeX dimensions stop at 16383.99998pt and TikZ
 * parses coordinates as dimensions, so the x coordinates are kept below
 * 10000: when the span is outside 10 .. 10000 ms, x is written in units of
 * 10^k ms with k chosen so that the span is 1000 .. 10000 units, and the file
 * says so in a comment.  The x unit itself is computed by TeX with \dimexpr
 * (plot width * 65536 / span in sp), which never overflows.
 *
 * Names.  Everything the file defines is local to one group, so figures never
 * clash; styles and fonts are only defined when the document has not already
 * defined them, so a document can restyle every figure before \input.  Bar
 * styles are named after the model's categories: tracefig/<category key>
 * (the pipelined mode's are tracefig/io, tracefig/gpu0, tracefig/main/<event>,
 * ...); a bar whose colour differs from its category's gets
 * tracefig/color/RRGGBB; side-panel slices are tracefig/breakdown/<key>;
 * each gets a colour tracefig-<name>.
 *
 * The summary line (--annotate) is a node below everything else, in a font
 * relative to the document's (font "annotation", style tracefig/annotation).
 * TeX sets it once the layout is known, at most as wide as the figure
 * (wrapped, or scaled down if one word is wider: the template's
 * \tracefigfit), and centres it under the plot as far as the figure's width
 * allows, as the layout does.  Its macros are written only for annotated
 * figures, so other figures keep their bytes.
 *
 * Text.  Free text goes through tz_text(): tf_buf_tex_escape for ASCII, and
 * a table for the non-ASCII characters that need a command under pdfTeX
 * ("->" is U+2192, written $\rightarrow$), so the file compiles under
 * pdflatex, lualatex and xelatex alike.  This file knows nothing about JSON
 * traces, modes or their rules: only the figure model.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "render/render.h"
#include "render/templates.h"
#include "render/tikz_int.h"


/* --- the figure ---------------------------------------------------------------- */

static void emit_data(struct tikz *t)
{
    const struct tf_figure *f = t->f;
    struct tf_buf *b = t->b;
    tf_buf_puts(b, "% Lanes, top to bottom: the y of each lane's centre, and its label.\n"
                   "\\def\\tracefiglanes{");
    tz_num(t, t->rows);
    tf_buf_puts(b, "}%\n");
    double above = 0;
    for (size_t i = 0; i < f->n_lanes; i++) {
        double rows = f->lanes[i].rows ? f->lanes[i].rows : 1;
        tf_buf_puts(b, "\\tracefiglane{");
        tz_num(t, t->rows - above - rows / 2);
        tf_buf_puts(b, "}{");
        tz_text(b, f->lanes[i].label);
        tf_buf_puts(b, "}%\n");
        above += rows;
    }
    const char *clock = f->clock_unit ? f->clock_unit : "ms";
    const char *unit = f->axis.unit ? f->axis.unit : clock;
    char start[TF_NUM_MAX], span[TF_NUM_MAX];
    tf_fmt_num(start, f->window_start, DEC);
    tf_fmt_num(span, f->x_span, DEC);
    tf_buf_printf(b, "%% Time axis: x is the time from the window start (%s %s on the trace\n"
                     "%% clock); the window is %s %s wide.\n",
                  start, clock, span, unit);
    if (t->exp10 != 0)
        tf_buf_printf(b, "%% x unit: 1e%d %s, so that every coordinate stays far below TeX's\n"
                         "%% largest dimension (16384pt).  Tick labels are in %s.\n",
                      t->exp10, unit, unit);
    else
        tf_buf_printf(b, "%% x unit: 1 %s.\n", unit);
    tf_buf_puts(b, "\\def\\tracefigspan{");
    tz_num(t, t->span);
    tf_buf_puts(b, "}%\n");
    for (size_t i = 0; i < f->axis.n_ticks; i++) {
        tf_buf_puts(b, "\\tracefigxtick{");
        tz_num(t, tz_xu(t, f->axis.ticks[i]));
        tf_buf_puts(b, "}{");
        tf_buf_puts(b, f->axis.labels[i]);
        tf_buf_puts(b, "}%\n");
    }
    tf_buf_puts(b, "\\def\\tracefigxtitle{");
    tz_text(b, f->axis.title ? f->axis.title : "");
    tf_buf_puts(b, "}%\n");
    if (f->has_panel) {
        tz_emit_panel_legend(t, "% Breakdown panel: its title, and its legend's title and entries.\n", 1);
    } else if (f->n_legend) {
        tf_buf_puts(b, "% Legend entries: the style of the swatch, and the label.\n");
        for (size_t i = 0; i < f->n_legend; i++) {
            struct style *s = tz_legend_style(t, i);
            tf_buf_printf(b, "\\tracefiglegendentry{%s}{", s ? s->key : "bar");
            tz_text(b, f->legend[i].label ? f->legend[i].label : "");
            tf_buf_puts(b, "}%\n");
        }
        if (t->share_key) {
            tz_share_key_entry(t);
            tf_buf_puts(b, "%\n");
        }
    }
    tf_buf_puts(b, "\\tracefiglayout\n");
    if (tz_annotated(f)) {
        tf_buf_puts(b, "% The summary line, at most as wide as the figure.\n"
                       "\\tracefigfit\\tracefigannotbox{annotation}{\\tracefigW}{");
        tz_text(b, f->stats.summary);
        tf_buf_puts(b, "}%\n");
    }
    if (f->has_legend_y && !f->has_panel && f->n_legend) {
        /* As the layout: the legend row is legend_y times the plot's
         * height (clamped to 0.10 .. 2, at least the box and 4 pt), the
         * legend centred in it, below the axis title. */
        double r = f->legend_y < 0.10 ? 0.10 : f->legend_y > 2.0 ? 2.0 : f->legend_y;
        tf_buf_puts(b, "% --legend-y: the legend row's height relative to the plot's.\n"
                       "\\tracefigdim=\\dimexpr\\tracefigtitletop+\\ht\\tracefigtitlebox"
                       "+\\dp\\tracefigtitlebox\\relax\n"
                       "\\tracefigdimb=\\dimexpr\\ht\\tracefiglegendbox+\\dp\\tracefiglegendbox"
                       "+2\\tracefiglegsep\\relax\n"
                       "\\tracefigdimc=\\tracefiglanes\\tracefiglaneh \\tracefigdimc=");
        tz_num(t, r);
        tf_buf_puts(b, "\\tracefigdimc\n"
                       "\\ifdim\\tracefigdimc<\\dimexpr\\tracefigdimb+4pt\\relax"
                       "\\tracefigdimc=\\dimexpr\\tracefigdimb+4pt\\relax\\fi\n"
                       "\\tracefiglegy=\\dimexpr-\\tracefigdim-(\\tracefigdimc-\\tracefigdimb)/2"
                       "\\relax\n");
    }
    if (f->flame)
        tf_buf_puts(b, "\\tracefiglaneh=0.65\\tracefiglaneh\n");
}

/* The bottom of a bar's row, y up, in rows. */
static double bar_y0(const struct tikz *t, const struct tf_bar *r)
{
    const struct tf_lane *ln = &t->f->lanes[r->lane];
    unsigned row = r->row < (ln->rows ? ln->rows : 1) ? r->row : 0;
    return t->rows - t->above[r->lane] - (double)row - 1.0;
}

static void emit_breakdown(struct tikz *t)
{
    const struct tf_panel *bd = &t->f->panel;
    struct tf_buf *b = t->b;
    tf_buf_puts(b, "% The breakdown panel: x in % of the GPU runtime, the bar spans y = 0..1\n"
                   "% (slices at their drawn widths, tiny ones widened to stay visible).\n"
                   "\\begin{scope}[shift={(\\tracefigpanelx,\\tracefigpanely)},x=\\tracefigpctunit,"
                   "y=\\tracefigbarh]\n"
                   "\\tracefigpanelbackground\n");
    double left = 0.0;
    for (size_t i = 0; i < bd->n_slices; i++) {
        const struct tf_slice *s = &bd->slices[i];
        double right = tz_slice_right(s, left);
        struct style *st = tz_slice_style(t, s);
        tf_buf_printf(b, "\\draw[tracefig/breakdown/bar,tracefig/%s] (", st ? st->key : "bar");
        tz_num(t, left);
        tf_buf_puts(b, ",0) rectangle (");
        tz_num(t, right);
        tf_buf_puts(b, ",1);\n");
        left = right;
    }
    left = 0.0;
    for (size_t i = 0; i < bd->n_slices; i++) {
        const struct tf_slice *s = &bd->slices[i];
        double right = tz_slice_right(s, left);
        if (s->text)
            tz_emit_label(t, tz_label_style(t, s->text_color), left, right, 0.5, s->text);
        left = right;
    }
    tf_buf_puts(b, "\\tracefigpanelforeground\n"
                   "\\end{scope}\n");
}

static void emit_picture(struct tikz *t)
{
    const struct tf_figure *f = t->f;
    struct tf_buf *b = t->b;
    tf_buf_puts(b, "\\begin{tikzpicture}[x=\\tracefigxunit,y=\\tracefiglaneh,tracefig/figure]\n"
                   "% Grid lines at the ticks, and the axes.\n"
                   "\\tracefigbackground\n"
                   "% Bars in drawing order; a torn (zigzag) side marks a bar cut by the window.\n");
    if (f->flame) {
        tf_buf_puts(b, "% Lines between the lanes.\n");
        double above = 0;
        for (size_t i = 0; i + 1 < f->n_lanes; i++) {
            above += f->lanes[i].rows ? f->lanes[i].rows : 1;
            tf_buf_puts(b, "\\draw[tracefig/lane rule](0,");
            tz_num(t, t->rows - above);
            tf_buf_puts(b, ")--(\\tracefigspan,");
            tz_num(t, t->rows - above);
            tf_buf_puts(b, ");\n");
        }
    }
    for (size_t i = 0; i < f->n_bars; i++)
        tz_emit_bar(t, &f->bars[i], bar_y0(t, &f->bars[i]), false);
    if (f->n_arrows)
        tf_buf_puts(b, "% Flow arrows.\n");
    for (size_t i = 0; i < f->n_arrows; i++) {
        const struct tf_arrow *a = &f->arrows[i];
        if (a->lane0 >= f->n_lanes || a->lane1 >= f->n_lanes)
            continue;
        tf_buf_puts(b, "\\draw[tracefig/arrow](");
        tz_num(t, tz_xu(t, a->x0));
        tf_buf_putc(b, ',');
        tz_num(t, t->rows - t->above[a->lane0] - (double)a->row0 - 0.5);
        tf_buf_puts(b, ")--(");
        tz_num(t, tz_xu(t, a->x1));
        tf_buf_putc(b, ',');
        tz_num(t, t->rows - t->above[a->lane1] - (double)a->row1 - 0.5);
        tf_buf_puts(b, ");\n");
    }
    bool any = false;
    for (size_t i = 0; i < f->n_bars; i++) {
        const struct tf_bar *r = &f->bars[i];
        if (!r->label || r->shape != TF_SHAPE_SLICE)
            continue;
        if (!any)
            tf_buf_puts(b, "% In-bar labels {colour}{x}{y}{bar width}{text}: TeX leaves out a "
                           "label wider than its bar.\n");
        any = true;
        double y = bar_y0(t, r) + 0.5;
        double x0, x1;
        tf_bar_drawn_extent(f, r, &x0, &x1);
        tz_emit_label(t, tz_label_style(t, r->label_color), tz_xu(t, x0), tz_xu(t, x1), y, r->label);
    }
    tf_buf_puts(b, "% Lane labels, tick labels, the axis title and the legend.\n"
                   "\\tracefigforeground\n");
    if (f->has_panel)
        emit_breakdown(t);
    if (tz_annotated(f)) {
        tf_buf_puts(b, "% The statistics' summary below the figure, centred under the plot as far\n"
                       "% as the figure's width allows.\n"
                       "\\tracefigdim=.5\\tracefigplotw\n"
                       "\\tracefigdimb=\\dimexpr.5\\wd\\tracefigannotbox-\\tracefigleft\\relax\n"
                       "\\ifdim\\tracefigdim<\\tracefigdimb \\tracefigdim=\\tracefigdimb\\fi\n"
                       "\\tracefigdimb=\\dimexpr\\tracefigright-.5\\wd\\tracefigannotbox\\relax\n"
                       "\\ifdim\\tracefigdim>\\tracefigdimb \\tracefigdim=\\tracefigdimb\\fi\n"
                       "\\node[tracefig/annotation,yshift=-\\tracefigsep] at "
                       "(\\the\\tracefigdim,0 |- current bounding box.south) "
                       "{\\usebox\\tracefigannotbox};\n");
    }
    tf_buf_puts(b, "\\end{tikzpicture}%\n");
}

/* The fragment, once the unit and the lane rows are known. */
static bool render_body(struct tikz *t, const struct tf_template *style,
                        const struct tf_render_opts *o, struct tf_diag *d)
{
    struct tf_buf *b = t->b;
    tz_collect_styles(t);
    if (t->oom)
        return tf_diag_oom(d, "tikz");
    tz_emit_header(t, o);
    tf_buf_puts(b, "\\begingroup\n");
    tz_put_template(t, style, TZ_STYLES_REFERENCE);
    tf_buf_puts(b, "% --- This figure -----------------------------------------------------------\n");
    if (t->f->flame) {
        tf_buf_puts(b, "% A flame chart: thin edges, rows closer together, lines between the lanes.\n");
        tz_emit_style_defaults(t, TZ_STYLES_REFERENCE_FLAME);
        tf_buf_puts(b, "\\tracefigdefaultstyle{arrow}{draw=black!67, line width=0.4pt, ->, >=latex}%\n"
                       "\\tracefigdefaultstyle{lane rule}{draw=black!20, line width=0.4pt}%\n"
                       "\\tikzset{tracefig/lane grid/.append style={draw=none}}%\n");
    }
    if (tz_annotated(t->f))
        tf_buf_puts(b, "% The summary line under the figure (--annotate).\n"
                       "\\ifdefined\\tracefigannotbox\\else\\newbox\\tracefigannotbox\\fi\n"
                       "\\tracefigdefaultfont{annotation}{\\scriptsize\\bfseries}%\n"
                       "\\tracefigdefaultstyle{annotation}{inner sep=0pt, outer sep=0pt, "
                       "anchor=north}%\n");
    tz_emit_styles(t);
    emit_data(t);
    emit_picture(t);
    tf_buf_puts(b, "\\endgroup%\n");
    if (t->oom)
        return tf_diag_oom(d, "tikz");
    return true;
}

static bool render_fragment(const struct tf_figure *f, const struct tf_render_opts *o,
                            struct tf_buf *b, struct tf_diag *d)
{
    const struct tf_template *style = tf_template_get("tikz-style.tex");
    if (!style)
        return tf_diag_error(d, TF_EIO, "tikz: the style template is missing from the build");
    for (size_t i = 0; i < f->n_bars; i++)
        if (f->bars[i].lane >= f->n_lanes || f->bars[i].cat >= f->n_cats)
            return tf_diag_error(d, TF_EBADINPUT, "tikz: bar %zu has no lane or category", i);
    /* The bars as drawn at the plan's plot width (plan_busy.c). */
    struct tf_plan own;
    struct tf_figure drawn;
    const struct tf_plan *plan = tf_render_plan(f, o, &own);
    if (!plan) {
        tf_plan_fini(&own);
        return tf_diag_oom(d, "tikz");
    }
    f = tf_plan_drawn(plan, f, &drawn);
    struct tikz t;
    memset(&t, 0, sizeof t);
    t.f = f;
    t.share_key = plan->legend.share_key;
    t.b = b;
    t.rows = tf_figure_rows(f);
    t.above = malloc((f->n_lanes ? f->n_lanes : 1) * sizeof *t.above);
    if (!t.above) {
        tf_plan_fini(&own);
        return tf_diag_oom(d, "tikz");
    }
    double above = 0;
    for (size_t i = 0; i < f->n_lanes; i++) {
        t.above[i] = above;
        above += f->lanes[i].rows ? f->lanes[i].rows : 1;
    }
    bool ok = tz_pick_unit(&t, f->x_span, d);
    if (ok && !tz_cat_keys(&t))
        ok = tf_diag_oom(d, "tikz");
    if (ok)
        ok = tf_plan_fits(f, &o->size) ? tz_render_fit(&t, o, plan, d) : render_body(&t, style, o, d);
    free(t.above);
    free(t.styles);
    free(t.cat_key);
    tf_plan_fini(&own);
    return ok;
}

static bool render_tikz(const struct tf_figure *f, const struct tf_render_opts *o,
                        struct tf_buf *b, struct tf_diag *d)
{
    if (!o->standalone)
        return render_fragment(f, o, b, d);
    const struct tf_template *doc = tf_template_get("tikz-standalone.tex");
    static const char marker[] = "%%TRACEFIG-FIGURE%%\n";
    const char *at = doc ? strstr(doc->data, marker) : NULL;
    if (!at)
        return tf_diag_error(d, TF_EIO, "tikz: the standalone template is missing from the build");
    tf_buf_putn(b, doc->data, (size_t)(at - doc->data));
    if (!render_fragment(f, o, b, d))
        return false;
    tf_buf_puts(b, at + sizeof marker - 1);
    return true;
}

const struct tf_backend tf_backend_tikz = {
    .name = "tikz",
    .exts = {".tex", NULL},
    .description = "TikZ picture for \\input (--standalone: a whole document)",
    .available = true,
    .render = render_tikz,
};

