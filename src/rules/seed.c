/* seed.c - see seed.h. */
#include "rules/seed.h"

#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "rules/stats.h"
#include "base/ticks.h"

#define PT_PER_IN 72.0

bool tf_seed_frame(struct tf_figure *f, bool has_main_lane, double tick_span)
{
    f->clock_unit = "ms";
    f->reference_layout = true;
    f->width_pt = TF_FIG_WIDTH_IN * PT_PER_IN;
    f->height_pt = (TF_FIG_BASE_HEIGHT_IN + TF_FIG_BOTTOM_EXTRA_IN +
                    (has_main_lane ? TF_FIG_MAIN_EXTRA_IN : 0.0)) *
                   PT_PER_IN;
    if (f->n_lanes > 4)
        f->height_pt += (double)(f->n_lanes - 4) * TF_FIG_EXTRA_LANE_PT;
    f->axis.title = "Time (ms)";
    f->axis.unit = "ms";
    double ticks[TF_TICKS_MAX];
    size_t n = tf_nice_ticks(0.0, tick_span, 9, ticks, TF_TICKS_MAX);
    return tf_figure_set_ticks(f, ticks, n);
}

const char *tf_seed_bar_title(const char *name)
{
    static const struct {
        const char *name, *title;
    } titles[] = {
        {"hdf5_io", "HDF5 read"},
        {"compute", "GPU compute"},
        {"wait_for_io", "Wait for prefetch"},
        {"await_dispatch", "Ready \xE2\x86\x92 launch"},
        {"trsm_host", "TRSM (host)"},
        {"io", "I/O"},
    };
    for (size_t i = 0; i < sizeof titles / sizeof titles[0]; i++)
        if (strcmp(name, titles[i].name) == 0)
            return titles[i].title;
    return name;
}

bool tf_seed_bar_tooltip(struct tf_figure *f, struct tf_bar *b, bool has_candidate,
                         long long candidate)
{
    char dur[TF_NUM_MAX];
    tf_fmt_num(dur, b->dur_ms, 1);
    struct tf_buf tip;
    tf_buf_init(&tip);
    tf_buf_puts(&tip, tf_seed_bar_title(b->name));
    if (has_candidate)
        tf_buf_printf(&tip, " \xC2\xB7 candidate %lld", candidate);
    tf_buf_printf(&tip, " \xC2\xB7 %s ms", dur);
    b->title = tf_figure_buf(f, &tip);
    tf_buf_fini(&tip);
    return b->title != NULL;
}

size_t tf_seed_legend_cat(struct tf_figure *f, uint32_t color, const char *key)
{
    for (size_t i = 0; i < f->n_cats; i++)
        if (f->cats[i].color == color)
            return i;
    return tf_figure_category(f, key, color);
}

/* The group a seed lane belongs to: 0 main, 1 io, 2 gpu, -1 none. */
static int seed_group(const char *key)
{
    if (!key)
        return -1;
    if (strcmp(key, "main") == 0)
        return 0;
    if (strcmp(key, "io") == 0)
        return 1;
    return strncmp(key, "gpu", 3) == 0 ? 2 : -1;
}

/* Each candidate's I/O (its I/O bars, clipped), in the order of the
 * candidates' first I/O bar: the pipelined mode draws one bar per
 * candidate, ascending. */
static bool seed_candidates(struct tf_figure *f, const struct tf_stats_clock *c,
                            const struct tf_ivset *gpu)
{
    struct tf_ivset io;
    tf_ivset_init(&io);
    bool ok = true;
    for (size_t i = 0; i < f->n_bars && ok; i++) {
        const struct tf_bar *b = &f->bars[i];
        const struct tf_prop *p = tf_prop_find(b->props, b->n_props, "candidate");
        if (seed_group(f->lanes[b->lane].key) != 1 || !p || !p->value)
            continue;
        long long cand = strtoll(p->value, NULL, 10);
        bool seen = false;
        for (size_t k = 0; k < f->stats.n_candidates && !seen; k++)
            seen = f->stats.candidates[k].candidate == cand;
        if (seen)
            continue;
        tf_ivset_clear(&io);
        for (size_t j = i; j < f->n_bars && ok; j++) {
            const struct tf_bar *o = &f->bars[j];
            const struct tf_prop *q = tf_prop_find(o->props, o->n_props, "candidate");
            if (o->lane != b->lane || !q || !q->value || strtoll(q->value, NULL, 10) != cand)
                continue;
            double x0, x1;
            tf_bar_drawn_extent(f, o, &x0, &x1);
            ok = tf_ivset_add(&io, tf_stats_ticks(c, x0), tf_stats_ticks(c, x1));
        }
        if (ok) {
            tf_ivset_normalize(&io);
            tf_ivset_clip(&io, c->lo, c->hi);
            ok = tf_stats_add_candidate(f, c, cand, &io, gpu);
        }
    }
    tf_ivset_fini(&io);
    return ok;
}

bool tf_seed_stats(struct tf_figure *f, const struct tf_opts *o)
{
    if (o && o->no_stats)
        return true;
    static const char *const names[3] = {"main", "io", "gpu"};
    struct tf_stats_clock c;
    tf_stats_clock_init(&c, f->x_span);
    struct tf_ivset *lanes = calloc(f->n_lanes ? f->n_lanes : 1, sizeof *lanes);
    size_t *idx = malloc((f->n_lanes ? f->n_lanes : 1) * 3 * sizeof *idx);
    struct tf_ivset io, gpu;
    tf_ivset_init(&io);
    tf_ivset_init(&gpu);
    bool ok = lanes && idx && tf_stats_bar_sets(f, &c, 1.0, lanes);
    if (ok) {
        struct tf_stats_group_in groups[3];
        size_t n_groups = 0, used = 0;
        for (int g = 0; g < 3; g++) {
            size_t first = used;
            for (size_t i = 0; i < f->n_lanes; i++)
                if (seed_group(f->lanes[i].key) == g)
                    idx[used++] = i;
            if (used > first)
                groups[n_groups++] = (struct tf_stats_group_in){names[g], idx + first,
                                                                used - first};
            if (g == 1)
                ok = ok && tf_stats_union_lanes(lanes, idx + first, used - first, &io);
            if (g == 2)
                ok = ok && tf_stats_union_lanes(lanes, idx + first, used - first, &gpu);
        }
        ok = ok && tf_stats_fill(f, &c, lanes, groups, n_groups, o);
    }
    if (ok) {
        tf_stats_pipelined(f, &c, &io, &gpu);
        ok = seed_candidates(f, &c, &gpu) && tf_stats_summary(f);
    }
    if (lanes)
        for (size_t i = 0; i < f->n_lanes; i++)
            tf_ivset_fini(&lanes[i]);
    free(lanes);
    free(idx);
    tf_ivset_fini(&io);
    tf_ivset_fini(&gpu);
    return ok;
}
