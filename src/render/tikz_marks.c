/* tikz_marks.c - the marks of a TikZ figure (templates/tikz-marks.tex).
 *
 * C gives what the plan decided that TeX cannot measure: a span's row in
 * the band above the plot, the lane and row (or the two lanes) a measure
 * lies on, a callout's event, and which ends are open; TeX typesets each
 * label in the document's tick font and places it by the plan's rules:
 * over what it names when it fits, else beside it with a leader (right,
 * else left).  Each mark is drawn in tracefig/mark and its kind's style,
 * plus its own colour when the mark gives one.
 */
#include <stdio.h>

#include "render/tikz_int.h"

/* The options of a mark with its own colour: its lines' (or a region's
 * fill) in `line`, its label's in `label` (both "" without). */
static void mark_style(struct tikz *t, const struct tf_mark *m, size_t k, char *line,
                       char *label, size_t n)
{
    line[0] = label[0] = '\0';
    if (!m->has_color)
        return;
    tf_buf_printf(t->b, "\\definecolor{tracefig-mark-%zu}{HTML}{%06X}%%\n", k,
                  (unsigned)(m->color & 0xFFFFFFu));
    snprintf(line, n, "%s=tracefig-mark-%zu", m->kind == TF_MARK_REGION ? "fill" : "draw", k);
    snprintf(label, n, "text=tracefig-mark-%zu", k);
}

static void y_of(struct tikz *t, const struct tf_plan *p, const struct tf_mark *m)
{
    struct tf_buf *b = t->b;
    const struct tf_figure *f = t->f;
    size_t n = m->n_ev;
    bool d0 = n > 0 && m->ev[0].lane < p->n_lanes &&
              tf_plan_row(p, f, m->ev[0].lane, m->ev[0].row) != TF_PLAN_NO_ROW;
    bool d1 = n > 1 && m->ev[1].lane < p->n_lanes &&
              tf_plan_row(p, f, m->ev[1].lane, m->ev[1].row) != TF_PLAN_NO_ROW;
    if (m->kind == TF_MARK_MEASURE && d0 && d1 && m->ev[0].lane != m->ev[1].lane) {
        size_t a = m->ev[0].lane < m->ev[1].lane ? m->ev[0].lane : m->ev[1].lane;
        size_t c = a == m->ev[0].lane ? m->ev[1].lane : m->ev[0].lane;
        tf_buf_printf(b, "\\tracefigmarkbetween{%zu}{%zu}", a, c);
        return;
    }
    const struct tf_mark_event *e = d0 ? &m->ev[0] : d1 ? &m->ev[1] : NULL;
    if (!e) {
        tf_buf_puts(b, "\\tracefigmy=\\dimexpr\\tracefigfplotheight pt/2\\relax");
        return;
    }
    tf_buf_printf(b, "\\tracefigmarkrow{%zu}{%u.5}", e->lane, tf_plan_row(p, f, e->lane, e->row));
}

void tz_emit_marks(struct tikz *t, const struct tf_plan *p)
{
    const struct tf_figure *f = t->f;
    struct tf_buf *b = t->b;
    if (!p->n_marks)
        return;
    tf_buf_puts(b, "% Marks: spans {x0}{x1}{row}{ticks}, regions, measures {x0}{x1}{y}, "
                   "callouts.\n");
    char st[96], lt[96];
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < p->n_marks; i++) {
            const struct tf_plan_mark *pm = &p->marks[i];
            const struct tf_mark *m = &f->marks[pm->mark];
            if ((m->kind == TF_MARK_REGION) != (pass == 0))
                continue;
            mark_style(t, m, i, st, lt, sizeof st);
            const char *text = m->text ? m->text : "";
            switch (m->kind) {
            case TF_MARK_SPAN:
                tf_buf_puts(b, "\\tracefigspanmark{");
                tz_num(t, tz_xu(t, m->t0));
                tf_buf_puts(b, "}{");
                tz_num(t, tz_xu(t, m->t1));
                tf_buf_printf(b, "}{%u}{%d}{%d}{%s}{%s}{", pm->row, !m->open0, !m->open1, st, lt);
                tz_text(b, text);
                tf_buf_puts(b, "}%\n");
                break;
            case TF_MARK_REGION:
                tf_buf_puts(b, "\\tracefigregionmark{");
                tz_num(t, tz_xu(t, m->t0));
                tf_buf_puts(b, "}{");
                tz_num(t, tz_xu(t, m->t1));
                tf_buf_printf(b, "}{%d}{%s}{%s}{", m->text && m->text[0] ? (int)pm->row : -1, st,
                              lt);
                tz_text(b, text);
                tf_buf_puts(b, "}%\n");
                break;
            case TF_MARK_MEASURE:
                tf_buf_puts(b, "\\tracefigmeasuremark{");
                tz_num(t, tz_xu(t, m->t0));
                tf_buf_puts(b, "}{");
                tz_num(t, tz_xu(t, m->t1));
                tf_buf_puts(b, "}{");
                y_of(t, p, m);
                tf_buf_printf(b, "}{%d}{%d}{%s}{%s}{", !m->open0, !m->open1, st, lt);
                tz_text(b, text);
                tf_buf_printf(b, "}{%s-%s}%%\n", m->open0 ? "" : "<", m->open1 ? "" : ">");
                break;
            case TF_MARK_CALLOUT:
                if (pm->y < 0 || !m->text)
                    break; /* its event is not drawn */
                tf_buf_puts(b, "\\tracefigcalloutmark{");
                tz_num(t, tz_xu(t, m->t0));
                tf_buf_puts(b, "}{");
                tz_num(t, tz_xu(t, m->t1));
                tf_buf_puts(b, "}{");
                y_of(t, p, m);
                tf_buf_printf(b, "}{%s}{%s}{", st, lt);
                tz_text(b, text);
                tf_buf_puts(b, "}%\n");
                break;
            default:
                break;
            }
        }
}
