/* plan_rows.c - a lane's rows as the plan draws them (plan.h): how many a
 * lane takes at a depth, which row each of its rows is drawn in when the
 * depth is cut (a GPU stream's annotations give way first), and where a
 * counter lane's values sit in its band and how its scale labels read.
 * It does not decide the depth (plan.c).
 */
#include "render/plan.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/num.h"

unsigned tf_plan_lane_rows(const struct tf_lane *ln)
{
    if (ln->kind == TF_LANE_COUNTER)
        return TF_PLAN_COUNTER_ROWS;
    return ln->rows ? ln->rows : 1;
}

unsigned tf_plan_rows_at(const struct tf_lane *ln, unsigned d)
{
    unsigned r = tf_plan_lane_rows(ln);
    return ln->kind == TF_LANE_COUNTER || r <= d ? r : d;
}

/* Whether a lane's rows below the last it draws are folded into that
 * row rather than left out (keep_inner). */
static bool folds(const struct tf_lane *ln, unsigned drawn)
{
    return ln->keep_inner && drawn > 0 && drawn < tf_plan_lane_rows(ln) &&
           ln->kind != TF_LANE_COUNTER;
}

/* Its work's rows first (below its annotation rows), then as many
 * annotation rows as remain, the outermost, above them.  A lane that keeps
 * its inner rows (keep_inner) draws its outer rows as they are and folds
 * the rest into its last drawn row: each slice there over the one it is
 * nested in (the bars come row by row), so that the row shows, at each
 * moment, the innermost region (an MPI call where there is one, else the
 * MPI_Init or loop around it), and its ink is the union of them all. */
unsigned tf_plan_row_drawn(const struct tf_lane *ln, unsigned drawn, unsigned row)
{
    unsigned all = tf_plan_lane_rows(ln), annots = ln->annot_rows;
    if (folds(ln, drawn))
        return row < drawn - 1 ? row : drawn - 1;
    if (drawn >= all || annots == 0 || annots >= all || ln->kind == TF_LANE_COUNTER)
        return row < drawn ? row : TF_PLAN_NO_ROW;
    unsigned work = all - annots;
    unsigned keep_w = work < drawn ? work : drawn, keep_a = drawn - keep_w;
    if (row < annots)
        return row < keep_a ? row : TF_PLAN_NO_ROW;
    return row - annots < keep_w ? keep_a + (row - annots) : TF_PLAN_NO_ROW;
}

unsigned tf_plan_row(const struct tf_plan *p, const struct tf_figure *f, size_t lane,
                     unsigned row)
{
    if (lane >= p->n_lanes || lane >= f->n_lanes)
        return TF_PLAN_NO_ROW;
    return tf_plan_row_drawn(&f->lanes[lane], p->lanes[lane].rows, row);
}

unsigned tf_plan_bar_row(const struct tf_plan *p, const struct tf_figure *f,
                         const struct tf_bar *b)
{
    unsigned r = tf_plan_row(p, f, b->lane, b->row);
    if (r != TF_PLAN_NO_ROW || !b->critical || b->lane >= p->n_lanes || b->lane >= f->n_lanes ||
        f->lanes[b->lane].kind == TF_LANE_COUNTER || p->lanes[b->lane].rows == 0)
        return r;
    return p->lanes[b->lane].rows - 1;
}

bool tf_plan_row_under(const struct tf_plan *p, const struct tf_figure *f, size_t lane,
                       unsigned row)
{
    if (lane >= p->n_lanes || lane >= f->n_lanes || !folds(&f->lanes[lane], p->lanes[lane].rows))
        return false;
    return row + 1 >= p->lanes[lane].rows && row + 1 < tf_plan_lane_rows(&f->lanes[lane]);
}

/* --- counter lanes ----------------------------------------------------------------- */

double tf_plan_counter_y(const struct tf_counter *k, double v)
{
    if (!k->has_range || !(k->hi > k->lo))
        return 0.5;
    double u = (v - k->lo) / (k->hi - k->lo);
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    return 1.0 - TF_PLAN_COUNTER_PAD - u * (1.0 - 2 * TF_PLAN_COUNTER_PAD);
}

const char *tf_plan_counter_value(char *out, double v, const char *unit)
{
    static const char *const prefix[] = {"", "k", "M", "G", "T", "P", "E"};
    double a = fabs(v);
    size_t k = 0;
    /* 999.5 rounds to 1000: the next prefix. */
    while (k + 1 < sizeof prefix / sizeof prefix[0] && a >= 999.5) {
        a /= 1000;
        v /= 1000;
        k++;
    }
    int dec = 0;
    if (a == 0)
        dec = 0;
    else if (a < 9.995)
        dec = 2;
    else if (a < 99.95)
        dec = 1;
    /* Below 1 without a prefix: three significant digits, at most 9 decimals. */
    for (double p = 0.1; k == 0 && a > 0 && a < p * 9.995 && dec < 9; p /= 10)
        dec++;
    char num[TF_NUM_MAX];
    tf_fmt_num(num, v, dec);
    const char *u = unit ? unit : "";
    if (strcmp(u, "#") == 0) /* a count (Score-P's unit): "2.11 G", not "2.11 G#" */
        snprintf(out, TF_PLAN_VALUE_MAX, "%s%s%s", num, k ? " " : "", prefix[k]);
    else if (!*u)
        snprintf(out, TF_PLAN_VALUE_MAX, "%s%s", num, prefix[k]);
    else
        snprintf(out, TF_PLAN_VALUE_MAX, "%s %s%s", num, prefix[k], u);
    return out;
}
