/* tikz_fit.c - a TikZ figure fit to its width (templates/tikz-fit.tex):
 * every figure, since TeX gives each its width (tikz.c).
 *
 * What C decides and what TeX decides.  The plan (render/plan.c) decides
 * what is drawn at the size asked: the lanes and nesting rows within the
 * height budget.  This file writes the plan's CANDIDATES in order, and the
 * thresholds of tf_plan_limits; TeX measures them in the document's fonts
 * at \tracefigwidth (else \linewidth) and takes the first that fits, by the
 * rules plan.c follows:
 *   - each lane's label at every level (full; short under a process
 *     header; elided to 28, 20 and 14 characters): labels go left of the
 *     plot at the first level whose widest label fits the label share of
 *     the width, else above their lanes;
 *   - tick sets (the mode's, then MaxNLocator with 7 .. 2 bins): the first
 *     whose labels keep apart;
 *   - the row height: the natural one when the budget allows, else the
 *     tallest that fits, down to the minimum;
 *   - the legend, wrapped to the width; the panel beside the plot or under it.
 * Bars are written per lane, in a scope whose shift TeX computes (the
 * lane's top, after the headers and labels above it), with y in rows.
 * A document that defines \tracefigreport gets the choices in its log
 * ("tracefig-plan: ..."), which the paper tests read.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "render/plan.h"
#include "render/style.h"
#include "render/templates.h"
#include "render/tikz_int.h"
#include "base/ticks.h"

/* Lengths in canvas points, for TeX (bp). */
static void bp(struct tikz *t, double v)
{
    tz_num(t, v);
    tf_buf_puts(t->b, "bp");
}

static void emit_limits(struct tikz *t, const struct tf_size *sz)
{
    const struct tf_plan_limits *L = &tf_plan_limits;
    struct tf_buf *b = t->b;
    unsigned top = 1;
    for (unsigned lv = 2; lv < TF_PLAN_LEVELS; lv++)
        if (TF_PLAN_ELIDE[lv - 2] >= L->elide_min_chars)
            top = lv;
    tf_buf_puts(b, "% The layout's thresholds, as tracefig's own (render/plan.c).\n"
                   "\\def\\tracefiglimitshare{");
    tz_num(t, L->label_share);
    tf_buf_puts(b, "}\\def\\tracefiglimitabove{");
    bp(t, L->above_below_pt);
    tf_buf_printf(b, "}\\def\\tracefiglimitlevel{%u}%%\n\\def\\tracefiglimitpanel{", top);
    tz_num(t, L->panel_share);
    tf_buf_puts(b, "}\\def\\tracefiglimitperw{");
    tz_num(t, L->height_per_w);
    tf_buf_puts(b, "}\\def\\tracefiglimitmax{");
    bp(t, L->height_max_pt);
    tf_buf_puts(b, "}\\def\\tracefiglimitmin{");
    bp(t, L->height_min_pt);
    tf_buf_puts(b, "}%\n\\def\\tracefiglimitrow{");
    tz_num(t, L->row_em);
    tf_buf_puts(b, "}\\def\\tracefiglimitrowmin{");
    /* an overview's rows were fitted at 2 pt (the template's floor) */
    tz_num(t, t->f && t->f->overview.on ? 0.2 : L->row_min_em);
    static const char *const place[] = {"auto", "left", "above", "none"};
    /* an HPC job's ranks, an overview's rows: their short labels stay left (plan.c) */
    enum tf_label_place want =
        sz->labels == TF_LABELS_AUTO && t->f && (t->f->rank_lanes || t->f->overview.on)
            ? TF_LABELS_LEFT
            : sz->labels;
    tf_buf_printf(b, "}\\def\\tracefiglabelplace{%s}%%\n", place[want]);
    if (sz->label_w_pt > 0) {
        tf_buf_puts(b, "\\def\\tracefiglabelcap{");
        bp(t, sz->label_w_pt);
        tf_buf_puts(b, "}%\n");
    }
    if (sz->height_pt > 0) {
        tf_buf_puts(b, "\\def\\tracefigheight{");
        bp(t, sz->height_pt);
        tf_buf_puts(b, "}%\n");
    }
}

static bool emit_lanes(struct tikz *t, const struct tf_plan *p)
{
    const struct tf_figure *f = t->f;
    struct tf_buf *b = t->b;
    struct tf_arena a;
    tf_arena_init(&a);
    struct tf_label_levels lv;
    bool ok = tf_plan_label_levels(f, p->n_lanes, &a, &lv);
    if (ok) {
        tf_buf_puts(b, "% Lanes, top to bottom: {rows}{header}{label at each level: full, "
                       "short, elided}.\n");
        /* Many traces of one lane, labelled sparsely by the plan (ranks): no
         * lane need be as tall as a label, so the timeline's height is
         * reckoned (\tracefigfblock) as if the labels were not left of
         * it.  Only such figures carry this. */
        bool sparse = false;
        bool ranks = f->n_traces || f->rank_lanes || f->overview.on;
        for (size_t i = 0; ranks && p->labels == TF_LABELS_LEFT &&
                            i < p->n_lanes;
             i++)
            sparse = sparse || !p->lanes[i].text;
        if (sparse)
            tf_buf_puts(b, "\\let\\tracefigfblockall\\tracefigfblock\n"
                           "\\def\\tracefigfblock#1{\\iftracefigfleft\\tracefigfleftfalse"
                           "\\tracefigfblockall{#1}\\tracefigflefttrue"
                           "\\else\\tracefigfblockall{#1}\\fi}%\n");
        for (size_t i = 0; i < p->n_lanes; i++) {
            /* (an overview's rank axis is its own node: emit_picture) */
            tf_buf_printf(b, "\\tracefiglane{%u}{%lld}", p->lanes[i].rows,
                          lv.header_of[i] == (size_t)-1 || f->overview.on
                              ? -1LL
                              : (long long)lv.header_of[i]);
            /* A lane the plan leaves unlabelled among many (ranks): none. */
            bool blank = ranks && p->labels == TF_LABELS_LEFT && !p->lanes[i].text;
            for (size_t k = 0; k < TF_PLAN_LEVELS; k++) {
                tf_buf_putc(b, '{');
                if (!blank)
                    tz_text(b, lv.text[k * lv.n + i]);
                tf_buf_putc(b, '}');
            }
            tf_buf_puts(b, "%\n");
        }
        for (size_t h = 0; h < lv.n_headers && ok; h++) {
            tf_buf_printf(b, "\\tracefigheader{%zu}", h);
            static const unsigned chars[3] = {0, 40, 24};
            for (int k = 0; k < 3 && ok; k++) {
                const char *e = k ? tf_plan_elide_chars(&a, lv.headers[h], chars[k], 0)
                                  : lv.headers[h];
                ok = e != NULL;
                tf_buf_putc(b, '{');
                tz_text(b, e ? e : "");
                tf_buf_putc(b, '}');
            }
            tf_buf_puts(b, "%\n");
        }
    }
    tf_label_levels_fini(&lv);
    tf_arena_fini(&a);
    return ok;
}

/* The candidate tick sets, as the plan tries them (tf_plan_tick_sets). */
static void emit_ticks(struct tikz *t)
{
    struct tf_buf *b = t->b;
    double sets[TF_PLAN_TICK_SETS][TF_TICKS_MAX];
    size_t ns[TF_PLAN_TICK_SETS], last;
    bool mode;
    size_t n_sets = tf_plan_tick_sets(t->f, sets, ns, &last, &mode);
    tf_buf_puts(b, "% Tick sets, the first whose labels keep apart is drawn: {x}{label}.\n");
    for (size_t k = 0; k < n_sets; k++) {
        int dec = tf_num_decimals(sets[k], ns[k]);
        tf_buf_puts(b, "\\tracefigtickset{");
        for (size_t i = 0; i < ns[k]; i++) {
            char lab[TF_NUM_MAX];
            tf_buf_puts(b, "\\tracefigxtick{");
            tz_num(t, tz_xu(t, sets[k][i]));
            tf_buf_printf(b, "}{%s}", tf_fmt_num(lab, sets[k][i], dec));
        }
        tf_buf_puts(b, "}%\n");
    }
}

static void emit_data(struct tikz *t, const struct tf_plan *p)
{
    const struct tf_figure *f = t->f;
    struct tf_buf *b = t->b;
    const char *clock = f->clock_unit ? f->clock_unit : "ms";
    const char *unit = f->axis.unit ? f->axis.unit : clock;
    char start[TF_NUM_MAX], span[TF_NUM_MAX];
    tf_fmt_num(start, f->window_start, DEC);
    tf_fmt_num(span, f->x_span, DEC);
    tf_buf_printf(b, "%% Time axis: x is the time from the window start (%s %s on the trace\n"
                     "%% clock); the window is %s %s wide; x unit: 1e%d %s.\n",
                  start, clock, span, unit, t->exp10, unit);
    tf_buf_puts(b, "\\def\\tracefigspan{");
    tz_num(t, t->span);
    tf_buf_puts(b, "}%\n");
    emit_ticks(t);
    tf_buf_puts(b, "\\def\\tracefigxtitle{");
    tz_text(b, f->axis.title ? f->axis.title : "");
    tf_buf_puts(b, "}%\n");
    if (f->has_panel) {
        const struct tf_panel *bd = &f->panel;
        tz_emit_panel_legend(t,
                             "% Breakdown panel: its title, its legend, its slices\n"
                             "% {style}{left}{right}{middle}{width}{label colour}{text} in %.\n");
        tf_buf_puts(b, "\\def\\tracefigfslices{%\n");
        double left = 0.0;
        for (size_t i = 0; i < bd->n_slices; i++) {
            const struct tf_slice *s = &bd->slices[i];
            double right = tz_slice_right(s, left);
            struct style *st = tz_slice_style(t, s);
            tf_buf_printf(b, "\\tracefigslice{%s}{", st ? st->key : "bar");
            tz_num(t, left);
            tf_buf_puts(b, "}{");
            tz_num(t, right);
            tf_buf_puts(b, "}{");
            tz_num(t, (left + right) / 2);
            tf_buf_puts(b, "}{");
            tz_num(t, right - left);
            tf_buf_printf(b, "}{%s}{", tz_label_style(t, s->text_color));
            if (s->text)
                tz_text(b, s->text);
            tf_buf_puts(b, "}%\n");
            left = right;
        }
        tf_buf_puts(b, "}%\n");
    } else if (f->n_legend) {
        tf_buf_puts(b, "% Legend entries: the style of the swatch, and the label.\n");
        struct tf_arena a;
        tf_arena_init(&a);
        for (size_t k = 0; k < p->legend.n; k++) {
            size_t i = p->legend.order[k];
            if (i == f->n_legend) {
                tz_share_key_entry(t);
                tf_buf_puts(b, "{");
                tz_text(b, TF_SHARE_KEY_TEXT);
                tf_buf_puts(b, "}{");
                tz_text(b, TF_SHARE_KEY_TEXT);
                tf_buf_puts(b, "}%\n");
                continue;
            }
            struct style *s = tz_legend_style(t, i);
            const char *l = f->legend[i].label ? f->legend[i].label : "";
            const char *e = tf_plan_elide_distinct(&a, f, i, 28);
            const char *e2 = tf_plan_elide_distinct(&a, f, i, 18);
            tf_buf_printf(b, "\\tracefiglegendentry{%s}{", s ? s->key : "bar");
            tz_text(b, l);
            tf_buf_puts(b, "}{");
            tz_text(b, e ? e : l);
            tf_buf_puts(b, "}{");
            tz_text(b, e2 ? e2 : l);
            tf_buf_puts(b, "}%\n");
        }
        tf_arena_fini(&a);
    }
    if (tz_annotated(f)) {
        tf_buf_puts(b, "\\def\\tracefigannottext{");
        tz_text(b, f->stats.summary);
        tf_buf_puts(b, "}%\n");
    }
    /* --zoom: the legend goes under the zoom row (tikz.c draws it there),
     * so the connectors never cross it; the main panel fits without it. */
    if (p->n_zooms && !f->has_panel && f->n_legend)
        tf_buf_puts(b, "\\let\\tracefigzoomlegitems\\tracefiglegenditems"
                       "\\def\\tracefiglegenditems{}%\n");
    tf_buf_puts(b, "\\tracefiglayout\n");
    if (p->n_zooms && !f->has_panel && f->n_legend)
        tf_buf_puts(b, "\\ifdefined\\tracefigzoomleg\\else\\newbox\\tracefigzoomleg\\fi"
                       "\\let\\tracefiglegenditems\\tracefigzoomlegitems\n"
                       "\\tracefigrowlegend{\\dimexpr\\tracefigfW-2.5pt\\relax}%\n"
                       "\\global\\setbox\\tracefigzoomleg\\hbox{\\begin{tikzpicture}\\node[tracefig/legend,"
                       "inner sep=1pt,outer sep=0pt]{\\usebox\\tracefigflegbox};\\end{tikzpicture}}"
                       "\\def\\tracefiglegenditems{}%\n");
}

/* The in-bar labels of the bars [from, to) drawn in lane `lane`. */
static void emit_labels(struct tikz *t, const struct tf_plan *p, size_t lane, size_t from,
                        size_t to)
{
    const struct tf_figure *f = t->f;
    for (size_t i = from; i < to; i++) {
        const struct tf_bar *r = &f->bars[i];
        unsigned row = tf_plan_row(p, f, lane, r->row);
        if (r->lane != lane || !r->label || !r->label[0] || r->shape != TF_SHAPE_SLICE ||
            row == TF_PLAN_NO_ROW || tf_plan_row_under(p, f, lane, r->row))
            continue;
        double x0, x1;
        tf_bar_drawn_extent(f, r, &x0, &x1);
        tz_emit_label(t, tz_label_style(t, r->label_color), tz_xu(t, x0), tz_xu(t, x1),
                      row + 0.5, r->label);
    }
}

/* Whether a and b are written alike with DEC (3) decimals. */
static bool same_3dec(double a, double b)
{
    return llround(a * 1000.0) == llround(b * 1000.0);
}

/* One counter lane in its band's scope: each stretch with a value as a
 * path of steps (y: the band's share from the top; \tracefigH, as TikZ's
 * -| would go), its light area and its line each a run of their class,
 * then the scale's labels. */
static void emit_counter(struct tikz *t, size_t lane)
{
    const struct tf_figure *f = t->f;
    const struct tf_counter *k = &f->lanes[lane].counter;
    struct tf_buf *b = t->b;
    struct style *s = tz_counter_style(t, k->color);
    const char *color = s ? s->color : "black";
    snprintf(t->opts, sizeof t->opts, "fill,tracefig/counter area,fill=%s", color);
    size_t area = tz_class(t, t->opts);
    snprintf(t->opts, sizeof t->opts, "draw,tracefig/counter line,draw=%s", color);
    size_t line = tz_class(t, t->opts);
    tf_buf_printf(b, "\\tracefigcounterscope{%zu}\n", lane);
    for (size_t i = 0; i < k->n_samples;) {
        if (isnan(k->samples[i].v)) {
            i++;
            continue;
        }
        size_t j = i + 1;
        while (j < k->n_samples && !isnan(k->samples[j].v))
            j++;
        double x_end = j < k->n_samples ? k->samples[j].x : f->x_span;
        tf_buf_puts(b, "\\def\\tracefigfpath{");
        double y = tf_plan_counter_y(k, k->samples[i].v);
        tz_path(t, "P", tz_xu(t, k->samples[i].x), y);
        size_t steps = 0;
        for (size_t m = i + 1; m <= j; m++) {
            double ym = m < j ? tf_plan_counter_y(k, k->samples[m].v) : y;
            /* A step to the value it has (as written) only makes the line
             * longer: the next step, or the stretch's end, draws it. */
            if (m < j && same_3dec(ym, y))
                continue;
            tf_buf_puts(b, ++steps % 6 ? "\\tracefigH{" : "%\n\\tracefigH{");
            tz_num(t, tz_xu(t, m < j ? k->samples[m].x : x_end));
            tf_buf_puts(b, "}{");
            tz_num(t, y);
            tf_buf_puts(b, "}{");
            tz_num(t, ym);
            tf_buf_putc(b, '}');
            y = ym;
        }
        tf_buf_printf(b, "}%%\n\\tracefigcounterrun{%zu}{%zu}{", area, line);
        tz_num(t, tz_xu(t, k->samples[i].x));
        tf_buf_puts(b, "}{");
        tz_num(t, tz_xu(t, x_end));
        tf_buf_puts(b, "}%\n");
        i = j;
    }
    if (k->has_range) {
        char v[TF_PLAN_VALUE_MAX];
        tf_buf_printf(b, "\\tracefigcountervalues{%zu}{", lane);
        tz_text(b, tf_plan_counter_value(v, k->hi, k->unit));
        tf_buf_puts(b, "}{");
        if (k->hi > k->lo)
            tz_text(b, tf_plan_counter_value(v, k->lo, k->unit));
        tf_buf_puts(b, "}%\n");
    }
    tf_buf_puts(b, "\\end{scope}\n");
}

static void emit_picture(struct tikz *t, const struct tf_plan *p)
{
    const struct tf_figure *f = t->f;
    struct tf_buf *out = t->b, *b = t->b;
    tf_buf_puts(b, "\\begin{tikzpicture}[x=\\tracefigfunit,y=1pt,tracefig/figure]\n"
                   "\\tracefigbackground\n");
    /* The counters and bars go to a buffer of their own: the classes they
     * use come first. */
    struct tf_buf body;
    tf_buf_init(&body);
    t->b = &body;
    b = t->b;
    if (tf_figure_counters(f))
        tf_buf_puts(b, "% Counter tracks: a step line per stretch with a value, y in the band's\n"
                       "% height from its top; the scale's labels {greatest}{least}.\n");
    for (size_t i = 0; i < p->n_lanes; i++)
        if (f->lanes[i].kind == TF_LANE_COUNTER)
            emit_counter(t, i);
    tf_buf_puts(b, "% Bars per lane, in drawing order; a torn (zigzag) side marks a bar cut by\n"
                   "% the window.  In-bar labels {colour}{x}{row}{bar width}{text}: TeX leaves\n"
                   "% out one wider than its bar.\n");
    size_t open = (size_t)-1, first = 0;
    for (size_t i = 0; i < f->n_bars; i++) {
        const struct tf_bar *r = &f->bars[i];
        unsigned row = tf_plan_bar_row(p, f, r);
        if (row == TF_PLAN_NO_ROW)
            continue;
        if (r->lane != open) {
            if (open != (size_t)-1) {
                tz_flush_shares(t);
                emit_labels(t, p, open, first, i);
                tf_buf_puts(b, "\\end{scope}\n");
            }
            open = r->lane;
            first = i;
            tf_buf_printf(b, "\\tracefiglanescope{%zu}\n", open);
        }
        tz_emit_bar(t, r, row);
    }
    if (open != (size_t)-1) {
        tz_flush_shares(t);
        emit_labels(t, p, open, first, f->n_bars);
        tf_buf_puts(b, "\\end{scope}\n");
    }
    t->b = b = out;
    tz_emit_classes(t);
    tf_buf_putn(b, body.data, body.len);
    t->oom = t->oom || body.oom;
    tf_buf_fini(&body);
    bool any = false;
    for (size_t i = 0; i < f->n_arrows; i++) {
        const struct tf_arrow *a = &f->arrows[i];
        unsigned r0 = tf_plan_row(p, f, a->lane0, a->row0);
        unsigned r1 = tf_plan_row(p, f, a->lane1, a->row1);
        if (r0 == TF_PLAN_NO_ROW || r1 == TF_PLAN_NO_ROW)
            continue;
        if (!any)
            tf_buf_puts(b, "% Flow arrows {x}{lane}{row} to {x}{lane}{row}.\n");
        any = true;
        tf_buf_puts(b, a->critical ? "\\tracefigcriticalarrow{" : "\\tracefigarrow{");
        tz_num(t, tz_xu(t, a->x0));
        tf_buf_printf(b, "}{%zu}{", a->lane0);
        tz_num(t, r0 + 0.5);
        tf_buf_puts(b, "}{");
        tz_num(t, tz_xu(t, a->x1));
        tf_buf_printf(b, "}{%zu}{", a->lane1);
        tz_num(t, r1 + 0.5);
        tf_buf_puts(b, "}%\n");
    }
    tf_buf_puts(b, "% Headers, lane labels, tick labels, the axis title and the legend.\n"
                   "\\tracefigforeground\n");
    if (f->overview.on && f->overview.axis && p->labels != TF_LABELS_NONE) {
        /* The rank axis over the rows, a label's line above them. */
        tf_buf_puts(b, "% The rank axis: what the rows hold.\n"
                       "\\node[tracefig/header,anchor=base west] at (-\\tracefigfx,\\tracefigfline) {");
        tz_text(b, f->overview.axis);
        tf_buf_puts(b, "};\n");
    }
    tz_emit_marks(t, p);
    if (f->has_panel)
        tf_buf_puts(b, "\\tracefigpanel\n");
    if (tz_annotated(f))
        tf_buf_puts(b, "\\tracefigannotation\n");
    tz_emit_zoom_marks(t, p);
    tf_buf_puts(b, "\\end{tikzpicture}%\n");
}

bool tz_render_fit(struct tikz *t, const struct tf_render_opts *o, const struct tf_plan *pp,
                   struct tf_diag *d)
{
    const struct tf_template *style = tf_template_get("tikz-fit.tex");
    if (!style)
        return tf_diag_error(d, TF_EIO, "tikz: the fit template is missing from the build");
    bool ok = true;
    struct tf_buf *b = t->b;
    if (ok) {
        tz_collect_styles(t);
        ok = !t->oom;
    }
    if (ok) {
        tz_emit_header(t, o);
        tf_buf_puts(b, "\\begingroup\n");
        tz_put_template(t, style);
        const struct tf_template *ct = tf_template_get("tikz-counters.tex");
        if (tf_figure_counters(t->f) && ct) {
            /* the gap its scale labels keep (the style's, between text boxes) */
            char gap[TF_NUM_MAX];
            tf_buf_printf(b, "\\ifdefined\\tracefigtextgap\\else\\def\\tracefigtextgap{%spt}\\fi%%\n",
                          tf_fmt_num(gap, tf_style.text_gap_pt, 3));
            tf_buf_putn(b, ct->data, ct->len);
        }
        const struct tf_template *zt = tf_template_get("tikz-zoom.tex");
        if ((pp->n_zooms || t->zoom_panel) && zt)
            tf_buf_putn(b, zt->data, zt->len);
        const struct tf_template *mt = tf_template_get("tikz-marks.tex");
        if (t->f->n_marks && mt)
            tf_buf_putn(b, mt->data, mt->len);
        const struct tf_template *ht = tf_template_get("tikz-hatch.tex");
        if (tz_any_lost(t) && ht)
            tf_buf_putn(b, ht->data, ht->len);
        tf_buf_puts(b, "% --- This figure -----------------------------------------------------------\n");
        if (!t->f->flame)
            tf_buf_puts(b, "\\tikzset{tracefig/lane rule/.append style={draw=none}}%\n");
        emit_limits(t, &o->size);
        tz_emit_styles(t);
        ok = emit_lanes(t, pp);
    }
    if (ok) {
        emit_data(t, pp);
        emit_picture(t, pp);
        tf_buf_puts(b, "\\endgroup%\n");
        ok = !t->oom && !b->oom;
    }
    return ok || tf_diag_oom(d, "tikz");
}
