/* tikz_zoom.c - the TikZ figure's zoom panels (templates/tikz-zoom.tex):
 * inside the main picture, the bands over the zoomed ranges and where its
 * plot is; inside a zoom panel's picture, where its plot is.  tikz.c puts
 * the panels in a row under the figure and draws the connectors.
 */
#include "render/tikz_int.h"

void tz_emit_zoom_marks(struct tikz *t, const struct tf_plan *p)
{
    struct tf_buf *b = t->b;
    if (p->n_zooms) {
        tf_buf_puts(b, "% Zoom bands {panel}{x0}{x1}, and where the plot is for the panels under it.\n"
                       "\\tracefigzoombox\\tracefigzoommain\n");
        for (size_t k = 0; k < p->n_zooms; k++) {
            const struct tf_zoom *z = &t->f->zooms[p->zooms[k].zoom];
            tf_buf_printf(b, "\\tracefigzoomband{%c}{", (char)('a' + k));
            tz_num(t, tz_xu(t, z->t0));
            tf_buf_puts(b, "}{");
            tz_num(t, tz_xu(t, z->t1));
            tf_buf_puts(b, "}%\n");
        }
    }
    if (t->zoom_panel)
        tf_buf_printf(b, "\\tracefigzoombox\\tracefigzoomplot{%c}%%\n",
                      (char)('a' + t->zoom_panel - 1));
}
