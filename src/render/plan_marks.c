/* plan_marks.c - where the marks go (plan.h, struct tf_plan_mark): one
 * step of the fit policy, made once per plan.
 *
 * Spans, and regions with a label, take rows in a band above the plot:
 * each its bracket (a region: only its label) from t0 to t1, its label
 * centred over it, or beside it with a short leader when it is wider
 * than its span (right of it, else left, never left of the plot: the
 * lane labels are there); marks whose brackets and labels would come
 * closer than a gap go in rows above, the first row nearest the plot.
 * Measures lie inside the plot: in the row of their first event, or
 * between the two lanes when their events are on two; callouts beside
 * their event.  Their labels take the first of a few candidate places
 * that stays inside the plot and clears every label placed before
 * (marks', lane labels above their lanes, headers); with none, the label
 * is left out (its tooltip still tells it) and counted.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/metrics.h"
#include "render/plan_int.h"
#include "render/style.h"

/* The label's gap to what it names, and to other labels, in the base font. */
#define LEAD_EM 0.8
#define TICK_EM 0.45
#define PAD_EM 0.3

struct place {
    struct fit *F;
    struct tf_plan_box *taken; /* label boxes placed so far */
    size_t n_taken, cap_taken;
    bool oom;
};

static double px(const struct tf_plan *p, const struct tf_figure *f, double t)
{
    double span = f->x_span > 0 ? f->x_span : 1.0;
    return p->plot.x0 + t / span * (p->plot.x1 - p->plot.x0);
}

static double text_w(const struct tf_plan *p, const char *s)
{
    return tf_plan_text_width(s, p->f_mark, false);
}

/* The label of mark m, elided to the plot's width; NULL: none. */
static const char *label_of(struct tf_plan *p, const struct tf_mark *m, bool *ok)
{
    if (!m->text || !m->text[0])
        return NULL;
    const char *t = tf_plan_elide(&p->arena, m->text, p->plot.x1 - p->plot.x0, p->f_mark, false,
                                  0);
    *ok = *ok && t;
    return t;
}

static bool counts_in_band(const struct tf_mark *m)
{
    return m->kind == TF_MARK_SPAN || (m->kind == TF_MARK_REGION && m->text && m->text[0]);
}

/* Sort by where each band mark's ink begins. */
struct band_item {
    size_t k;  /* index into p->marks */
    double lo, hi;
};

static int band_cmp(const void *a, const void *b)
{
    const struct band_item *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    return x->k < y->k ? -1 : x->k > y->k;
}

bool tf_plan_marks_rows(struct fit *F)
{
    const struct tf_figure *f = F->f;
    struct tf_plan *p = F->p;
    p->f_mark = p->f_tick;
    p->marks = tf_arena_alloc(&p->arena, f->n_marks * sizeof *p->marks);
    struct band_item *items = malloc(f->n_marks * sizeof *items);
    double *row_end = malloc(f->n_marks * sizeof *row_end);
    bool ok = p->marks && items && row_end;
    size_t n_items = 0;
    double m = F->margin, fb = F->fb, lead = LEAD_EM * fb, gap = 0.6 * fb;
    p->n_marks = 0;
    for (size_t i = 0; ok && i < f->n_marks; i++) {
        const struct tf_mark *mk = &f->marks[i];
        if (mk->kind == TF_MARK_HIGHLIGHT)
            continue;
        struct tf_plan_mark *pm = &p->marks[p->n_marks];
        memset(pm, 0, sizeof *pm);
        pm->mark = i;
        pm->x0 = px(p, f, mk->t0);
        pm->x1 = px(p, f, mk->t1);
        pm->text = label_of(p, mk, &ok);
        if (counts_in_band(mk)) {
            double lo = pm->x0, hi = pm->x1;
            if (pm->text) {
                double w = text_w(p, pm->text), cx = (pm->x0 + pm->x1) / 2;
                double tx = cx - w / 2;
                if (w > pm->x1 - pm->x0) {
                    if (pm->x1 + lead + w <= p->W - m) {
                        tx = pm->x1 + lead;
                        pm->leader = mk->kind == TF_MARK_SPAN;
                    } else if (pm->x0 - lead - w >= p->plot.x0) {
                        tx = pm->x0 - lead - w;
                        pm->leader = mk->kind == TF_MARK_SPAN;
                    } else {
                        double hi_x = p->W - m - w;
                        tx = tx < p->plot.x0 ? p->plot.x0 : tx > hi_x ? hi_x : tx;
                    }
                }
                pm->tx = tx;
                pm->box.x0 = tx;
                pm->box.x1 = tx + w;
                lo = fmin(lo, tx);
                hi = fmax(hi, tx + w);
            }
            items[n_items++] = (struct band_item){p->n_marks, lo, hi};
        }
        p->n_marks++;
    }
    if (!ok) {
        free(items);
        free(row_end);
        return false;
    }
    qsort(items, n_items, sizeof *items, band_cmp);
    unsigned rows = 0;
    for (size_t j = 0; j < n_items; j++) {
        unsigned r = 0;
        while (r < rows && row_end[r] + gap > items[j].lo)
            r++;
        if (r == rows)
            rows++;
        row_end[r] = items[j].hi;
        p->marks[items[j].k].row = r;
    }
    free(items);
    free(row_end);
    p->marks_rows = rows;
    p->marks_row_h = tf_plan_text_h(p->f_mark, false) + TICK_EM * fb + 1.5;
    p->marks_h = rows ? (double)rows * p->marks_row_h + PAD_EM * fb : 0;
    return true;
}

static bool overlaps(const struct tf_plan_box *a, const struct tf_plan_box *b, double gap)
{
    return a->x0 < b->x1 + gap && b->x0 < a->x1 + gap && a->y0 < b->y1 && b->y0 < a->y1;
}

static void take(struct place *P, const struct tf_plan_box *b)
{
    if (!TF_GROW(P->taken, P->n_taken, P->cap_taken)) {
        P->oom = true;
        return;
    }
    P->taken[P->n_taken++] = *b;
}

/* Whether a label box may go here: inside the plot, clear of the others. */
static bool free_at(const struct place *P, const struct tf_plan_box *b)
{
    const struct tf_plan *p = P->F->p;
    if (b->x0 < p->plot.x0 || b->x1 > p->W - P->F->margin || b->y0 < p->plot.y0 ||
        b->y1 > p->plot.y1)
        return false;
    for (size_t i = 0; i < P->n_taken; i++)
        if (overlaps(b, &P->taken[i], tf_style.text_gap_pt))
            return false;
    return true;
}

/* The labels a mark's label must clear: lanes' labels above their lanes,
 * process headers. */
static void take_lane_labels(struct place *P)
{
    const struct tf_plan *p = P->F->p;
    double a = tf_text_ascent(p->f_lane, false), d = tf_text_descent(p->f_lane, false);
    for (size_t i = 0; p->labels == TF_LABELS_ABOVE && i < p->n_lanes; i++) {
        const struct tf_plan_lane *pl = &p->lanes[i];
        if (!pl->text)
            continue;
        struct tf_plan_box b = {pl->label_x, pl->label_y - a,
                                pl->label_x + tf_plan_text_width(pl->text, p->f_lane, false),
                                pl->label_y + d};
        take(P, &b);
    }
    double ha = tf_text_ascent(p->f_header, true), hd = tf_text_descent(p->f_header, true);
    for (size_t i = 0; p->labels != TF_LABELS_NONE && i < p->n_headers; i++) {
        const struct tf_plan_header *h = &p->headers[i];
        double hx = p->labels == TF_LABELS_ABOVE ? p->plot.x0 + 1 : P->F->margin;
        struct tf_plan_box b = {hx, h->y - ha, hx + tf_plan_text_width(h->text, p->f_header, true),
                                h->y + hd};
        take(P, &b);
    }
}

/* The vertical middle of an event's row as drawn, and the row's top and
 * bottom; false when its lane or row is not drawn. */
static bool event_row(const struct fit *F, const struct tf_mark_event *e, double *mid,
                      double *top, double *bot)
{
    const struct tf_plan *p = F->p;
    if (e->lane >= p->n_lanes)
        return false;
    unsigned r = tf_plan_row(p, F->f, e->lane, e->row);
    if (r == TF_PLAN_NO_ROW)
        return false;
    *top = p->lanes[e->lane].top + (double)r * p->row_h;
    *bot = *top + p->row_h;
    *mid = (*top + *bot) / 2;
    return true;
}

/* A label box w wide whose text's middle is at (cx, cy), or whose left
 * end is at x. */
static struct tf_plan_box box_at(const struct tf_plan *p, double x, double cy, double w)
{
    double h = tf_plan_text_h(p->f_mark, false);
    return (struct tf_plan_box){x, cy - h / 2, x + w, cy + h / 2};
}

/* Sets pm's label at box b (baseline from the box). */
static void put_label(struct place *P, struct tf_plan_mark *pm, const struct tf_plan_box *b)
{
    const struct tf_plan *p = P->F->p;
    pm->box = *b;
    pm->tx = b->x0;
    pm->ty = b->y0 + tf_text_ascent(p->f_mark, false);
    take(P, b);
}

/* A measure: its line and its ticks. */
static void measure_line(struct place *P, struct tf_plan_mark *pm, const struct tf_mark *mk)
{
    struct fit *F = P->F;
    struct tf_plan *p = F->p;
    double mid = 0, top = 0, bot = 0, m2, t2, b2;
    bool on0 = mk->n_ev > 0 && event_row(F, &mk->ev[0], &mid, &top, &bot);
    bool on1 = mk->n_ev > 1 && event_row(F, &mk->ev[1], &m2, &t2, &b2);
    if (on0 && on1 && mk->ev[0].lane != mk->ev[1].lane) {
        /* between the two lanes: the boundary of the upper one's band */
        size_t a = mk->ev[0].lane < mk->ev[1].lane ? mk->ev[0].lane : mk->ev[1].lane;
        size_t b = a == mk->ev[0].lane ? mk->ev[1].lane : mk->ev[0].lane;
        mid = (p->lanes[a].bottom + p->lanes[b].band) / 2;
        top = mid - p->row_h / 2;
        bot = mid + p->row_h / 2;
    } else if (!on0 && on1) {
        mid = m2, top = t2, bot = b2;
    } else if (!on0) {
        mid = (p->plot.y0 + p->plot.y1) / 2;
        top = mid - p->row_h / 2;
        bot = mid + p->row_h / 2;
    }
    double half = fmin(0.45 * (bot - top), TICK_EM * F->fb);
    pm->y = mid;
    pm->y0 = mid - half;
    pm->y1 = mid + half;
}

/* A measure's label: over its line or under it, else beside it. */
static void place_measure(struct place *P, struct tf_plan_mark *pm)
{
    struct fit *F = P->F;
    struct tf_plan *p = F->p;
    double mid = pm->y;
    if (!pm->text)
        return;
    double w = text_w(p, pm->text), h = tf_plan_text_h(p->f_mark, false);
    double lead = LEAD_EM * F->fb, cx = (pm->x0 + pm->x1) / 2;
    bool inside = w <= pm->x1 - pm->x0;
    struct tf_plan_box c[6];
    bool lead_c[6] = {false, false, true, true, true, true};
    size_t n = 0;
    if (inside) {
        c[n++] = box_at(p, cx - w / 2, mid - 0.5 - h / 2, w); /* above the line */
        c[n++] = box_at(p, cx - w / 2, mid + 0.5 + h / 2, w); /* below */
    } else {
        lead_c[0] = lead_c[1] = true;
        c[n++] = box_at(p, pm->x1 + lead, mid, w);     /* right of it */
        c[n++] = box_at(p, pm->x0 - lead - w, mid, w); /* left */
    }
    c[n++] = box_at(p, pm->x1 + lead, mid - h, w);
    c[n++] = box_at(p, pm->x0 - lead - w, mid - h, w);
    c[n++] = box_at(p, pm->x1 + lead, mid + h, w);
    c[n++] = box_at(p, pm->x0 - lead - w, mid + h, w);
    for (size_t k = 0; k < n; k++) {
        if (!free_at(P, &c[k]))
            continue;
        put_label(P, pm, &c[k]);
        if (lead_c[k]) {
            bool right = c[k].x0 >= pm->x1;
            pm->leader = true;
            pm->lx0 = right ? pm->x1 : pm->x0;
            pm->ly0 = mid;
            pm->lx1 = right ? c[k].x0 - 1 : c[k].x1 + 1;
            pm->ly1 = (c[k].y0 + c[k].y1) / 2;
        }
        return;
    }
    pm->text = NULL;
    p->marks_dropped++;
}

/* A callout: its label right or left of its event, or over or under it,
 * with a leader. */
static void place_callout(struct place *P, struct tf_plan_mark *pm, const struct tf_mark *mk)
{
    struct fit *F = P->F;
    struct tf_plan *p = F->p;
    double mid, top, bot;
    if (mk->n_ev == 0 || !event_row(F, &mk->ev[0], &mid, &top, &bot)) {
        pm->text = NULL; /* its event is not drawn */
        pm->y = -1;
        return;
    }
    pm->y = mid;
    pm->y0 = top;
    pm->y1 = bot;
    if (!pm->text)
        return;
    double w = text_w(p, pm->text), h = tf_plan_text_h(p->f_mark, false);
    double lead = LEAD_EM * F->fb, cx = (pm->x0 + pm->x1) / 2;
    double lo = p->plot.x0, hi = p->W - F->margin - w;
    double ax = cx - w / 2;
    ax = ax < lo ? lo : ax > hi ? hi : ax;
    struct tf_plan_box c[6] = {
        box_at(p, pm->x1 + lead, mid, w),
        box_at(p, pm->x0 - lead - w, mid, w),
        box_at(p, ax, top - lead / 2 - h / 2, w),
        box_at(p, ax, bot + lead / 2 + h / 2, w),
        box_at(p, pm->x1 + lead, top - lead / 2 - h / 2, w),
        box_at(p, pm->x0 - lead - w, top - lead / 2 - h / 2, w),
    };
    for (size_t k = 0; k < 6; k++) {
        if (!free_at(P, &c[k]))
            continue;
        put_label(P, pm, &c[k]);
        pm->leader = true;
        double ly = (c[k].y0 + c[k].y1) / 2;
        if (k == 0 || k == 4) {
            pm->lx0 = pm->x1, pm->ly0 = mid, pm->lx1 = c[k].x0 - 1, pm->ly1 = ly;
        } else if (k == 1 || k == 5) {
            pm->lx0 = pm->x0, pm->ly0 = mid, pm->lx1 = c[k].x1 + 1, pm->ly1 = ly;
        } else {
            double x = fmin(fmax(cx, c[k].x0), c[k].x1);
            pm->lx0 = x, pm->ly0 = k == 2 ? top : bot;
            pm->lx1 = x, pm->ly1 = k == 2 ? c[k].y1 : c[k].y0;
        }
        return;
    }
    pm->text = NULL;
    p->marks_dropped++;
}

bool tf_plan_marks_place(struct fit *F)
{
    struct tf_plan *p = F->p;
    const struct tf_figure *f = F->f;
    struct place P = {F, NULL, 0, 0, false};
    take_lane_labels(&P);
    double fb = F->fb, tick = TICK_EM * fb, pad = PAD_EM * fb;
    double asc = tf_text_ascent(p->f_mark, false), desc = tf_text_descent(p->f_mark, false);
    /* the plot may have moved since the rows were made: x again */
    for (size_t i = 0; i < p->n_marks; i++) {
        struct tf_plan_mark *pm = &p->marks[i];
        const struct tf_mark *mk = &f->marks[pm->mark];
        double dx0 = px(p, f, mk->t0) - pm->x0;
        pm->x0 += dx0;
        pm->x1 = px(p, f, mk->t1);
        if (counts_in_band(mk)) {
            double line = p->plot.y0 - pad - (double)pm->row * p->marks_row_h - tick;
            pm->y = line;
            pm->y1 = line + tick;
            if (mk->kind == TF_MARK_REGION) {
                pm->y = p->plot.y0;
                pm->y1 = p->plot.y1;
            }
            if (pm->text) {
                pm->tx += dx0;
                pm->box.x0 += dx0;
                pm->box.x1 += dx0;
                pm->ty = line - 1.0 - desc;
                pm->box.y0 = pm->ty - asc;
                pm->box.y1 = pm->ty + desc;
                if (pm->leader) {
                    bool right = pm->box.x0 >= pm->x1;
                    pm->lx0 = right ? pm->x1 : pm->x0;
                    pm->lx1 = right ? pm->box.x0 - 1 : pm->box.x1 + 1;
                    pm->ly0 = pm->ly1 = line;
                }
            }
        } else if (mk->kind == TF_MARK_REGION) {
            pm->y = p->plot.y0;
            pm->y1 = p->plot.y1;
        }
    }
    /* the measures' lines first: no label goes over one */
    for (size_t i = 0; i < p->n_marks && !P.oom; i++) {
        struct tf_plan_mark *pm = &p->marks[i];
        const struct tf_mark *mk = &f->marks[pm->mark];
        if (mk->kind != TF_MARK_MEASURE)
            continue;
        measure_line(&P, pm, mk);
        struct tf_plan_box line = {pm->x0, pm->y - 0.3, pm->x1, pm->y + 0.3};
        take(&P, &line);
    }
    for (size_t i = 0; i < p->n_marks && !P.oom; i++) {
        struct tf_plan_mark *pm = &p->marks[i];
        const struct tf_mark *mk = &f->marks[pm->mark];
        if (mk->kind == TF_MARK_MEASURE)
            place_measure(&P, pm);
        else if (mk->kind == TF_MARK_CALLOUT)
            place_callout(&P, pm, mk);
    }
    free(P.taken);
    return !P.oom;
}

bool tf_plan_marks_note(struct tf_plan *p)
{
    if (!p->marks_dropped)
        return true;
    char note[600];
    snprintf(note, sizeof note, "%s%s%zu mark label%s left out: no room inside the plot at this "
             "size (the tooltip keeps %s)",
             p->note ? p->note : "", p->note ? "; " : "", p->marks_dropped,
             p->marks_dropped == 1 ? "" : "s", p->marks_dropped == 1 ? "it" : "them");
    return (p->note = tf_arena_strdup(&p->arena, note)) != NULL;
}
