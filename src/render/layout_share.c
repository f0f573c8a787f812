/* layout_share.c - a row's share bars in runs: see layout_share.h.
 *
 * A row's share bars (plan_busy.c: one per 1 pt bin with time) are drawn
 * by layout.c in runs: the bars of one row whose bins follow each other
 * with at most a gap of empty bins between them (layout_share.h).  A run is
 * one group of the scene, so the SVG carries one <title> and one set of
 * data-* attributes per run rather than per bin; this file writes them.
 * The numbers are the run's: each class's time over the run's span (from
 * its first bin's start to its last bin's end, gaps included), the slices
 * it stands for (each counted once, in the bin of its start: the bins'
 * own counts summed), and where it starts.
 */
#include "render/layout_share.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "render/style.h"

/* --- where runs are ------------------------------------------------------- */

static double xpt(const struct tf_share_lay *L, double x)
{
    return L->pl + x / L->span * (L->pr - L->pl);
}

/* The row bar b is drawn in, TF_PLAN_NO_ROW when none. */
static unsigned bar_row(const struct tf_share_lay *L, const struct tf_bar *b)
{
    const struct tf_lane *ln = &L->f->lanes[b->lane];
    return tf_plan_row(L->P, L->f, b->lane, b->row < (ln->rows ? ln->rows : 1) ? b->row : 0);
}

size_t tf_share_run(const struct tf_share_lay *L, size_t i, unsigned row)
{
    const struct tf_figure *f = L->f;
    const struct tf_bar *b = &f->bars[i];
    size_t j = i + 1;
    for (; j < f->n_bars; j++) {
        const struct tf_bar *c = &f->bars[j], *p = &f->bars[j - 1];
        if (c->shape != TF_SHAPE_DENSE || c->lane != b->lane || bar_row(L, c) != row)
            break;
        if (c->x0 < p->x1 - 1e-9 * (fabs(p->x1) + 1) || xpt(L, c->x0) - xpt(L, p->x1) > L->gap)
            break;
    }
    return j - i;
}

double tf_share_gap(const struct tf_share_lay *L0, size_t *n_runs)
{
    struct tf_share_lay L = *L0;
    const struct tf_figure *f = L.f;
    L.gap = TF_SHARE_RUN_GAP_PT;
    *n_runs = 0;
    if (!f->flame)
        return L.gap;
    for (;;) {
        size_t runs = 0;
        for (size_t i = 0; i < f->n_bars; i++) {
            const struct tf_bar *b = &f->bars[i];
            if (b->lane >= f->n_lanes || b->shape != TF_SHAPE_DENSE)
                continue;
            unsigned row = bar_row(&L, b);
            if (row == TF_PLAN_NO_ROW)
                continue;
            i += tf_share_run(&L, i, row) - 1;
            runs++;
        }
        *n_runs = runs;
        if (runs <= TF_SHARE_RUNS_MAX || L.gap > L.pr - L.pl)
            return L.gap;
        L.gap *= 2;
    }
}

/* --- the boxes -------------------------------------------------------------- */

/* Half the width of the line drawn along y, the bottom of a row: the axis
 * (drawn over the bars) or a line between lanes (under them); 0 when none. */
static double line_at(const struct tf_share_lay *L, double y)
{
    const double eps = 1e-6;
    if (fabs(y - L->pb) < eps)
        return tf_style.spine_pt / 2;
    for (size_t i = 1; L->f->flame && i < L->P->n_lanes; i++)
        if (fabs(y - L->P->lanes[i].band) < eps)
            return tf_style.hgrid_pt / 2;
    return 0;
}

/* So that no line hides it, a bin under the floor rests on the line. */
void tf_share_boxes(const struct tf_share_lay *L, const struct tf_bar *b, double top,
                    double bottom)
{
    const struct tf_figure *f = L->f;
    double x0, x1;
    tf_bar_drawn_extent(f, b, &x0, &x1);
    x0 = xpt(L, x0);
    x1 = xpt(L, x1);
    struct tf_share one = {b->cat, b->x1 > b->x0 ? b->busy / (b->x1 - b->x0) : 0};
    const struct tf_share *sh = b->n_shares ? b->shares : &one;
    size_t n = b->n_shares ? b->n_shares : 1;
    double h = bottom - top, total = 0;
    for (size_t i = 0; i < n; i++)
        total += sh[i].share * h;
    bool floor = total < tf_style.share_floor_pt;
    double y = floor ? bottom - line_at(L, bottom) : bottom;
    for (size_t i = 0; i < n; i++) {
        double hi = floor ? (i == 0 ? tf_style.share_floor_pt : 0) : sh[i].share * h;
        if (!(hi > 0))
            continue;
        uint32_t rgb = sh[i].cat < f->n_cats ? f->cats[sh[i].cat].color : b->color;
        double xs[4] = {x0, x1, x1, x0}, ys[4] = {y, y, y - hi, y - hi};
        struct tf_path p = {
            .xs = xs,
            .ys = ys,
            .n = 4,
            .closed = true,
            .has_fill = true,
            .fill = rgb,
            .fill_opacity = 1.0,
            .stroke = TF_COLOR_BLACK, /* no edge */
            .stroke_opacity = 1.0,
        };
        tf_scene_path(L->s, &p);
        y -= hi;
    }
}

/* --- the tooltip ------------------------------------------------------------ */

/* One class's time in a run, in axis units. */
struct cls_time {
    size_t cat;
    double t;
};

/* cat's time added to the table (first seen, first kept); false when out
 * of memory. */
static bool add_time(struct cls_time **tab, size_t *n, size_t *cap, size_t cat, double t)
{
    for (size_t i = 0; i < *n; i++)
        if ((*tab)[i].cat == cat) {
            (*tab)[i].t += t;
            return true;
        }
    if (!TF_GROW(*tab, *n, *cap))
        return false;
    (*tab)[(*n)++] = (struct cls_time){cat, t};
    return true;
}

static const char *cat_label(const struct tf_figure *f, size_t cat)
{
    if (cat >= f->n_cats)
        return "";
    const struct tf_category *c = &f->cats[cat];
    return c->label ? c->label : c->key ? c->key : "";
}

/* A bin that stands for one slice alone: plan_busy.c gives it that
 * slice's own tooltip; any other bin's says "N slice[s] · busy ..." (a
 * row of the overview: "ranks ... · busy ..."). */
static bool lone(const struct tf_figure *f, const struct tf_bar *b)
{
    const struct tf_lane *ln = b->lane < f->n_lanes ? &f->lanes[b->lane] : NULL;
    if (!b->title || (ln && ln->n_ranks))
        return false;
    const char *t = b->title;
    if (*t < '0' || *t > '9')
        return true;
    while (*t >= '0' && *t <= '9')
        t++;
    return !(strncmp(t, " slice", 6) == 0 && strstr(t, " \xC2\xB7 busy "));
}

/* The tooltips of the run's lone slices, a line each under the run's
 * numbers (the first max_lines, then how many more), so a slice too thin
 * to draw whole is still named where it is. */
static void lone_lines(const struct tf_figure *f, const struct tf_bar *bars, size_t n,
                       size_t max_lines, struct tf_buf *title)
{
    size_t shown = 0, more = 0;
    const char *last = NULL;
    for (size_t i = 0; i < n; i++) {
        const struct tf_bar *b = &bars[i];
        if (!lone(f, b) || (last && strcmp(last, b->title) == 0))
            continue;
        last = b->title;
        if (shown == max_lines) {
            more++;
            continue;
        }
        tf_buf_putc(title, '\n');
        tf_buf_puts(title, b->title);
        shown++;
    }
    if (more) {
        tf_buf_puts(title, "\n\xE2\x80\xA6 ");
        tf_buf_uint(title, (unsigned)more);
        tf_buf_puts(title, more == 1 ? " more slice" : " more slices");
    }
}

bool tf_share_run_text(const struct tf_figure *f, const struct tf_bar *bars, size_t n,
                       size_t max_lines, struct tf_buf *title, struct tf_buf *busy, double *start_ms,
                       double *dur_ms)
{
    tf_buf_clear(title);
    tf_buf_clear(busy);
    const struct tf_bar *first = &bars[0], *last = &bars[n - 1];
    *start_ms = first->start_ms;
    *dur_ms = n == 1 ? first->dur_ms : last->start_ms + last->dur_ms - first->start_ms;
    /* One bin, or bins that all stand for one slice: its own tooltip. */
    bool same = first->title != NULL;
    for (size_t i = 1; i < n && same; i++)
        same = bars[i].title && strcmp(bars[i].title, first->title) == 0;
    if (n == 1 || same) {
        if (first->title)
            tf_buf_puts(title, first->title);
        struct tf_bar one = *first;
        if (n > 1) { /* the run's shares of the run's span */
            one.x1 = last->x1;
            one.n_shares = 0;
            one.busy = 0;
            for (size_t i = 0; i < n; i++)
                one.busy += bars[i].busy;
        }
        tf_bar_busy_json(busy, f, &one, 4);
        return !title->oom && !busy->oom;
    }

    struct cls_time *tab = NULL;
    size_t n_tab = 0, cap_tab = 0;
    size_t merged = 0;
    double total = 0;
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        const struct tf_bar *b = &bars[i];
        double w = b->x1 - b->x0;
        merged += b->merged ? b->merged : 1;
        if (!b->n_shares) {
            ok = add_time(&tab, &n_tab, &cap_tab, b->cat, b->busy);
            total += b->busy;
            continue;
        }
        for (size_t k = 0; k < b->n_shares && ok; k++) {
            ok = add_time(&tab, &n_tab, &cap_tab, b->shares[k].cat, b->shares[k].share * w);
            total += b->shares[k].share * w;
        }
    }
    double span = last->x1 - first->x0;
    if (!ok) {
        free(tab);
        return false;
    }
    /* Largest first; ties in the order first seen (a stable insertion). */
    for (size_t i = 1; i < n_tab; i++)
        for (size_t j = i; j > 0 && tab[j].t > tab[j - 1].t; j--) {
            struct cls_time t = tab[j];
            tab[j] = tab[j - 1];
            tab[j - 1] = t;
        }

    /* "N slice[s] · busy [<]P% of W UNIT at X UNIT[ (CLASS P%, ...)]"; a
     * row of a job's overview names its ranks instead of a count. */
    char num[TF_NUM_MAX];
    const char *unit = f->axis.unit ? f->axis.unit : "";
    const struct tf_lane *ln = first->lane < f->n_lanes ? &f->lanes[first->lane] : NULL;
    if (ln && ln->n_ranks && ln->label) {
        tf_buf_puts(title, ln->label);
    } else {
        /* "N CLASS slices" when the run is one class's */
        tf_buf_uint(title, (unsigned)merged);
        tf_buf_putc(title, ' ');
        if (n_tab == 1) {
            tf_buf_puts(title, cat_label(f, tab[0].cat));
            tf_buf_putc(title, ' ');
        }
        tf_buf_puts(title, merged == 1 ? "slice" : "slices");
    }
    tf_buf_puts(title, " \xC2\xB7 busy ");
    double pct = span > 0 ? 100.0 * total / span : 0;
    if (pct > 0 && pct < 0.5)
        tf_buf_putc(title, '<');
    tf_buf_puts(title, tf_fmt_num(num, pct > 0 && pct < 0.5 ? 1 : pct, 0));
    tf_buf_puts(title, "% of ");
    tf_buf_puts(title, tf_fmt_num(num, span, 3));
    tf_buf_putc(title, ' ');
    tf_buf_puts(title, unit);
    tf_buf_puts(title, " at ");
    tf_buf_puts(title, tf_fmt_num(num, first->x0, 3));
    tf_buf_putc(title, ' ');
    tf_buf_puts(title, unit);
    for (size_t i = 0; i < n_tab && n_tab > 1; i++) {
        tf_buf_puts(title, i ? ", " : " (");
        tf_buf_puts(title, cat_label(f, tab[i].cat));
        tf_buf_putc(title, ' ');
        double p = span > 0 ? 100.0 * tab[i].t / span : 0;
        if (p > 0 && p < 0.5)
            tf_buf_putc(title, '<');
        tf_buf_puts(title, tf_fmt_num(num, p > 0 && p < 0.5 ? 1 : p, 0));
        tf_buf_putc(title, '%');
    }
    if (n_tab > 1)
        tf_buf_putc(title, ')');
    lone_lines(f, bars, n, max_lines, title);

    /* data-busy: each class's share of the run's span, as a bin's is. */
    struct tf_share *sh = malloc((n_tab ? n_tab : 1) * sizeof *sh);
    if (!sh) {
        free(tab);
        return false;
    }
    for (size_t i = 0; i < n_tab; i++)
        sh[i] = (struct tf_share){tab[i].cat, span > 0 ? tab[i].t / span : 0};
    struct tf_bar run = *first;
    run.x1 = last->x1;
    run.shares = sh;
    run.n_shares = n_tab;
    run.busy = total;
    if (!n_tab) {
        run.n_shares = 0;
        run.busy = 0;
    }
    tf_bar_busy_json(busy, f, &run, 4);
    free(sh);
    free(tab);
    return !title->oom && !busy->oom;
}
