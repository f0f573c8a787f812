/* model_stats.c - a figure model's "stats" read back (model_int.h): the
 * numbers render/json.c writes (schema 2's counters too), for the --stats
 * columns of a figure drawn from models. */
#include "load/model_int.h"

/* Schema 2's "counters": {lane, min, max, mean} (values null: none in the
 * window), each of a counter lane. */
static bool read_counters(struct reader *r, const json_t *o, size_t n_lanes, size_t lane0,
                          struct tf_stats *s)
{
    const json_t *cs = get_array(r, o, "counters", false);
    size_t n = cs ? json_array_size(cs) : 0;
    if (!cs && json_object_get(o, "counters"))
        return false;
    s->counters = calloc(n ? n : 1, sizeof *s->counters);
    if (!s->counters)
        return tf_diag_oom(r->d, r->file);
    for (size_t i = 0; i < n; i++) {
        const json_t *e = json_array_get(cs, i);
        struct tf_stat_counter *k = &s->counters[s->n_counters++];
        long long lane = 0;
        bool has_max = false, has_mean = false;
        if (!get_int(r, e, "lane", at(r, "stats.counters", i, "lane"), &lane) ||
            !get_opt_num(r, e, "min", at(r, "stats.counters", i, "min"), &k->has_value,
                         &k->min) ||
            !get_opt_num(r, e, "max", at(r, "stats.counters", i, "max"), &has_max, &k->max) ||
            !get_opt_num(r, e, "mean", at(r, "stats.counters", i, "mean"), &has_mean, &k->mean))
            return false;
        if (lane < (long long)lane0 || (unsigned long long)lane - lane0 >= n_lanes ||
            r->f->lanes[lane - (long long)lane0].kind != TF_LANE_COUNTER)
            return tf_diag_error(r->d, TF_EBADINPUT,
                                 "%s: stats.counters[%zu].lane: %lld is not a counter lane",
                                 r->file, i, lane);
        if (has_max != k->has_value || has_mean != k->has_value)
            return type_error(r, at(r, "stats.counters", i, NULL),
                              "min, max and mean all numbers or all null", e);
        k->lane = (size_t)lane - lane0;
    }
    return true;
}

bool tf_model_read_stats(struct reader *r, const json_t *o, size_t n_lanes, size_t lane0,
                         struct tf_stats *s)
{
    memset(s, 0, sizeof *s);
    if (!o || json_is_null(o))
        return true;
    if (!json_is_object(o))
        return type_error(r, "stats", "an object or null", o);
    s->on = true;
    if (!get_num(r, o, "window_ms", "stats.window_ms", &s->window_ms))
        return false;
    const json_t *lanes = get_array(r, o, "lanes", true);
    if (!lanes)
        return false;
    if (json_array_size(lanes) != n_lanes)
        return tf_diag_error(r->d, TF_EBADINPUT, "%s: stats.lanes: %zu entries for %zu lanes",
                             r->file, json_array_size(lanes), n_lanes);
    s->lane_busy_ms = calloc(n_lanes ? n_lanes : 1, sizeof *s->lane_busy_ms);
    if (!s->lane_busy_ms)
        return tf_diag_oom(r->d, r->file);
    for (size_t i = 0; i < n_lanes; i++) {
        /* A counter lane's busy time is null (0 in the model). */
        const json_t *e = json_array_get(lanes, i);
        const json_t *busy = json_object_get(e, "busy_ms");
        if (i < r->f->n_lanes && r->f->lanes[i].kind == TF_LANE_COUNTER && json_is_null(busy))
            continue;
        if (!get_num(r, e, "busy_ms", at(r, "stats.lanes", i, "busy_ms"), &s->lane_busy_ms[i]))
            return false;
    }
    const json_t *groups = get_array(r, o, "groups", true);
    if (!groups)
        return false;
    size_t ng = json_array_size(groups);
    s->groups = calloc(ng ? ng : 1, sizeof *s->groups);
    s->overlap_ms = calloc(ng ? ng * ng : 1, sizeof *s->overlap_ms);
    if (!s->groups || !s->overlap_ms)
        return tf_diag_oom(r->d, r->file);
    for (size_t g = 0; g < ng; g++) {
        const json_t *e = json_array_get(groups, g);
        struct tf_stat_group *gr = &s->groups[g];
        s->n_groups++;
        if (!get_str(r, e, "label", at(r, "stats.groups", g, "label"), false, &gr->label) ||
            !get_num(r, e, "busy_ms", at(r, "stats.groups", g, "busy_ms"), &gr->busy_ms))
            return false;
        const json_t *gl = json_object_get(e, "lanes");
        if (!json_is_array(gl))
            return type_error(r, at(r, "stats.groups", g, "lanes"), "an array", gl);
        gr->lanes = malloc((json_array_size(gl) ? json_array_size(gl) : 1) * sizeof *gr->lanes);
        if (!gr->lanes)
            return tf_diag_oom(r->d, r->file);
        for (size_t i = 0; i < json_array_size(gl); i++) {
            const json_t *x = json_array_get(gl, i);
            if (!json_is_integer(x) || json_integer_value(x) < 0)
                return type_error(r, at(r, "stats.groups", g, "lanes"), "lane indexes", x);
            gr->lanes[gr->n_lanes++] = (size_t)json_integer_value(x);
        }
    }
    const json_t *ov = get_array(r, o, "overlap_ms", true);
    if (!ov || (r->schema == 2 && !read_counters(r, o, n_lanes, lane0, s)))
        return false;
    for (size_t a = 0; a < ng && a < json_array_size(ov); a++) {
        const json_t *row = json_array_get(ov, a);
        for (size_t c = 0; c < ng && json_is_array(row) && c < json_array_size(row); c++) {
            const json_t *x = json_array_get(row, c);
            if (!json_is_number(x))
                return type_error(r, "stats.overlap_ms", "numbers", x);
            s->overlap_ms[a * ng + c] = json_number_value(x);
        }
    }
    if (json_object_get(o, "io_hidden_pct")) {
        s->pipelined = true;
        if (!get_opt_num(r, o, "io_hidden_pct", "stats.io_hidden_pct", &s->has_io_hidden,
                         &s->io_hidden_pct) ||
            !get_num(r, o, "gpu_idle_ms", "stats.gpu_idle_ms", &s->gpu_idle_ms))
            return false;
        const json_t *ci = get_array(r, o, "candidate_io", false);
        size_t nc = ci ? json_array_size(ci) : 0;
        s->candidates = calloc(nc ? nc : 1, sizeof *s->candidates);
        if (!s->candidates)
            return tf_diag_oom(r->d, r->file);
        for (size_t i = 0; i < nc; i++) {
            const json_t *e = json_array_get(ci, i);
            struct tf_stat_candidate *c = &s->candidates[s->n_candidates++];
            if (!get_int(r, e, "candidate", at(r, "stats.candidate_io", i, "candidate"),
                         &c->candidate) ||
                !get_num(r, e, "io_ms", at(r, "stats.candidate_io", i, "io_ms"), &c->io_ms) ||
                !get_num(r, e, "uncovered_io_ms",
                         at(r, "stats.candidate_io", i, "uncovered_io_ms"),
                         &c->uncovered_io_ms))
                return false;
        }
    }
    const json_t *gb = json_object_get(o, "gpu_breakdown");
    if (json_is_object(gb)) {
        struct tf_gpu_breakdown *g = &s->gpu;
        s->has_gpu = true;
        const json_t *scope = json_object_get(gb, "scope");
        g->scope_trace = json_is_string(scope) && strcmp(json_string_value(scope), "trace") == 0;
        if (!get_num(r, gb, "kernel_span_ms", "stats.gpu_breakdown.kernel_span_ms",
                     &g->kernel_span_ms) ||
            !get_num(r, gb, "idle_ms", "stats.gpu_breakdown.idle_ms", &g->idle_ms) ||
            !get_num(r, gb, "compute_ms", "stats.gpu_breakdown.compute_ms", &g->compute_ms) ||
            !get_num(r, gb, "non_compute_ms", "stats.gpu_breakdown.non_compute_ms",
                     &g->non_compute_ms) ||
            !get_num(r, gb, "comm_ms", "stats.gpu_breakdown.comm_ms", &g->comm_ms) ||
            !get_opt_num(r, gb, "comm_comp_overlap_pct",
                         "stats.gpu_breakdown.comm_comp_overlap_pct", &g->has_comm,
                         &g->comm_comp_overlap_pct))
            return false;
    }
    return get_str(r, o, "summary", "stats.summary", true, &s->summary);
}
