/* model_overview.c - a job's overview read back from its model (render/
 * json.c writes it): "overview" (what the rows hold), each row's ranks
 * (lanes[].ranks, n_ranks, rank_list), the ranks' entries ("traces") and
 * the spread and each rank's numbers ("stats": ranks, per_rank), so that
 * the model draws again as it was.  load/model.c reads the rest.
 */
#include "load/model_int.h"

static const char *const orders[] = {"rank", "finish", "busy"};

/* The rows' ranks: lanes[i].ranks [lo, hi], n_ranks, rank_list. */
static bool read_rows(struct reader *r, const json_t *root)
{
    struct tf_figure *f = r->f;
    const json_t *lanes = json_object_get(root, "lanes");
    for (size_t i = 0; i < f->n_lanes && i < json_array_size(lanes); i++) {
        const json_t *e = json_array_get(lanes, i), *rg = json_object_get(e, "ranks");
        struct tf_lane *l = &f->lanes[i];
        long long n = 0;
        if (!json_is_array(rg) || json_array_size(rg) != 2 ||
            !json_is_integer(json_array_get(rg, 0)) || !json_is_integer(json_array_get(rg, 1)))
            return type_error(r, at(r, "lanes", i, "ranks"), "[least, greatest]", rg);
        if (!get_int(r, e, "n_ranks", at(r, "lanes", i, "n_ranks"), &n))
            return false;
        if (n < 1)
            return type_error(r, at(r, "lanes", i, "n_ranks"), "a count of ranks",
                              json_object_get(e, "n_ranks"));
        l->n_ranks = (size_t)n;
        l->rank_lo = (long long)json_integer_value(json_array_get(rg, 0));
        l->rank_hi = (long long)json_integer_value(json_array_get(rg, 1));
        l->trace = SIZE_MAX;
        if (json_object_get(e, "rank_list")) {
            if (!get_str(r, e, "rank_list", at(r, "lanes", i, "rank_list"), false, &l->ranks))
                return false;
        } else {
            char t[64];
            if (l->rank_lo == l->rank_hi)
                snprintf(t, sizeof t, "%lld", l->rank_lo);
            else
                snprintf(t, sizeof t, "%lld-%lld", l->rank_lo, l->rank_hi);
            if (!(l->ranks = tf_figure_str(f, t)))
                return tf_diag_oom(r->d, r->file);
        }
    }
    return true;
}

static bool read_order(struct reader *r, const json_t *o, const char *where,
                       enum tf_rank_order *out)
{
    const json_t *v = json_object_get(o, "order");
    for (int k = 0; k < 3; k++)
        if (json_is_string(v) && strcmp(json_string_value(v), orders[k]) == 0) {
            *out = (enum tf_rank_order)k;
            return true;
        }
    return type_error(r, where, "\"rank\", \"finish\" or \"busy\"", v);
}

/* "stats": the spread and each rank's numbers. */
static bool read_spread(struct reader *r, const json_t *st)
{
    struct tf_overview *o = &r->f->overview;
    const json_t *s = json_is_object(st) ? json_object_get(st, "ranks") : NULL;
    const json_t *pr = json_is_object(st) ? json_object_get(st, "per_rank") : NULL;
    if (!json_is_object(s))
        return type_error(r, "stats.ranks", "an object", s);
    if (!json_is_array(pr))
        return type_error(r, "stats.per_rank", "an array", pr);
    const json_t *bp = json_object_get(s, "busy_pct");
    if (!json_is_object(bp))
        return type_error(r, "stats.ranks.busy_pct", "an object", bp);
    long long lo = 0, hi = 0;
    if (!get_num(r, bp, "min", "stats.ranks.busy_pct.min", &o->busy_min) ||
        !get_num(r, bp, "median", "stats.ranks.busy_pct.median", &o->busy_median) ||
        !get_num(r, bp, "max", "stats.ranks.busy_pct.max", &o->busy_max) ||
        !get_int(r, s, "min_rank", "stats.ranks.min_rank", &lo) ||
        !get_int(r, s, "max_rank", "stats.ranks.max_rank", &hi))
        return false;
    o->min_rank = lo;
    o->max_rank = hi;
    const json_t *last = json_object_get(s, "last_rank");
    if ((o->has_last = last && !json_is_null(last))) {
        long long lr = 0;
        if (!get_int(r, s, "last_rank", "stats.ranks.last_rank", &lr) ||
            !get_num(r, s, "last_end_ms", "stats.ranks.last_end_ms", &o->last_end_ms) ||
            !get_num(r, s, "after_median_ms", "stats.ranks.after_median_ms",
                     &o->after_median_ms) ||
            !get_num(r, s, "after_next_ms", "stats.ranks.after_next_ms", &o->after_next_ms))
            return false;
        o->last_rank = lr;
    }
    size_t n = json_array_size(pr);
    if (n != o->n_ranks)
        return tf_diag_error(r->d, TF_EBADINPUT, "%s: stats.per_rank: %zu ranks, where "
                             "\"overview\" says %zu", r->file, n, o->n_ranks);
    o->ranks = calloc(n ? n : 1, sizeof *o->ranks);
    if (!o->ranks)
        return tf_diag_oom(r->d, r->file);
    for (size_t i = 0; i < n; i++) {
        const json_t *e = json_array_get(pr, i);
        struct tf_rank_stat *k = &o->ranks[i];
        long long rank = 0, row = 0;
        double pct = 0;
        if (!json_is_object(e))
            return type_error(r, at(r, "stats.per_rank", i, NULL), "an object", e);
        if (!get_int(r, e, "rank", at(r, "stats.per_rank", i, "rank"), &rank) ||
            !get_int(r, e, "row", at(r, "stats.per_rank", i, "row"), &row) ||
            !get_num(r, e, "busy_ms", at(r, "stats.per_rank", i, "busy_ms"), &k->busy_ms) ||
            !get_num(r, e, "busy_pct", at(r, "stats.per_rank", i, "busy_pct"), &pct) ||
            !get_opt_num(r, e, "end_ms", at(r, "stats.per_rank", i, "end_ms"), &k->has_end,
                         &k->end_ms))
            return false;
        if (row < 0 || (size_t)row >= r->f->n_lanes)
            return tf_diag_error(r->d, TF_EBADINPUT, "%s: %s: %lld is not one of the %zu rows",
                                 r->file, at(r, "stats.per_rank", i, "row"), row,
                                 r->f->n_lanes);
        k->rank = rank;
        k->row = (size_t)row;
        k->trace = i;
        /* the window the share was of, as near as the model's digits say */
        k->window_ms = pct > 0 ? 100.0 * k->busy_ms / pct : 0;
    }
    return true;
}

bool tf_model_read_overview(struct reader *r, const json_t *root, const struct tf_trace_ref *refs,
                            size_t n_refs)
{
    struct tf_figure *f = r->f;
    struct tf_overview *o = &f->overview;
    const json_t *ov = json_object_get(root, "overview");
    long long n = 0, per_row = 0;
    if (!json_is_object(ov))
        return type_error(r, "overview", "an object", ov);
    if (!get_int(r, ov, "ranks", "overview.ranks", &n) ||
        !get_int(r, ov, "per_row", "overview.per_row", &per_row) ||
        !read_order(r, ov, "overview.order", &o->order) ||
        !get_str(r, ov, "axis", "overview.axis", true, &o->axis) ||
        !get_str(r, ov, "lane", "overview.lane", true, &o->lane))
        return false;
    if (n < 0 || per_row < 1)
        return type_error(r, "overview.ranks", "counts of ranks", ov);
    o->on = true;
    o->n_ranks = (size_t)n;
    o->per_row = (size_t)per_row;
    for (size_t i = 0; i < n_refs; i++)
        if (tf_figure_add_trace(f, &refs[i]) == SIZE_MAX)
            return tf_diag_oom(r->d, r->file);
    return read_rows(r, root) && read_spread(r, json_object_get(root, "stats"));
}
