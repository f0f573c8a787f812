/* seed.c - see seed.h. */
#include "rules/seed.h"

#include <string.h>

#include "base/num.h"
#include "rules/ticks.h"

#define PT_PER_IN 72.0

bool tf_seed_frame(struct tf_figure *f, bool has_main_lane, double tick_span)
{
    f->clock_unit = "ms";
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
