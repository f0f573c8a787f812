/* remodel.c - a figure model read back (load/model.h) made whole again:
 * what the model does not hold, made by the rules of the mode that drew
 * it.  The Chrome mode's part is rules/chrome/remodel.c; the seed modes'
 * is here: their tooltips, label colours, zigzag and canvas.  It does not
 * read the model (load/model.c) or change what it holds.
 */
#include "rules/remodel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rules/chrome.h"
#include "rules/seed.h"

static bool seed_remodel(struct tf_figure *f)
{
    bool pytorch = f->mode && strcmp(f->mode, "pytorch") == 0;
    for (size_t i = 0; i < f->n_bars; i++) {
        struct tf_bar *b = &f->bars[i];
        const struct tf_prop *p = tf_prop_find(b->props, b->n_props, "candidate");
        bool has = p && p->value;
        const char *key = f->lanes[b->lane].key;
        b->label_color = key && strcmp(key, "io") == 0 ? TF_COLOR_BLACK : TF_COLOR_WHITE;
        if (!tf_seed_bar_tooltip(f, b, has, has ? strtoll(p->value, NULL, 10) : 0))
            return false;
    }
    double span = fmax(f->x_span, 1.0);
    f->zigzag_amp = pytorch ? TF_ZIGZAG_AMP_FRAC * span
                            : fmin(TF_ZIGZAG_AMP_MAX_MS,
                                   fmax(TF_ZIGZAG_AMP_MIN_MS, TF_ZIGZAG_AMP_FRAC * span));
    /* The canvas as tf_seed_frame makes it; the model's ticks stay. */
    bool main_lane = f->n_lanes > 0 && f->lanes[0].key && strcmp(f->lanes[0].key, "main") == 0;
    f->width_pt = TF_FIG_WIDTH_IN * 72.0;
    f->height_pt = (TF_FIG_BASE_HEIGHT_IN + TF_FIG_BOTTOM_EXTRA_IN +
                    (main_lane ? TF_FIG_MAIN_EXTRA_IN : 0.0)) * 72.0;
    if (f->n_lanes > 4)
        f->height_pt += (double)(f->n_lanes - 4) * TF_FIG_EXTRA_LANE_PT;
    if (f->has_panel)
        f->panel.title = f->panel.title ? f->panel.title : "";
    /* The reference script's layout, as the seed modes draw it. */
    f->reference_layout = true;
    const char *what = pytorch ? "PyTorch trace timeline" : "Pipelined I/O timeline";
    return tf_figure_describe(f, what, what);
}

bool tf_remodel(struct tf_figure *f)
{
    if (f->mode && strcmp(f->mode, "chrome") == 0)
        return tf_chrome_remodel(f);
    if (f->mode && (strcmp(f->mode, "timeline") == 0 || strcmp(f->mode, "pytorch") == 0))
        return seed_remodel(f);
    return tf_figure_describe(f, "Trace timeline", "Trace timeline");
}
