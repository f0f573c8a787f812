/* layout_share.c - a run of share bars as one tooltip: see layout_share.h.
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

#include <stdlib.h>
#include <string.h>

#include "base/num.h"

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

bool tf_share_run_text(const struct tf_figure *f, const struct tf_bar *bars, size_t n,
                       struct tf_buf *title, struct tf_buf *busy, double *start_ms,
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
