/* marks.c - marks resolved against a figure's events; see marks.h.
 *
 * The events are the figure's bars that stand for one event (slices and
 * instants; a dense span stands for many and names none), each with its
 * whole extent: a bar cut by the window keeps the event's duration
 * (dur_ms), so a mark that names it measures the event, not the part
 * drawn.  Matches of a glob are counted in time order (start, then lane
 * and row, then drawing order), as --occurrence counts them.
 */
#include "rules/marks.h"

#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "rules/chrome.h"

/* An error into err (TF_MARKS_ERR bytes): its names are cut by their
 * formats, and what is longer still is cut at the end. */
static void say(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, TF_MARKS_ERR, fmt, ap);
    va_end(ap);
}

/* An event's whole extent in axis units (figure.h: x0/x1 are cut to the
 * window, start_ms/dur_ms are the whole event).  A mode that keeps only
 * the part drawn (dur_ms no longer than x1 - x0) gives that part, *cut
 * then saying which sides the window cut (1 start, 2 end). */
static void extent(const struct tf_figure *f, const struct tf_bar *b, double *s, double *e,
                   int *cut)
{
    double k = 1e6 / tf_unit_ns(f->axis.unit); /* ms -> axis units */
    double dur = b->shape == TF_SHAPE_INSTANT ? 0 : b->dur_ms * k;
    *cut = 0;
    if ((b->clip_left || b->clip_right) && dur <= (b->x1 - b->x0) * (1 + 1e-9) + 1e-12) {
        *s = b->x0;
        *e = b->x1;
        *cut = (b->clip_left ? 1 : 0) | (b->clip_right ? 2 : 0);
        return;
    }
    if (!b->clip_left) {
        *s = b->x0;
        *e = b->clip_right ? b->x0 + dur : (b->shape == TF_SHAPE_INSTANT ? b->x0 : b->x1);
    } else if (!b->clip_right) {
        *e = b->x1;
        *s = b->x1 - dur;
    } else {
        double w0_ms = f->window_start * tf_unit_ns(f->clock_unit) / 1e6;
        *s = (b->start_ms - w0_ms) * k;
        *e = *s + dur;
    }
}

/* Whether bar b is one event a mark may name. */
static bool nameable(const struct tf_figure *f, const struct tf_bar *b)
{
    return b->shape != TF_SHAPE_DENSE && b->merged == 0 && b->name && b->lane < f->n_lanes &&
           f->lanes[b->lane].kind == TF_LANE_SLICES;
}

static bool event_matches(const struct tf_figure *f, const struct tf_mark_end *e,
                          const char *name, size_t lane)
{
    if (lane >= f->n_lanes || fnmatch(e->event, name, 0) != 0)
        return false;
    const struct tf_lane *ln = &f->lanes[lane];
    if (e->lane && fnmatch(e->lane, ln->label ? ln->label : "", 0) != 0)
        return false;
    if (e->trace) {
        const char *title = f->n_traces && ln->trace < f->n_traces ? f->traces[ln->trace].title
                                                                   : NULL;
        if (fnmatch(e->trace, title ? title : "", 0) != 0)
            return false;
    }
    return true;
}

struct hit {
    size_t bar;
    double s, e;
    int cut;
};

/* The lane and row of a hit (a kept event's, else a bar's). */
static void hit_place(const struct tf_figure *f, const struct hit *h, size_t *lane,
                      unsigned *row)
{
    if (f->has_mark_events) {
        *lane = f->mark_events[h->bar].lane;
        *row = f->mark_events[h->bar].row;
    } else {
        *lane = f->bars[h->bar].lane;
        *row = f->bars[h->bar].row;
    }
}

static int hit_cmp(const void *pa, const void *pb, const struct tf_figure *f)
{
    const struct hit *a = pa, *b = pb;
    if (a->s != b->s)
        return a->s < b->s ? -1 : 1;
    size_t la, lb;
    unsigned ra, rb;
    hit_place(f, a, &la, &ra);
    hit_place(f, b, &lb, &rb);
    if (la != lb)
        return la < lb ? -1 : 1;
    if (ra != rb)
        return ra < rb ? -1 : 1;
    return a->bar < b->bar ? -1 : a->bar > b->bar;
}

static void sort_hits(struct hit *v, size_t n, const struct tf_figure *f)
{
    /* insertion sort of a few matches; a merge would do for many */
    for (size_t i = 1; i < n; i++) {
        struct hit h = v[i];
        size_t j = i;
        while (j > 0 && hit_cmp(&v[j - 1], &h, f) > 0) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = h;
    }
}

/* v with exactly dec decimals (tf_fmt_num trims them). */
static const char *fixed(char out[TF_NUM_MAX], double v, int dec)
{
    size_t n = tf_fmt_num_len(out, v, dec);
    if (dec <= 0)
        return out;
    const char *dot = strchr(out, '.');
    int have = dot ? (int)(n - (size_t)(dot - out) - 1) : -1;
    if (have < 0) {
        out[n++] = '.';
        have = 0;
    }
    while (have < dec && n + 1 < TF_NUM_MAX) {
        out[n++] = '0';
        have++;
    }
    out[n] = '\0';
    return out;
}

/* "0.000–12.400 ms" */
static void window_text(const struct tf_figure *f, char *out, size_t n)
{
    char a[TF_NUM_MAX], b[TF_NUM_MAX];
    snprintf(out, n, "%s\xE2\x80\x93%s %s", fixed(a, 0, 3), fixed(b, f->x_span, 3),
             f->axis.unit ? f->axis.unit : "ms");
}

static void where_lane(const struct tf_mark_end *e, char *out, size_t n)
{
    if (e->lane && e->trace)
        snprintf(out, n, " on a lane matching '%.100s' of a trace matching '%.100s'", e->lane,
                 e->trace);
    else if (e->lane)
        snprintf(out, n, " on a lane matching '%.100s'", e->lane);
    else if (e->trace)
        snprintf(out, n, " in a trace matching '%.100s'", e->trace);
    else
        out[0] = '\0';
}

bool tf_marks_point(const struct tf_figure *f, const struct tf_mark_end *e, bool is_b,
                    const char *where, struct tf_mark_point *out, char *err)
{
    memset(out, 0, sizeof *out);
    double per = tf_unit_ns(f->axis.unit);
    if (e->is_time) {
        out->t = (double)(e->time_ns + e->offset_ns) / per;
        return true;
    }
    struct hit *v = NULL;
    size_t n = 0, cap = 0;
    /* the events the mode kept for the marks, when it kept them */
    for (size_t i = 0; f->has_mark_events && i < f->n_mark_events; i++) {
        const struct tf_mark_event *me = &f->mark_events[i];
        if (!event_matches(f, e, me->name, me->lane))
            continue;
        if (!TF_GROW(v, n, cap)) {
            free(v);
            say(err, "out of memory");
            return false;
        }
        v[n++] = (struct hit){i, me->start, me->end, 0};
    }
    for (size_t i = 0; !f->has_mark_events && i < f->n_bars; i++) {
        const struct tf_bar *b = &f->bars[i];
        if (!nameable(f, b) || !event_matches(f, e, b->name, b->lane))
            continue;
        if (!TF_GROW(v, n, cap)) {
            free(v);
            say(err, "out of memory");
            return false;
        }
        v[n].bar = i;
        extent(f, b, &v[n].s, &v[n].e, &v[n].cut);
        n++;
    }
    long long k = e->occurrence > 0 ? e->occurrence : 1;
    char win[96], lane[260];
    window_text(f, win, sizeof win);
    where_lane(e, lane, sizeof lane);
    if (n == 0 || (size_t)k > n) {
        if (n == 0)
            say(err, "%s: no event named '%.200s'%s in the window (%s)", where,
                     e->event, lane, win);
        else
            say(err,
                     "%s: %zu event%s named '%.200s'%s in the window (%s), no @%lld", where, n,
                     n == 1 ? "" : "s", e->event, lane, win, k);
        free(v);
        return false;
    }
    sort_hits(v, n, f);
    const struct hit *h = &v[k - 1];
    bool at_end = e->edge == TF_EDGE_END || (e->edge == TF_EDGE_DEFAULT && is_b);
    out->t = (at_end ? h->e : h->s) + (double)e->offset_ns / per;
    out->cut = (h->cut & (at_end ? 2 : 1)) != 0;
    out->has_event = true;
    if (f->has_mark_events) {
        out->ev = f->mark_events[h->bar];
    } else {
        const struct tf_bar *b = &f->bars[h->bar];
        out->ev = (struct tf_mark_event){b->name, b->lane, b->row, h->s, h->e};
    }
    free(v);
    return true;
}

/* "b ends", "a starts", "3ms": an end as the order message names it. */
static void end_words(const struct tf_mark_end *e, bool is_b, char *out, size_t n)
{
    const char *s = e->spelled;
    char ref[240];
    if (!s) {
        if (e->is_time)
            snprintf(ref, sizeof ref, "%.3f ms", (double)e->time_ns / 1e6);
        else if (e->occurrence > 1)
            snprintf(ref, sizeof ref, "%.200s@%lld", e->event, e->occurrence);
        else
            snprintf(ref, sizeof ref, "%.200s", e->event);
        s = ref;
    } else if (strncmp(s, "start:", 6) == 0) {
        s += 6;
    } else if (strncmp(s, "end:", 4) == 0) {
        s += 4;
    }
    if (e->is_time) {
        snprintf(out, n, "%.200s", s);
        return;
    }
    bool at_end = e->edge == TF_EDGE_END || (e->edge == TF_EDGE_DEFAULT && is_b);
    snprintf(out, n, "%.180s %s", s, at_end ? "ends" : "starts");
}

bool tf_marks_range(const struct tf_figure *f, const struct tf_mark_end *a,
                    const struct tf_mark_end *b, const char *where, struct tf_mark_point *pa,
                    struct tf_mark_point *pb, char *err)
{
    if (!tf_marks_point(f, a, false, where, pa, err) || !tf_marks_point(f, b, true, where, pb, err))
        return false;
    /* a rounding's worth of slack: an event ending where the next starts */
    double eps = 1e-9 * (f->x_span > 0 ? f->x_span : 1);
    if (pb->t < pa->t - eps) {
        char wa[240], wb[240];
        end_words(a, false, wa, sizeof wa);
        end_words(b, true, wb, sizeof wb);
        say(err, "%s: %s before %s", where, wb, wa);
        return false;
    }
    if (pb->t < pa->t)
        pb->t = pa->t;
    return true;
}

void tf_marks_fmt_time(const struct tf_figure *f, double v, struct tf_buf *out)
{
    double a = fabs(v);
    int dec = a > 0 ? 2 - (int)floor(log10(a)) : 0;
    if (dec < f->axis.decimals)
        dec = f->axis.decimals;
    dec = dec < 0 ? 0 : dec > 6 ? 6 : dec;
    char buf[TF_NUM_MAX];
    tf_buf_puts(out, fixed(buf, v, dec));
    tf_buf_putc(out, ' ');
    tf_buf_puts(out, f->axis.unit ? f->axis.unit : "ms");
}

/* The mark's text from the spec's (or the kind's default), its fields
 * filled; NULL for none. */
static const char *mark_text(struct tf_figure *f, const struct tf_mark_spec *s,
                             const struct tf_mark *m, bool *ok)
{
    static const char *const defaults[TF_MARK_KINDS] = {"{dur}", "{dur}", "{name}", NULL, NULL};
    const char *t = s->text ? s->text : defaults[s->kind];
    if (!t || !*t)
        return NULL;
    struct tf_buf b;
    tf_buf_init(&b);
    for (const char *p = t; *p;) {
        if (strncmp(p, "{dur}", 5) == 0) {
            tf_marks_fmt_time(f, m->dur, &b);
            p += 5;
        } else if (strncmp(p, "{start}", 7) == 0) {
            tf_marks_fmt_time(f, m->open0 ? m->t0 - 0 : m->t0, &b);
            p += 7;
        } else if (strncmp(p, "{end}", 5) == 0) {
            tf_marks_fmt_time(f, m->t1, &b);
            p += 5;
        } else if (strncmp(p, "{name}", 6) == 0) {
            /* as the bars' labels shorten it (a C++ function's bare name) */
            char nm[256];
            tf_chrome_short_name(m->n_ev ? m->ev[0].name : "", nm, sizeof nm);
            tf_buf_puts(&b, nm);
            p += 6;
        } else {
            tf_buf_putc(&b, *p++);
        }
    }
    const char *r = tf_figure_buf(f, &b);
    tf_buf_fini(&b);
    *ok = *ok && r != NULL;
    return r;
}

/* The tooltip: kind, duration, times, and the events named. */
static const char *mark_title(struct tf_figure *f, const struct tf_mark *m, bool *ok)
{
    struct tf_buf b;
    tf_buf_init(&b);
    tf_buf_puts(&b, tf_mark_kind_names[m->kind]);
    if (m->kind != TF_MARK_HIGHLIGHT) {
        tf_buf_puts(&b, ": ");
        tf_marks_fmt_time(f, m->dur, &b);
        tf_buf_puts(&b, ", from ");
        tf_marks_fmt_time(f, m->t0, &b);
        tf_buf_puts(&b, m->open0 ? " (cut by the window)" : "");
        tf_buf_puts(&b, " to ");
        tf_marks_fmt_time(f, m->t1, &b);
        tf_buf_puts(&b, m->open1 ? " (cut by the window)" : "");
    } else {
        tf_buf_printf(&b, ": %zu event%s kept", m->kept, m->kept == 1 ? "" : "s");
    }
    for (size_t i = 0; i < m->n_ev; i++) {
        const struct tf_mark_event *e = &m->ev[i];
        tf_buf_puts(&b, "; ");
        tf_buf_puts(&b, e->name);
        tf_buf_puts(&b, " on ");
        tf_buf_puts(&b, f->lanes[e->lane].label ? f->lanes[e->lane].label : "?");
        tf_buf_puts(&b, ", ");
        tf_marks_fmt_time(f, e->start, &b);
        tf_buf_puts(&b, " to ");
        tf_marks_fmt_time(f, e->end, &b);
    }
    const char *r = tf_figure_buf(f, &b);
    tf_buf_fini(&b);
    *ok = *ok && r != NULL;
    return r;
}

static bool any_glob(const struct tf_mark_spec *s, const char *name)
{
    for (size_t i = 0; name && i < s->n_globs; i++)
        if (fnmatch(s->globs[i], name, 0) == 0)
            return true;
    return false;
}

/* Whether some highlight spec keeps a bar of this name. */
static bool kept_by_any(const struct tf_mark_spec *specs, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (specs[i].kind == TF_MARK_HIGHLIGHT && any_glob(&specs[i], name))
            return true;
    return false;
}

/* --highlight: the bars whose name a highlight keeps (and with
 * --critical-path the bars of the path) keep their colours;
 * every other bar is drawn in its category's faded twin (key
 * "faded/KEY", the same class: the model lists one category), a dense
 * bar keeping its shares' heights; the legend's entries of classes with
 * no bar kept take the twin too.  False when out of memory. */
static bool fade(struct tf_figure *f, const struct tf_mark_spec *specs, size_t n)
{
    size_t nc = f->n_cats;
    size_t *twin = malloc((nc ? nc : 1) * sizeof *twin);
    bool *kept = calloc(nc ? nc : 1, sizeof *kept);
    struct tf_share *sh = NULL;
    size_t cap_sh = 0;
    bool ok = twin && kept;
    for (size_t i = 0; ok && i < f->n_bars; i++) {
        struct tf_bar *b = &f->bars[i];
        b->faded = !kept_by_any(specs, n, b->name) && !(f->stats.critical && b->critical);
        if (b->faded)
            continue;
        if (b->cat < nc)
            kept[b->cat] = true;
        for (size_t k = 0; k < b->n_shares; k++)
            if (b->shares[k].cat < nc)
                kept[b->shares[k].cat] = true;
    }
    struct tf_buf key;
    tf_buf_init(&key);
    for (size_t c = 0; ok && c < nc; c++) {
        tf_buf_clear(&key);
        tf_buf_puts(&key, "faded/");
        tf_buf_puts(&key, f->cats[c].key);
        twin[c] = key.oom ? (size_t)-1 : tf_figure_category(f, key.data, 0);
        ok = twin[c] != (size_t)-1;
        if (!ok)
            break;
        struct tf_category *t = &f->cats[twin[c]], *o = &f->cats[c];
        t->color = tf_color_faded(o->color);
        t->label = o->label;
        t->name = o->name ? o->name : o->key;
        t->faded = true;
    }
    tf_buf_fini(&key);
    for (size_t i = 0; ok && i < f->n_bars; i++) {
        struct tf_bar *b = &f->bars[i];
        if (!b->faded)
            continue;
        b->color = tf_color_faded(b->color);
        b->label_color = tf_color_text_on(b->color);
        if (b->cat < nc)
            b->cat = twin[b->cat];
        if (!b->n_shares)
            continue;
        size_t m = 0;
        ok = TF_GROW(sh, b->n_shares, cap_sh);
        for (size_t k = 0; ok && k < b->n_shares; k++, m++) {
            sh[m] = b->shares[k];
            if (sh[m].cat < nc)
                sh[m].cat = twin[sh[m].cat];
        }
        ok = ok && tf_figure_bar_shares(f, b, sh, m);
    }
    for (size_t i = 0; ok && i < f->n_legend; i++)
        if (f->legend[i].cat < nc && !kept[f->legend[i].cat])
            f->legend[i].cat = twin[f->legend[i].cat];
    f->highlight = ok;
    free(sh);
    free(twin);
    free(kept);
    return ok;
}

/* The bars a highlight spec keeps: events it names. */
static size_t count_kept(const struct tf_figure *f, const struct tf_mark_spec *s)
{
    size_t kept = 0;
    for (size_t i = 0; i < f->n_bars; i++)
        kept += nameable(f, &f->bars[i]) && any_glob(s, f->bars[i].name);
    return kept;
}

static bool resolve(struct tf_figure *f, const struct tf_mark_spec *s, struct tf_mark *m,
                    char *err)
{
    memset(m, 0, sizeof *m);
    m->kind = s->kind;
    m->has_color = s->has_color;
    m->color = s->color;
    if (s->kind == TF_MARK_HIGHLIGHT) {
        m->kept = count_kept(f, s);
        return true;
    }
    struct tf_mark_point a, b;
    if (!tf_marks_range(f, &s->from, &s->to, s->where, &a, &b, err))
        return false;
    double span = f->x_span;
    if (b.t < 0 || a.t > span || (b.t <= 0 && a.t < 0) || (a.t >= span && b.t > span)) {
        char win[96];
        window_text(f, win, sizeof win);
        say(err, "%s: wholly outside the window (%s)", s->where, win);
        return false;
    }
    m->dur = b.t - a.t;
    m->open0 = a.t < 0 || a.cut;
    m->open1 = b.t > span || b.cut;
    m->t0 = m->open0 ? 0 : a.t;
    m->t1 = m->open1 ? span : b.t;
    if (a.has_event)
        m->ev[m->n_ev++] = a.ev;
    bool same = a.has_event && b.has_event && a.ev.lane == b.ev.lane && a.ev.row == b.ev.row &&
                a.ev.start == b.ev.start && a.ev.end == b.ev.end &&
                strcmp(a.ev.name, b.ev.name) == 0;
    if (b.has_event && !same)
        m->ev[m->n_ev++] = b.ev;
    return true;
}

bool tf_marks_apply(struct tf_figure *f, const struct tf_mark_spec *specs, size_t n,
                    struct tf_diag *d)
{
    bool crit = f->stats.critical != NULL; /* --critical-path fades as a highlight */
    if (n == 0 && !crit)
        return true;
    char err[TF_MARKS_ERR];
    bool any_highlight = false;
    for (size_t i = 0; i < n; i++) {
        const struct tf_mark_spec *s = &specs[i];
        struct tf_mark m;
        if (!resolve(f, s, &m, err)) {
            f->n_marks = 0;
            if (strcmp(err, "out of memory") == 0)
                return tf_diag_oom(d, NULL);
            return tf_diag_error(d, TF_EBADINPUT, "%s", err);
        }
        bool ok = true;
        m.text = mark_text(f, s, &m, &ok);
        m.title = mark_title(f, &m, &ok);
        if (!ok || !TF_GROW(f->marks, f->n_marks, f->cap_marks))
            return tf_diag_oom(d, NULL);
        f->marks[f->n_marks++] = m;
        any_highlight = any_highlight || s->kind == TF_MARK_HIGHLIGHT;
        if (m.open0 || m.open1) {
            char note[400];
            snprintf(note, sizeof note, "%.300s runs past the window's %s: cut there, drawn open",
                     s->where, m.open0 && m.open1 ? "start and end" : m.open0 ? "start" : "end");
            if (!tf_figure_add_note(f, note))
                return tf_diag_oom(d, NULL);
        }
    }
    return !(any_highlight || crit) || fade(f, specs, n) || tf_diag_oom(d, NULL);
}
