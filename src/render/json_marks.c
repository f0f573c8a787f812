/* json_marks.c - the JSON model's marks: the resolved marks ("marks"),
 * where the plan put them (the layout's "marks"), and the critical path
 * ("critical_path").  json.c calls them in its order; the small writers
 * are json_int.h's.
 */
#include <stdio.h>

#include "render/json_int.h"

/* "marks": each resolved mark (model/figure.h), only when there are
 * any: kind, text as drawn, t0, t1 and dur in axis units, the sides cut
 * by the window, the events named; a highlight's count of kept events. */
void tf_json_marks(struct tf_buf *b, const struct tf_figure *f)
{
    tf_buf_puts(b, "\"marks\": [");
    for (size_t i = 0; i < f->n_marks; i++) {
        const struct tf_mark *m = &f->marks[i];
        item(b, i);
        str(b, "kind", tf_mark_kind_names[m->kind]);
        tf_buf_puts(b, ", ");
        str(b, "text", m->text);
        if (m->kind == TF_MARK_HIGHLIGHT) {
            tf_buf_printf(b, ", \"kept\": %zu}", m->kept);
            continue;
        }
        tf_buf_puts(b, ", \"t0\": ");
        tf_buf_num(b, m->t0, 6);
        tf_buf_puts(b, ", \"t1\": ");
        tf_buf_num(b, m->t1, 6);
        tf_buf_puts(b, ", \"dur\": ");
        tf_buf_num(b, m->dur, 6);
        tf_buf_puts(b, ", ");
        str(b, "unit", f->axis.unit);
        if (m->open0 || m->open1)
            tf_buf_printf(b, ", \"open\": [%s%s%s]", m->open0 ? "\"start\"" : "",
                          m->open0 && m->open1 ? ", " : "", m->open1 ? "\"end\"" : "");
        if (m->has_color) {
            tf_buf_puts(b, ", ");
            color(b, "color", m->color);
        }
        tf_buf_puts(b, ", \"events\": [");
        for (size_t k = 0; k < m->n_ev; k++) {
            const struct tf_mark_event *e = &m->ev[k];
            tf_buf_puts(b, k ? ", {" : "{");
            str(b, "name", e->name);
            tf_buf_puts(b, ", ");
            str(b, "lane", f->lanes[e->lane].label);
            tf_buf_printf(b, ", \"lane_index\": %zu, \"start\": ", e->lane);
            tf_buf_num(b, e->start, 6);
            tf_buf_puts(b, ", \"end\": ");
            tf_buf_num(b, e->end, 6);
            tf_buf_putc(b, '}');
        }
        tf_buf_puts(b, "]}");
    }
    end_list(b, f->n_marks);
}

/* "critical_path" (--critical-path only): length, unit, breakdown
 * (category -> {time, pct}), events (name, lane, start, dur) and edges
 * ({type, from, to, weight}: from and to name an event by its index in
 * events and an end of it, "3.start"). */
void tf_json_critical_path(struct tf_buf *b, const struct tf_figure *f)
{
    const struct tf_critical *c = f->stats.critical;
    if (!c)
        return;
    tf_buf_puts(b, ",\n  \"critical_path\": {");
    stat_ms(b, "length", c->length_ms);
    tf_buf_puts(b, ", ");
    str(b, "unit", "ms");
    tf_buf_puts(b, ",\n    \"breakdown\": {");
    for (int k = 0; k < TF_CP_N_CATS; k++) {
        tf_buf_puts(b, k ? ", " : "");
        key(b, tf_cp_cat_names[k]);
        tf_buf_puts(b, "{");
        stat_ms(b, "time", c->cat_ms[k]);
        tf_buf_puts(b, ", ");
        stat_pct(b, "pct", c->cat_pct[k], true);
        tf_buf_puts(b, "}");
    }
    tf_buf_puts(b, "},\n    \"events\": [");
    for (size_t i = 0; i < c->n_events; i++) {
        const struct tf_cp_event *e = &c->events[i];
        tf_buf_puts(b, i ? ",\n      {" : "\n      {");
        str(b, "name", e->name);
        tf_buf_puts(b, ", ");
        str(b, "lane", e->lane);
        tf_buf_puts(b, ", ");
        stat_ms(b, "start_ms", e->start_ms);
        tf_buf_puts(b, ", ");
        stat_ms(b, "dur_ms", (double)e->dur_ns / 1e6);
        tf_buf_putc(b, '}');
    }
    tf_buf_puts(b, c->n_events ? "\n    ],\n    \"edges\": [" : "],\n    \"edges\": [");
    for (size_t i = 0; i < c->n_edges; i++) {
        const struct tf_cp_edge *e = &c->edges[i];
        char from[48], to[48];
        snprintf(from, sizeof from, "%zu.%s", e->from, e->from_end);
        snprintf(to, sizeof to, "%zu.%s", e->to, e->to_end);
        tf_buf_puts(b, i ? ",\n      {" : "\n      {");
        str(b, "type", e->type);
        tf_buf_puts(b, ", ");
        str(b, "from", from);
        tf_buf_puts(b, ", ");
        str(b, "to", to);
        tf_buf_puts(b, ", ");
        stat_ms(b, "weight", e->weight_ms);
        tf_buf_putc(b, '}');
    }
    tf_buf_puts(b, c->n_edges ? "\n    ]}" : "]}");
}

/* Where the plan put each mark (points, y down): its extent, its line,
 * its span row, and its label's box (null: left out, no room). */
void tf_json_layout_marks(struct tf_buf *b, const struct tf_figure *f, const struct tf_plan *p)
{
    tf_buf_puts(b, ",\n    \"marks\": [");
    for (size_t i = 0; i < p->n_marks; i++) {
        const struct tf_plan_mark *pm = &p->marks[i];
        tf_buf_puts(b, i ? ", {" : "{");
        tf_buf_printf(b, "\"mark\": %zu, ", pm->mark);
        str(b, "kind", tf_mark_kind_names[f->marks[pm->mark].kind]);
        tf_buf_puts(b, ", ");
        num(b, "x0", pm->x0);
        tf_buf_puts(b, ", ");
        num(b, "x1", pm->x1);
        tf_buf_puts(b, ", ");
        num(b, "y", pm->y);
        tf_buf_printf(b, ", \"row\": %u, \"label\": ", pm->row);
        if (!pm->text) {
            tf_buf_puts(b, "null}");
            continue;
        }
        tf_buf_putc(b, '{');
        str(b, "text", pm->text);
        tf_buf_puts(b, ", ");
        num(b, "x0", pm->box.x0);
        tf_buf_puts(b, ", ");
        num(b, "y0", pm->box.y0);
        tf_buf_puts(b, ", ");
        num(b, "x1", pm->box.x1);
        tf_buf_puts(b, ", ");
        num(b, "y1", pm->box.y1);
        tf_buf_printf(b, ", \"leader\": %s}}", pm->leader ? "true" : "false");
    }
    tf_buf_puts(b, "]");
}
