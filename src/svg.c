/* svg.c - placeholder until the SVG back-end lands. */
#include "render.h"

static bool render_svg(const struct tf_figure *f, const struct tf_render_opts *o,
                       struct tf_buf *b, struct tf_diag *d)
{
    (void)f, (void)o, (void)b;
    return tf_diag_error(d, TF_EUSAGE, "svg output is not implemented yet");
}

const struct tf_backend tf_backend_svg = {
    .name = "svg", .exts = {".svg", NULL}, .description = "standalone SVG for the web",
    .available = true, .render = render_svg,
};
