/* tikz.c - placeholder until the TikZ back-end lands. */
#include "render.h"

static bool render_tikz(const struct tf_figure *f, const struct tf_render_opts *o,
                        struct tf_buf *b, struct tf_diag *d)
{
    (void)f, (void)o, (void)b;
    return tf_diag_error(d, TF_EUSAGE, "tikz output is not implemented yet");
}

const struct tf_backend tf_backend_tikz = {
    .name = "tikz", .exts = {".tex", NULL}, .description = "TikZ/PGF fragment for \\input",
    .available = true, .render = render_tikz,
};
