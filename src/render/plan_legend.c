/* plan_legend.c - the legend's grid: its entries' texts and metrics at
 * a size, and as one row when it fits a width, else in as few rows as
 * fit (plan_int.h); plan.c's policies call it.  It draws nothing.
 */
#include "render/plan_int.h"

#include <math.h>
#include <stdlib.h>

#include "render/metrics.h"
#include "render/style.h"

static double text_h(double size, bool bold)
{
    return tf_text_ascent(size, bold) + tf_text_descent(size, bold);
}

/* The bottom legend as one row when it fits in `avail`, else in as few
 * rows as fit; columns as wide as their widest entry. */
bool tf_plan_legend_grid(const struct tf_figure *f, struct tf_plan *p, double avail)
{
    struct tf_plan_legend *d = &p->legend;
    size_t n = d->n;
    (void)f;
    double *tw = malloc((n ? n : 1) * sizeof *tw);
    if (!tw)
        return false;
    for (size_t i = 0; i < n; i++)
        tw[i] = tf_plan_text_width(d->text[d->order[i]], d->size, p->bold);
    for (size_t ncol = n; ncol >= 1; ncol--) {
        double w = 2 * d->pad + (double)(ncol - 1) * d->colspace;
        for (size_t c = 0; c < ncol; c++) {
            double cw = 0;
            for (size_t i = c; i < n; i += ncol)
                cw = fmax(cw, d->handle_w + d->textpad + tw[i]);
            d->col_w[c] = cw;
            w += cw;
        }
        d->ncol = ncol;
        d->nrow = (n + ncol - 1) / ncol;
        d->w = w;
        if (w <= avail)
            break;
    }
    d->h = 2 * d->pad + (double)d->nrow * d->row_h + (double)(d->nrow - 1) * d->spacing;
    free(tw);
    return true;
}

bool tf_plan_legend_init(const struct tf_figure *f, struct tf_plan *p, double fs, double handle,
                        double textpad, double colspace, double pad)
{
    struct tf_plan_legend *d = &p->legend;
    size_t n = f->n_legend + 1; /* and the share key's */
    d->col_w = calloc(n, sizeof *d->col_w);
    d->text = calloc(n, sizeof *d->text);
    d->order = calloc(n, sizeof *d->order);
    if (!d->col_w || !d->text || !d->order)
        return false;
    d->share_key = d->share_key && f->n_legend > 0;
    d->n = f->n_legend + d->share_key;
    for (size_t i = 0; i < d->n; i++)
        d->order[i] = i;
    d->text[f->n_legend] = TF_SHARE_KEY_TEXT;
    d->size = fs;
    d->pad = pad * fs;
    d->row_h = text_h(fs, p->bold);
    d->handle_w = handle * fs;
    d->handle_h = tf_style.leg_handle_h * fs;
    d->textpad = textpad * fs;
    d->colspace = colspace * fs;
    d->spacing = tf_style.leg_labelspace * fs;
    for (size_t i = 0; i < f->n_legend; i++)
        d->text[i] = f->legend[i].label ? f->legend[i].label : "";
    return true;
}
