/* plan_counters.c - counter tracks at the plot's real width: the one place
 * that decides which samples of a step line are drawn.  The rules keep
 * each track thinned at the fine resolution of the model (TF_LOD_FINE_BINS
 * stretches across the axis: the first, least, greatest and last sample of
 * each); here, once the plan knows the plot's width, each track is thinned
 * the same way per bin of TF_LOD_PT (the bars' bins, render/plan_busy.c),
 * and coarser (bins twice as wide, as often as needed) until all tracks
 * together hold at most TF_PLAN_COUNTER_SAMPLES samples.  A stop (no value
 * from then on) ends a stretch and is always kept, so is every track's
 * greatest and least value.
 *
 * It does not touch the figure: the thinned tracks are new lanes in the
 * plan's binned copy (struct tf_binned), their samples in its arena.
 */
#include "render/plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Appends p to out[0..*n) unless it repeats the value before (no step; a
 * stop after a stop neither, nor a stop first). */
static void keep(struct tf_sample *out, size_t *n, struct tf_sample p)
{
    if (*n > 0) {
        double v = out[*n - 1].v;
        if (isnan(p.v) ? isnan(v) : p.v == v)
            return;
    } else if (isnan(p.v)) {
        return;
    }
    out[(*n)++] = p;
}

/* The picks of a stretch (first, least, greatest, last) in sample order,
 * each once. */
static void keep_picks(struct tf_sample *out, size_t *n, const struct tf_sample *pick,
                       const size_t *at)
{
    size_t last = SIZE_MAX;
    for (size_t done = 0; done < 4; done++) {
        size_t m = SIZE_MAX;
        for (size_t j = 0; j < 4; j++)
            if ((last == SIZE_MAX || at[j] > last) && (m == SIZE_MAX || at[j] < at[m]))
                m = j;
        if (m == SIZE_MAX)
            return;
        last = at[m];
        keep(out, n, pick[m]);
    }
}

/* in[0..n_in) thinned per stretch of w axis units into out (room for
 * n_in); the samples kept. */
static size_t thin(const struct tf_sample *in, size_t n_in, double w, struct tf_sample *out)
{
    size_t n = 0, at[4] = {0};
    struct tf_sample pick[4];
    bool open = false;
    double bucket = 0;
    for (size_t i = 0; i <= n_in; i++) {
        struct tf_sample p = i < n_in ? in[i] : (struct tf_sample){0, 0, (double)NAN};
        bool stop = i == n_in || isnan(p.v);
        if (open && !stop && floor(p.x / w) == bucket) {
            if (p.v < pick[1].v)
                pick[1] = p, at[1] = i;
            if (p.v > pick[2].v)
                pick[2] = p, at[2] = i;
            pick[3] = p, at[3] = i;
            continue;
        }
        if (open)
            keep_picks(out, &n, pick, at);
        open = !stop;
        if (i < n_in && stop)
            keep(out, &n, p);
        if (open) {
            bucket = floor(p.x / w);
            for (size_t j = 0; j < 4; j++)
                pick[j] = p, at[j] = i;
        }
    }
    return n;
}

bool tf_plan_thin_counters(const struct tf_figure *f, double bw, struct tf_binned *out)
{
    size_t n_tracks = 0, total = 0;
    for (size_t i = 0; i < f->n_lanes; i++)
        if (f->lanes[i].kind == TF_LANE_COUNTER) {
            n_tracks++;
            total += f->lanes[i].counter.n_samples;
        }
    if (!n_tracks || !(bw > 0))
        return true;
    struct tf_lane *lanes = tf_arena_alloc(&out->arena, f->n_lanes * sizeof *lanes);
    struct tf_sample *buf = tf_arena_alloc(&out->arena, (total ? total : 1) * sizeof *buf);
    if (!lanes || !buf)
        return false;
    memcpy(lanes, f->lanes, f->n_lanes * sizeof *lanes);
    for (int round = 0; round < 60; round++, bw *= 2) {
        size_t used = 0;
        for (size_t i = 0; i < f->n_lanes; i++) {
            const struct tf_counter *k = &f->lanes[i].counter;
            if (f->lanes[i].kind != TF_LANE_COUNTER)
                continue;
            size_t n = thin(k->samples, k->n_samples, bw, buf + used);
            lanes[i].counter.samples = buf + used;
            lanes[i].counter.n_samples = lanes[i].counter.cap_samples = n;
            used += n;
        }
        if (used <= TF_PLAN_COUNTER_SAMPLES)
            break;
    }
    out->lanes = lanes;
    return true;
}
