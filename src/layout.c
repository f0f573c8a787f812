/* layout.c - figure model -> scene; see layout.h.  (Work in progress.) */
#include "layout.h"

bool tf_layout(const struct tf_figure *f, struct tf_scene *out)
{
    out->width = 72.0 * TF_FIG_WIDTH_IN;
    out->height = 72.0 * (TF_FIG_BASE_HEIGHT_IN + TF_FIG_BOTTOM_EXTRA_IN +
                          (f->has_main_lane ? TF_FIG_MAIN_EXTRA_IN : 0.0));
    return !out->oom;
}
