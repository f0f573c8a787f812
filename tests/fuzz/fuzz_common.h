/* fuzz_common.h - shared by the libFuzzer targets: write the input to a
 * private file (the loaders read paths, as the CLI does), render a figure
 * with every back-end built in, its statistics as text and CSV, and, when
 * it has a summary line, the annotated figure (SVG, TikZ). */
#ifndef TF_FUZZ_COMMON_H
#define TF_FUZZ_COMMON_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "model/figure.h"
#include "render/render.h"
#include "render/stats.h"
#include "lib/run.h"

static const char *fuzz_path(const char *tag)
{
    static char path[128];
    if (!path[0])
        snprintf(path, sizeof path, "/dev/shm/tracefig-fuzz-%s-%ld.json", tag, (long)getpid());
    return path;
}

static int fuzz_write(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    if (size && fwrite(data, 1, size, f) != size) {
        fclose(f);
        return -1;
    }
    return fclose(f);
}

/* What holds of every figure the generic mode accepts: every bar, arrow
 * and tick inside the axis, on lanes, rows and categories that exist;
 * every counter lane's samples in order inside the axis and its range,
 * its mean between its min and max. */
static void fuzz_fail(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz: %s\n", what);
        abort();
    }
}

static void fuzz_check_figure(const struct tf_figure *f)
{
    double eps = 1e-9 * (f->x_span > 1 ? f->x_span : 1);
    fuzz_fail(isfinite(f->x_span) && f->x_span > 0, "the axis has no span");
    fuzz_fail(f->n_lanes > 0 && (f->n_bars > 0 || tf_figure_counters(f) > 0),
              "an accepted figure draws nothing");
    for (size_t i = 0; i < f->n_lanes; i++) {
        const struct tf_lane *l = &f->lanes[i];
        if (l->kind != TF_LANE_COUNTER)
            continue;
        const struct tf_counter *k = &l->counter;
        fuzz_fail(k->has_range && isfinite(k->lo) && isfinite(k->hi) && k->lo <= k->hi,
                  "a counter lane without a range");
        fuzz_fail(k->n_samples > 0, "a counter lane without samples");
        for (size_t j = 0; j < k->n_samples; j++) {
            const struct tf_sample *s = &k->samples[j];
            fuzz_fail(s->x >= -eps && s->x <= f->x_span + eps, "a counter sample outside the axis");
            fuzz_fail(j == 0 || s->x >= k->samples[j - 1].x, "counter samples out of order");
            fuzz_fail(isnan(s->v) || (s->v >= k->lo && s->v <= k->hi),
                      "a counter value off its range");
        }
    }
    for (size_t i = 0; i < f->stats.n_counters; i++) {
        const struct tf_stat_counter *k = &f->stats.counters[i];
        fuzz_fail(k->lane < f->n_lanes && f->lanes[k->lane].kind == TF_LANE_COUNTER,
                  "counter statistics of a lane that is no counter");
        fuzz_fail(!k->has_value || (k->min <= k->mean + 1e-9 * fabs(k->mean) + 1e-300 &&
                                    k->mean <= k->max + 1e-9 * fabs(k->max) + 1e-300),
                  "a counter's mean outside its min and max");
    }
    for (size_t i = 0; i < f->n_bars; i++) {
        const struct tf_bar *b = &f->bars[i];
        fuzz_fail(b->lane < f->n_lanes, "a bar on a lane that does not exist");
        fuzz_fail(b->row < f->lanes[b->lane].rows, "a bar below its lane's rows");
        fuzz_fail(b->cat < f->n_cats, "a bar of a category that does not exist");
        fuzz_fail(isfinite(b->x0) && isfinite(b->x1) && b->x0 <= b->x1,
                  "a bar ends before it starts");
        fuzz_fail(b->x0 >= -eps && b->x1 <= f->x_span + eps, "a bar outside the axis");
        fuzz_fail(b->name && b->title, "a bar without a name");
    }
    for (size_t i = 0; i < f->n_arrows; i++) {
        const struct tf_arrow *a = &f->arrows[i];
        fuzz_fail(a->lane0 < f->n_lanes && a->lane1 < f->n_lanes, "an arrow to a missing lane");
        fuzz_fail(a->x0 >= -eps && a->x1 <= f->x_span + eps && a->x1 >= -eps &&
                      a->x0 <= f->x_span + eps,
                  "an arrow outside the axis");
    }
    for (size_t i = 0; i < f->axis.n_ticks; i++)
        fuzz_fail(f->axis.ticks[i] >= -eps && f->axis.ticks[i] <= f->x_span + eps,
                  "a tick outside the axis");
    for (size_t i = 0; i < f->n_legend; i++)
        fuzz_fail(f->legend[i].cat < f->n_cats, "a legend entry of a missing category");
}

/* Every back-end must render a figure the rules accepted. */
/* Every back-end on the figure, at a paper size (NULL: the defaults). */
static void fuzz_render_all_at(const struct tf_figure *fig, const struct tf_size *size)
{
    struct tf_render_opts ro = {.cmdline = "tracefig --trace fuzz.json", .dpi = 12.0};
    if (size)
        ro.size = *size;
    for (size_t i = 0; tf_backends[i]; i++) {
        const struct tf_backend *be = tf_backends[i];
        if (!be->available)
            continue;
        for (int standalone = 0; standalone < 2; standalone++) {
            if (standalone && be != &tf_backend_tikz)
                continue;
            ro.standalone = standalone;
            struct tf_buf b;
            tf_buf_init(&b);
            struct tf_diag d;
            tf_diag_init(&d);
            d.quiet = true;
            if (!be->render(fig, &ro, &b, &d) && d.code != TF_EIO && d.code != TF_ENOMEM) {
                /* a back-end must not reject a figure the rules accepted */
                fprintf(stderr, "fuzz: %s rejected the figure: %s\n", be->name, d.msg);
                abort();
            }
            tf_buf_fini(&b);
        }
    }
    /* The statistics as --stats prints them, and the figure with its
     * summary line (the layout's and TikZ's annotated paths). */
    struct tf_buf b;
    tf_buf_init(&b);
    tf_stats_write_table(fig, &b);
    tf_stats_write_csv(fig, &b);
    tf_buf_fini(&b);
    if (fig->stats.summary) {
        struct tf_figure a = *fig; /* a shallow copy: read only, never finied */
        a.annotate = true;
        const struct tf_backend *annotated[] = {&tf_backend_svg, &tf_backend_tikz};
        for (size_t i = 0; i < 2; i++) {
            struct tf_diag d;
            tf_diag_init(&d);
            d.quiet = true;
            tf_buf_init(&b);
            ro.standalone = false;
            if (!annotated[i]->render(&a, &ro, &b, &d) && d.code != TF_EIO &&
                d.code != TF_ENOMEM) {
                fprintf(stderr, "fuzz: %s rejected the annotated figure: %s\n",
                        annotated[i]->name, d.msg);
                abort();
            }
            tf_buf_fini(&b);
        }
    }
}

static void fuzz_render_all(const struct tf_figure *fig)
{
    fuzz_render_all_at(fig, NULL);
}

#endif
