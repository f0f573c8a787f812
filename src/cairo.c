/* cairo.c - placeholder until the cairo back-end lands. */
#include "render.h"

static bool render_none(const struct tf_figure *f, const struct tf_render_opts *o,
                        struct tf_buf *b, struct tf_diag *d)
{
    (void)f, (void)o, (void)b;
    return tf_diag_error(d, TF_EUSAGE, "PDF/PNG output is not implemented yet");
}

const struct tf_backend tf_backend_pdf = {
    .name = "pdf", .exts = {".pdf", NULL}, .description = "PDF (cairo)",
    .available = false, .render = render_none,
};
const struct tf_backend tf_backend_png = {
    .name = "png", .exts = {".png", NULL}, .description = "PNG (cairo), --dpi",
    .available = false, .render = render_none,
};
