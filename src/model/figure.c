/* figure.c - ownership and shared geometry of the figure model: building
 * helpers for the modes, the description, and the bar outline with its
 * zigzag edges (used by the layout and by TikZ alike). */
#include "model/figure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/num.h"
#include "model/ov_set.h"

void tf_figure_init(struct tf_figure *f)
{
    memset(f, 0, sizeof *f);
    tf_arena_init(&f->arena);
}

void tf_figure_fini(struct tf_figure *f)
{
    free(f->props);
    for (size_t i = 0; i < f->n_lanes; i++)
        free(f->lanes[i].counter.samples);
    free(f->lanes);
    free(f->cats);
    free(f->bars);
    free(f->legend);
    free(f->arrows);
    free(f->marks);
    free(f->mark_events);
    free(f->notes);
    free(f->axis.ticks);
    free(f->axis.labels);
    free(f->panel.props);
    free(f->panel.slices);
    tf_stats_fini(&f->stats);
    for (size_t i = 0; i < f->n_traces; i++)
        tf_stats_fini(&f->traces[i].stats);
    free(f->traces);
    free(f->overview.ranks);
    tf_ov_set_free(f->ov_set);
    for (size_t i = 0; i < f->n_zooms; i++) {
        if (f->zooms[i].fig)
            tf_figure_fini(f->zooms[i].fig);
        free(f->zooms[i].fig);
    }
    free(f->zooms);
    tf_arena_fini(&f->arena);
    memset(f, 0, sizeof *f);
}

void tf_stats_fini(struct tf_stats *s)
{
    free(s->lane_busy_ms);
    for (size_t i = 0; i < s->n_groups; i++)
        free(s->groups[i].lanes);
    free(s->groups);
    free(s->overlap_ms);
    free(s->candidates);
    free(s->counters);
    for (size_t i = 0; i < s->n_paradigms; i++)
        free(s->paradigms[i].group_ms);
    free(s->paradigms);
    free(s->cpu_procs);
    free(s->devices);
    tf_critical_free(s->critical);
    memset(s, 0, sizeof *s);
}

uint32_t tf_color_text_on(uint32_t rgb)
{
    double r = (rgb >> 16) & 0xFF, g = (rgb >> 8) & 0xFF, b = rgb & 0xFF;
    return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? TF_COLOR_BLACK : TF_COLOR_WHITE;
}

const char *const tf_cp_cat_names[TF_CP_N_CATS] = {
    "cpu_bound", "gpu_compute_bound", "gpu_communication_bound", "gpu_kernel_kernel_overhead",
    "gpu_kernel_launch_overhead", "data_loading"};

void tf_critical_free(struct tf_critical *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n_events; i++) {
        free(c->events[i].name);
        free(c->events[i].lane);
    }
    free(c->events);
    free(c->edges);
    free(c);
}

double tf_unit_ns(const char *u)
{
    if (!u || strcmp(u, "ms") == 0)
        return 1e6;
    if (strcmp(u, "s") == 0)
        return 1e9;
    if (strcmp(u, "ns") == 0)
        return 1.0;
    return 1e3;
}

const char *tf_figure_str(struct tf_figure *f, const char *s)
{
    return tf_arena_strdup(&f->arena, s);
}

const char *tf_figure_buf(struct tf_figure *f, const struct tf_buf *b)
{
    return tf_arena_buf(&f->arena, b);
}

struct tf_lane *tf_figure_add_lane(struct tf_figure *f, const char *key, const char *label)
{
    if (!TF_GROW(f->lanes, f->n_lanes, f->cap_lanes))
        return NULL;
    struct tf_lane ln = {.rows = 1};
    ln.key = key ? tf_figure_str(f, key) : NULL;
    ln.label = tf_figure_str(f, label ? label : "");
    if ((key && !ln.key) || !ln.label)
        return NULL;
    f->lanes[f->n_lanes] = ln;
    return &f->lanes[f->n_lanes++];
}

struct tf_lane *tf_figure_add_counter(struct tf_figure *f, const char *label, const char *unit,
                                      uint32_t color)
{
    const char *u = unit ? tf_figure_str(f, unit) : NULL;
    if (unit && !u)
        return NULL;
    struct tf_lane *ln = tf_figure_add_lane(f, NULL, label);
    if (!ln)
        return NULL;
    ln->kind = TF_LANE_COUNTER;
    ln->counter.unit = u;
    ln->counter.color = color;
    return ln;
}

bool tf_counter_add(struct tf_lane *lane, int64_t t_ns, double x, double v)
{
    struct tf_counter *c = &lane->counter;
    if (!TF_GROW(c->samples, c->n_samples, c->cap_samples))
        return false;
    c->samples[c->n_samples++] = (struct tf_sample){t_ns, x, v};
    return true;
}

size_t tf_figure_category(struct tf_figure *f, const char *key, uint32_t color)
{
    for (size_t i = 0; i < f->n_cats; i++)
        if (strcmp(f->cats[i].key, key) == 0)
            return i;
    if (!TF_GROW(f->cats, f->n_cats, f->cap_cats))
        return (size_t)-1;
    const char *k = tf_figure_str(f, key);
    if (!k)
        return (size_t)-1;
    f->cats[f->n_cats] = (struct tf_category){k, color, NULL, NULL, false};
    return f->n_cats++;
}

struct tf_bar *tf_figure_add_bar(struct tf_figure *f)
{
    if (!TF_GROW(f->bars, f->n_bars, f->cap_bars))
        return NULL;
    struct tf_bar *b = &f->bars[f->n_bars++];
    memset(b, 0, sizeof *b);
    return b;
}

/* Copies of n props into the arena. */
static struct tf_prop *copy_props(struct tf_figure *f, const struct tf_prop *p, size_t n)
{
    struct tf_prop *out = tf_arena_alloc(&f->arena, n * sizeof *out);
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        out[i].key = tf_figure_str(f, p[i].key);
        out[i].value = p[i].value ? tf_figure_str(f, p[i].value) : NULL;
        out[i].number = p[i].number;
        if (!out[i].key || (p[i].value && !out[i].value))
            return NULL;
    }
    return out;
}

bool tf_figure_bar_props(struct tf_figure *f, struct tf_bar *b, const struct tf_prop *props,
                         size_t n)
{
    if (n == 0)
        return true;
    struct tf_prop *p = copy_props(f, props, n);
    if (!p)
        return false;
    b->props = p;
    b->n_props = n;
    return true;
}

bool tf_figure_bar_shares(struct tf_figure *f, struct tf_bar *b, const struct tf_share *s,
                          size_t n)
{
    b->shares = NULL;
    b->n_shares = 0;
    if (n == 0)
        return true;
    struct tf_share *out = tf_arena_alloc(&f->arena, n * sizeof *out);
    if (!out)
        return false;
    memcpy(out, s, n * sizeof *out);
    b->shares = out;
    b->n_shares = n;
    return true;
}

const char *tf_category_class(const struct tf_category *c)
{
    return c->label ? c->label : c->name ? c->name : c->key;
}

void tf_bar_busy_json(struct tf_buf *out, const struct tf_figure *f, const struct tf_bar *b,
                      int decimals)
{
    struct tf_share one = {b->cat, b->x1 > b->x0 ? b->busy / (b->x1 - b->x0) : 0};
    const struct tf_share *sh = b->n_shares ? b->shares : &one;
    size_t n = b->n_shares ? b->n_shares : 1;
    /* One key per class: the shares of categories of one class (its slices
     * of two trace categories) summed, at the first's place. */
    tf_buf_putc(out, '{');
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        const char *cls = sh[i].cat < f->n_cats ? tf_category_class(&f->cats[sh[i].cat]) : "";
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = strcmp(sh[j].cat < f->n_cats ? tf_category_class(&f->cats[sh[j].cat]) : "",
                          cls) == 0;
        if (seen)
            continue;
        double s = sh[i].share;
        for (size_t j = i + 1; j < n; j++)
            if (strcmp(sh[j].cat < f->n_cats ? tf_category_class(&f->cats[sh[j].cat]) : "",
                       cls) == 0)
                s += sh[j].share;
        tf_buf_puts(out, any ? ", " : "");
        any = true;
        tf_buf_json_str(out, cls);
        tf_buf_puts(out, ": ");
        tf_buf_num(out, s, decimals);
    }
    tf_buf_putc(out, '}');
}

double tf_bar_share(const struct tf_bar *b, size_t cat)
{
    if (b->shape != TF_SHAPE_DENSE)
        return 0;
    if (!b->n_shares) {
        double w = b->x1 - b->x0;
        return b->cat == cat && w > 0 ? b->busy / w : 0;
    }
    double s = 0;
    for (size_t i = 0; i < b->n_shares; i++)
        if (b->shares[i].cat == cat)
            s += b->shares[i].share;
    return s;
}

bool tf_figure_add_legend(struct tf_figure *f, const char *label, size_t cat)
{
    if (!TF_GROW(f->legend, f->n_legend, f->cap_legend))
        return false;
    const char *l = tf_figure_str(f, label);
    if (!l)
        return false;
    f->legend[f->n_legend++] = (struct tf_legend_entry){.label = l, .cat = cat};
    return true;
}

bool tf_figure_add_note(struct tf_figure *f, const char *note)
{
    if (!TF_GROW(f->notes, f->n_notes, f->cap_notes))
        return false;
    const char *n = tf_figure_str(f, note);
    if (!n)
        return false;
    f->notes[f->n_notes++] = n;
    return true;
}

bool tf_figure_add_arrow(struct tf_figure *f, const struct tf_arrow *a)
{
    if (!TF_GROW(f->arrows, f->n_arrows, f->cap_arrows))
        return false;
    f->arrows[f->n_arrows++] = *a;
    return true;
}

static bool add_prop(struct tf_figure *f, struct tf_prop **props, size_t *n, size_t *cap,
                     const char *key, const char *value, bool number)
{
    if (!TF_GROW(*props, *n, *cap))
        return false;
    struct tf_prop p = {key, value, number};
    struct tf_prop *c = copy_props(f, &p, 1);
    if (!c)
        return false;
    (*props)[(*n)++] = *c;
    return true;
}

bool tf_figure_add_prop(struct tf_figure *f, const char *key, const char *value, bool number)
{
    return add_prop(f, &f->props, &f->n_props, &f->cap_props, key, value, number);
}

bool tf_panel_add_prop(struct tf_figure *f, const char *key, const char *value, bool number)
{
    return add_prop(f, &f->panel.props, &f->panel.n_props, &f->panel.cap_props, key, value,
                    number);
}

struct tf_slice *tf_panel_add_slice(struct tf_figure *f)
{
    struct tf_panel *p = &f->panel;
    if (!TF_GROW(p->slices, p->n_slices, p->cap_slices))
        return NULL;
    struct tf_slice *s = &p->slices[p->n_slices++];
    memset(s, 0, sizeof *s);
    return s;
}

bool tf_figure_set_ticks(struct tf_figure *f, const double *ticks, size_t n)
{
    struct tf_axis *a = &f->axis;
    a->n_ticks = 0;
    a->decimals = tf_num_decimals(ticks, n);
    for (size_t i = 0; i < n; i++) {
        if (!TF_GROW(a->ticks, a->n_ticks, a->cap_ticks))
            return false;
        if (!TF_GROW(a->labels, a->n_ticks, a->cap_labels))
            return false;
        char buf[TF_NUM_MAX];
        const char *l = tf_figure_str(f, tf_fmt_num(buf, ticks[i], a->decimals));
        if (!l)
            return false;
        a->ticks[a->n_ticks] = ticks[i];
        a->labels[a->n_ticks] = l;
        a->n_ticks++;
    }
    return true;
}

bool tf_figure_describe(struct tf_figure *f, const char *title, const char *subject)
{
    struct tf_buf d;
    tf_buf_init(&d);
    char a[TF_NUM_MAX], b[TF_NUM_MAX], c[TF_NUM_MAX];
    const char *u = f->clock_unit ? f->clock_unit : "ms";
    tf_buf_puts(&d, subject);
    tf_buf_printf(&d, ", %s %s wide, from %s %s to %s %s of the trace: %zu bars on %zu lanes (",
                  tf_fmt_num(c, f->window_end - f->window_start, 1), u,
                  tf_fmt_num(a, f->window_start, 1), u, tf_fmt_num(b, f->window_end, 1), u,
                  f->n_bars, f->n_lanes);
    for (size_t i = 0; i < f->n_lanes; i++)
        tf_buf_printf(&d, "%s%s", i ? ", " : "", f->lanes[i].label);
    tf_buf_puts(&d, ").");
    if (f->has_panel) {
        const struct tf_panel *p = &f->panel;
        tf_buf_printf(&d, " %s of %s:", p->subject ? p->subject : "Breakdown",
                      p->title ? p->title : "");
        for (size_t i = 0; i < p->n_slices; i++)
            tf_buf_printf(&d, "%s %s %s%%", i ? "," : "", p->slices[i].label,
                          tf_fmt_num(a, p->slices[i].pct, 1));
        tf_buf_puts(&d, ".");
    }
    f->title = tf_figure_str(f, title);
    f->desc = tf_figure_buf(f, &d);
    tf_buf_fini(&d);
    return f->title && f->desc;
}

/* --- reading -------------------------------------------------------------- */

const struct tf_prop *tf_prop_find(const struct tf_prop *props, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(props[i].key, key) == 0)
            return &props[i];
    return NULL;
}

size_t tf_figure_counters(const struct tf_figure *f)
{
    size_t n = 0;
    for (size_t i = 0; i < f->n_lanes; i++)
        n += f->lanes[i].kind == TF_LANE_COUNTER;
    return n;
}

unsigned tf_figure_rows(const struct tf_figure *f)
{
    unsigned n = 0;
    for (size_t i = 0; i < f->n_lanes; i++)
        n += f->lanes[i].rows ? f->lanes[i].rows : 1;
    return n ? n : 1;
}

/* One torn edge: 2 * teeth + 1 points from (x, ya) to (x, yb), every odd
 * point pushed `dx` sideways; the first point is left out (the caller has
 * it already). */
static size_t zigzag(double x, double ya, double yb, double dx, double *xs, double *ys)
{
    const int n = 2 * TF_ZIGZAG_TEETH + 1;
    size_t k = 0;
    for (int i = 1; i < n; i++) {
        ys[k] = ya + (yb - ya) * i / (n - 1);
        xs[k] = x + (i % 2 ? dx : 0.0);
        k++;
    }
    return k;
}

void tf_bar_drawn_extent(const struct tf_figure *f, const struct tf_bar *b, double *x0,
                         double *x1)
{
    double left = b->x0, right = b->x1, span = f->x_span;
    if (span > 0) {
        left = fmin(fmax(left, 0.0), span);
        right = fmax(fmin(right, span), left);
    }
    *x0 = left;
    *x1 = right;
}

size_t tf_bar_outline(const struct tf_figure *f, const struct tf_bar *b, double y_bottom,
                      double y_top, double *xs, double *ys)
{
    double left, right;
    tf_bar_drawn_extent(f, b, &left, &right);
    double width = right - left;
    double amp = fmin(f->zigzag_amp, fmax(width * TF_ZIGZAG_MAX_WIDTH_FRAC, 0.0));
    size_t n = 0;
    xs[n] = left, ys[n] = y_bottom, n++;
    xs[n] = right, ys[n] = y_bottom, n++;
    if (b->clip_right && amp > 0)
        n += zigzag(right, y_bottom, y_top, -amp, xs + n, ys + n);
    else
        xs[n] = right, ys[n] = y_top, n++;
    xs[n] = left, ys[n] = y_top, n++;
    if (b->clip_left && amp > 0)
        n += zigzag(left, y_top, y_bottom, amp, xs + n, ys + n);
    else
        xs[n] = left, ys[n] = y_bottom, n++;
    return n;
}

uint32_t tf_color_faded(uint32_t rgb)
{
    /* half way to the grey of its luminance (the hue stays), then 62 %
     * of the way to white: faded ink that still tells its class */
    uint32_t c[3] = {(rgb >> 16) & 0xFF, (rgb >> 8) & 0xFF, rgb & 0xFF};
    uint32_t lum = (299 * c[0] + 587 * c[1] + 114 * c[2]) / 1000;
    uint32_t out = 0;
    for (int i = 0; i < 3; i++) {
        uint32_t desat = (c[i] + lum) / 2;
        out = (out << 8) | (255 - (255 - desat) * 38 / 100);
    }
    return out;
}
