/* json_zoom.c - the JSON model's axis, bars and arrows of schema 2 (the
 * main figure's and each zoom's), the zooms ("zooms") and where the plan
 * put their panels (the layout's "zooms").  json.c calls them in its
 * order; the small writers are json_int.h's.
 */
#include <string.h>

#include "render/json_int.h"

/* The axis, the bars and the arrows of schema 2 (the main figure's and
 * each zoom's). */
void tf_json_axis(struct tf_buf *b, const struct tf_figure *f)
{
    key(b, "axis");
    tf_buf_putc(b, '{');
    str(b, "title", f->axis.title);
    tf_buf_puts(b, ", ");
    str(b, "unit", f->axis.unit);
    tf_buf_puts(b, ", ");
    key(b, "span");
    tf_buf_num(b, f->x_span, 6);
    tf_buf_puts(b, ", ");
    strings(b, "ticks", f->axis.labels, f->axis.n_ticks);
    tf_buf_putc(b, '}');
}

void tf_json_bars(struct tf_buf *b, const struct tf_figure *f)
{
    tf_buf_puts(b, ",\n  \"bars\": [");
    static const char *const shapes[] = {"slice", "dense", "instant"};
    for (size_t i = 0; i < f->n_bars; i++) {
        const struct tf_bar *r = &f->bars[i];
        item(b, i);
        key(b, "lane");
        tf_buf_uint(b, r->lane);
        tf_buf_puts(b, ", ");
        key(b, "row");
        tf_buf_uint(b, r->row);
        tf_buf_puts(b, ", ");
        key(b, "x0");
        tf_buf_num(b, r->x0, 6);
        tf_buf_puts(b, ", ");
        key(b, "x1");
        tf_buf_num(b, r->x1, 6);
        tf_buf_puts(b, ", ");
        str(b, "name", r->name);
        tf_buf_puts(b, ", ");
        const struct tf_category *c = &f->cats[r->cat];
        str(b, "category", cat_name(c));
        tf_buf_puts(b, ", ");
        if (strcmp(tf_category_class(c), cat_name(c)) != 0) {
            str(b, "class", tf_category_class(c));
            tf_buf_puts(b, ", ");
        }
        boolean(b, "clip_left", r->clip_left);
        tf_buf_puts(b, ", ");
        boolean(b, "clip_right", r->clip_right);
        tf_buf_puts(b, ", ");
        key(b, "merged");
        tf_buf_uint(b, r->merged);
        tf_buf_puts(b, ", ");
        str(b, "shape", shapes[r->shape]);
        if (r->shape == TF_SHAPE_DENSE) {
            tf_buf_puts(b, ", \"busy\": ");
            tf_bar_busy_json(b, f, r, 6);
        }
        if (r->critical)
            tf_buf_puts(b, ", \"critical\": true");
        if (c->name && strcmp(c->name, TF_LOST_CAT) == 0)
            tf_buf_puts(b, ", \"lost\": true"); /* drawn hatched: neither work nor idle */
        if (f->highlight)
            tf_buf_puts(b, r->faded ? ", \"faded\": true" : ", \"faded\": false");
        tf_buf_putc(b, '}');
    }
    end_list(b, f->n_bars);
    tf_buf_puts(b, ",\n  \"arrows\": [");
    for (size_t i = 0; i < f->n_arrows; i++) {
        const struct tf_arrow *a = &f->arrows[i];
        item(b, i);
        tf_buf_printf(b, "\"from\": {\"lane\": %zu, \"row\": %u, ", a->lane0, a->row0);
        num(b, "x", a->x0);
        tf_buf_printf(b, "}, \"to\": {\"lane\": %zu, \"row\": %u, ", a->lane1, a->row1);
        num(b, "x", a->x1);
        tf_buf_puts(b, a->critical ? "}, \"critical\": true}" : "}}");
    }
    end_list(b, f->n_arrows);
}

/* "zooms" (--zoom): each zoom's range (t0, t1 in the main axis's unit),
 * the --from and --to that draw it alone, its own axis, and its bars,
 * arrows and marks as the main figure has them. */
void tf_json_zooms(struct tf_buf *b, const struct tf_figure *f)
{
    tf_buf_puts(b, ",\n  \"zooms\": [");
    for (size_t i = 0; i < f->n_zooms; i++) {
        const struct tf_zoom *z = &f->zooms[i];
        const struct tf_figure *zf = z->fig;
        item(b, i);
        str(b, "spec", z->spec);
        tf_buf_puts(b, ", \"t0\": ");
        tf_buf_num(b, z->t0, 6);
        tf_buf_puts(b, ", \"t1\": ");
        tf_buf_num(b, z->t1, 6);
        tf_buf_puts(b, ", ");
        str(b, "unit", f->axis.unit);
        tf_buf_printf(b, ", \"from\": \"%lldns\", \"to\": \"%lldns\",\n  ",
                      (long long)z->from_ns, (long long)z->to_ns);
        tf_json_axis(b, zf);
        tf_buf_puts(b, ",\n  \"lanes\": [");
        for (size_t k = 0; k < zf->n_lanes; k++) {
            tf_buf_puts(b, k ? ", " : "");
            tf_buf_json_str(b, zf->lanes[k].label ? zf->lanes[k].label : "");
        }
        tf_buf_puts(b, "]");
        tf_json_bars(b, zf);
        tf_buf_puts(b, ",\n  ");
        tf_json_marks(b, zf);
        tf_buf_puts(b, "}");
    }
    end_list(b, f->n_zooms);
}

/* The zoom panels as placed (plan.h, struct tf_plan_zoom), in the row's
 * order: the zoom, the size its figure alone is planned at (width_pt,
 * font_pt, labels), its plot on the canvas, its top and bottom, the band
 * over the main plot and the two connectors, its rows and ticks. */
void tf_json_layout_zooms(struct tf_buf *b, const struct tf_plan *p)
{
    static const char *const places[] = {"auto", "left", "above", "none"};
    tf_buf_puts(b, ",\n    \"zooms\": [");
    for (size_t i = 0; i < p->n_zooms; i++) {
        const struct tf_plan_zoom *z = &p->zooms[i];
        const struct tf_plan *q = &z->plan;
        tf_buf_printf(b, "%s{\"zoom\": %zu, ", i ? ",\n      " : "\n      ", z->zoom);
        num(b, "width_pt", z->size.width_pt);
        tf_buf_puts(b, ", ");
        num(b, "font_pt", q->font);
        tf_buf_puts(b, ", ");
        str(b, "labels", places[q->labels]);
        tf_buf_puts(b, ", \"plot\": {");
        num(b, "x", z->box.x0);
        tf_buf_puts(b, ", ");
        num(b, "y", z->box.y0);
        tf_buf_puts(b, ", ");
        num(b, "w", z->box.x1 - z->box.x0);
        tf_buf_puts(b, ", ");
        num(b, "h", z->box.y1 - z->box.y0);
        tf_buf_puts(b, "}, ");
        num(b, "top", z->top);
        tf_buf_puts(b, ", ");
        num(b, "bottom", z->bottom);
        tf_buf_puts(b, ", \"band\": {");
        num(b, "x0", z->band_x0);
        tf_buf_puts(b, ", ");
        num(b, "x1", z->band_x1);
        tf_buf_puts(b, ", ");
        num(b, "y0", p->plot.y0);
        tf_buf_puts(b, ", ");
        num(b, "y1", p->plot.y1);
        tf_buf_puts(b, "}, \"connectors\": [");
        for (int k = 0; k < 2; k++) {
            tf_buf_puts(b, k ? ", {" : "{");
            num(b, "x0", k ? z->band_x1 : z->band_x0);
            tf_buf_puts(b, ", ");
            num(b, "y0", p->plot.y1);
            tf_buf_puts(b, ", ");
            num(b, "x1", k ? z->box.x1 : z->box.x0);
            tf_buf_puts(b, ", ");
            num(b, "y1", z->top);
            tf_buf_puts(b, "}");
        }
        tf_buf_printf(b, "], \"depth\": %u, \"lanes_drawn\": %zu, \"ticks\": [", q->depth,
                      q->n_lanes);
        for (size_t t = 0, k = 0; t < q->n_ticks; t++)
            if (q->ticks[t].drawn) {
                if (k++)
                    tf_buf_puts(b, ", ");
                tf_buf_json_str(b, q->ticks[t].label);
            }
        tf_buf_puts(b, "]}");
    }
    tf_buf_puts(b, "]");
}
