/* pytorch.c - the reference's plot_pytorch_trace rules: a legacy Chrome
 * trace (struct tf_pytorch) in, the figure model out.  Pure: no I/O, no
 * drawing.
 *
 *   window   the Candidate_Eval_N event [ts, ts + dur], padded by 2 % of
 *            its duration on the left and 5 % on the right (trace clock,
 *            microseconds; the figure holds ms)
 *   blocks   every I/O and compute block with ts + dur >= window start and
 *            ts <= window end, I/O bars first, then compute, each in file
 *            order (the reference's drawing order); negative durations
 *            are dropped
 *   lanes    "gpu" (GPU compute) on top, "io" (I/O) below
 *   stats    the overlap statistics of the drawn bars clipped to the window
 *            (tf_seed_stats: groups io and gpu, I/O hidden, GPU idle, the
 *            summary line; no candidates: the blocks do not name theirs)
 *   names    names containing POSIX_Lustre_Read, or exactly IO_Wait_For_GPU,
 *            are I/O; names containing Math_Operations or H2D_Transfer are
 *            compute; the window is the first complete (X) event named
 *            exactly Candidate_Eval_N (N from --start_candidate, default
 *            0), or, only when there is none, the first B/E pair of that
 *            name
 *
 * What the loader keeps (the sink below): the window event and the I/O and
 * compute blocks near it.  Once an X window is known, blocks far from it
 * are dropped as they come; before that every block is kept (they are
 * small).
 *
 * Where tracefig differs from the reference, on purpose:
 *   - bars that cross the window edge (by more than the timeline mode's
 *     0.5 ms) are flagged clip_left / clip_right, to be drawn cut at the
 *     edge with a zigzag (1.2 % of the span; edge tolerance 0.5 ms or
 *     0.1 % of the span, whichever is smaller).  Their x0/x1 stay
 *     the reference's: ms from the padded window start to the event's own
 *     start and end, which may lie outside 0 .. span.  The reference draws
 *     such bars whole (its x limits are automatic), and in practice almost
 *     every legacy trace has one (the prefetch read overlapping
 *     Candidate_Eval_N), so clamping x0/x1 here would lose the parity of
 *     the model with what the reference draws; the drawing code clamps to
 *     the window instead.
 *   - --start_candidate N picks Candidate_Eval_N (the loader finds it).
 *   - a legend: "I/O" (Lustre reads and waits for a GPU buffer), "GPU
 *     compute" (H2D transfers and math operations), in drawing order.
 */
#include "rules/pytorch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "rules/palette.h"
#include "rules/seed.h"

#define TF_PT_PAD_LEFT 0.02
#define TF_PT_PAD_RIGHT 0.05

/* The padded window [ps, pe] (us) of the window event. */
static void padded_window(double ts, double dur, double *ps, double *pe)
{
    double end = ts + dur;
    *ps = ts - dur * TF_PT_PAD_LEFT;
    *pe = end + dur * TF_PT_PAD_RIGHT;
}

/* --- what the loader keeps ------------------------------------------------------ */

/* Tags of wanted events: the window, or a block of either kind. */
enum { TAG_WINDOW = 1u << 1, TAG_IO = 1u << 2, TAG_COMPUTE = 1u << 3 };

struct rec {
    size_t idx;
    double ts, dur;
    unsigned char kind;
};

struct collector {
    struct tf_pytorch *out;
    bool claims; /* an event named Candidate_Eval_<digits> was seen */
    char win_name[40];
    long long n;  /* the N of Candidate_Eval_N */
    bool found;
    bool win_x;   /* the window is a complete (X) event: final, prune by it */
    size_t win_idx;
    double win_ts, win_dur;
    struct rec *recs;
    size_t n_recs, cap_recs;
};

static bool contains(const char *p, size_t n, const char *lit)
{
    size_t m = strlen(lit);
    if (m == 0 || m > n)
        return m == 0;
    /* memchr finds the candidates: kernel names run to kilobytes. */
    const char *last = p + (n - m);
    for (const char *q = p; q <= last; q++) {
        q = memchr(q, lit[0], (size_t)(last - q) + 1);
        if (!q)
            return false;
        if (memcmp(q, lit, m) == 0)
            return true;
    }
    return false;
}

static bool equals(const char *p, size_t n, const char *lit)
{
    return strlen(lit) == n && memcmp(p, lit, n) == 0;
}

/* Whether a name is Candidate_Eval_<digits>: the trace is then this
 * mode's, whatever N it holds. */
static bool candidate_eval(const char *name, size_t len)
{
    static const char prefix[] = "Candidate_Eval_";
    size_t n = sizeof prefix - 1;
    if (len <= n || memcmp(name, prefix, n) != 0)
        return false;
    for (size_t i = n; i < len; i++)
        if (name[i] < '0' || name[i] > '9')
            return false;
    return true;
}

static bool claims(void *ctx)
{
    const struct collector *c = ctx;
    return c->claims;
}

static unsigned wants(void *ctx, const char *name, size_t len)
{
    struct collector *c = ctx;
    unsigned tag = 0;
    if (candidate_eval(name, len))
        c->claims = true;
    /* Every name this mode draws, Candidate_Eval_N included, has an
     * underscore: most names of a generic trace are passed over with one
     * memchr. */
    if (!memchr(name, '_', len))
        return 0;
    if (contains(name, len, "POSIX_Lustre_Read") || equals(name, len, "IO_Wait_For_GPU"))
        tag = TAG_IO;
    else if (contains(name, len, "Math_Operations") || contains(name, len, "H2D_Transfer"))
        tag = TAG_COMPUTE;
    if (equals(name, len, c->win_name))
        tag |= TAG_WINDOW | TF_WANT_REQUIRED;
    return tag;
}

/* Whether a block may be drawn with the current window: a superset of the
 * figure's rule below (a little slack keeps rounding on the safe side). */
static bool near_window(const struct collector *c, double ts, double dur)
{
    double w0, w1;
    padded_window(c->win_ts, c->win_dur, &w0, &w1);
    double lo = w0 < w1 ? w0 : w1, hi = w0 < w1 ? w1 : w0;
    double slack = 1.0 + 1e-3 * (hi - lo);
    return ts + dur >= lo - slack && ts <= hi + slack;
}

static void prune(struct collector *c)
{
    if (!c->win_x)
        return;
    size_t k = 0;
    for (size_t i = 0; i < c->n_recs; i++)
        if (near_window(c, c->recs[i].ts, c->recs[i].dur))
            c->recs[k++] = c->recs[i];
    c->n_recs = k;
}

/* The window is the first complete (X) event named Candidate_Eval_N, as in
 * the reference; only when there is none does the first B/E pair of that
 * name count.  Blocks are pruned only by an X window, which is final. */
static bool slice(void *ctx, unsigned tag, size_t idx, double ts, double dur, bool is_x,
                  struct tf_diag *d)
{
    struct collector *c = ctx;
    bool better = !c->found || (is_x && !c->win_x) || (is_x == c->win_x && idx < c->win_idx);
    if ((tag & TAG_WINDOW) && better) {
        c->found = true;
        c->win_x = is_x;
        c->win_idx = idx;
        c->win_ts = ts;
        c->win_dur = dur;
        prune(c);
    }
    unsigned char kind = tag & TAG_IO ? TF_PT_IO : tag & TAG_COMPUTE ? TF_PT_COMPUTE : 0;
    if (!kind)
        return true;
    if (c->win_x && !near_window(c, ts, dur))
        return true;
    if (!TF_GROW(c->recs, c->n_recs, c->cap_recs))
        return tf_diag_oom(d, NULL);
    c->recs[c->n_recs++] = (struct rec){idx, ts, dur, kind};
    return true;
}

static int by_idx(const void *a, const void *b)
{
    const struct rec *x = a, *y = b;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

static bool finish(void *ctx, struct tf_diag *d)
{
    struct collector *c = ctx;
    if (!c->found)
        return tf_diag_error(d, TF_EBADINPUT,
                             "no complete event named %s: it marks the window to plot "
                             "(choose another with --start-candidate)",
                             c->win_name);
    prune(c);
    /* B/E pairs complete late: put every block at the place of its start. */
    if (c->n_recs > 1)
        qsort(c->recs, c->n_recs, sizeof *c->recs, by_idx);
    struct tf_pytorch *out = c->out;
    out->found = true;
    out->candidate = c->n;
    out->win_ts_us = c->win_ts;
    out->win_dur_us = c->win_dur;
    for (size_t i = 0; i < c->n_recs; i++) {
        struct tf_pt_block b = {c->recs[i].ts, c->recs[i].dur, c->recs[i].kind};
        if (!tf_pytorch_push(out, &b))
            return tf_diag_oom(d, NULL);
    }
    return true;
}

static bool begin(const struct tf_opts *o, struct tf_trace *t, struct tf_keep *k,
                  struct tf_diag *d)
{
    struct collector *c = calloc(1, sizeof *c);
    if (!c)
        return tf_diag_oom(d, NULL);
    c->out = &t->pytorch;
    c->n = o->start_candidate.set ? o->start_candidate.v : 0;
    snprintf(c->win_name, sizeof c->win_name, "Candidate_Eval_%lld", c->n);
    k->chrome = (struct tf_chrome_sink){
        .claims = claims, .wants = wants, .slice = slice, .finish = finish, .ctx = c};
    k->state = c;
    return true;
}

static void end(struct tf_keep *k)
{
    struct collector *c = k->state;
    if (c)
        free(c->recs);
    free(c);
    k->state = NULL;
}

/* --- the figure ----------------------------------------------------------------- */

static bool add_bars(const struct tf_pytorch *p, unsigned char kind, size_t lane, double ps,
                     double pe, struct tf_figure *f)
{
    /* The timeline's 0.5 ms edge tolerance, but never more than 0.1 % of a
     * (possibly sub-millisecond) window. */
    double eps_us = fmin(TF_EDGE_CLIP_EPS_MS * 1000.0, 0.001 * (pe - ps));
    for (size_t i = 0; i < p->n_blocks; i++) {
        const struct tf_pt_block *b = &p->blocks[i];
        if (b->kind != kind || b->dur_us < 0)
            continue;
        if (b->ts_us + b->dur_us < ps || b->ts_us > pe)
            continue;
        size_t cat = kind == TF_PT_IO ? tf_figure_category(f, "io", TF_COLOR_IO)
                                      : tf_figure_category(f, "gpu", TF_COLOR_GPU0);
        struct tf_bar *r = cat == (size_t)-1 ? NULL : tf_figure_add_bar(f);
        if (!r)
            return false;
        double end = b->ts_us + b->dur_us;
        double x0 = (b->ts_us - ps) / 1000.0, x1 = x0 + b->dur_us / 1000.0;
        r->lane = lane;
        r->cat = cat;
        r->name = kind == TF_PT_IO ? "io" : "compute";
        r->start_ms = b->ts_us / 1000.0;
        r->dur_ms = b->dur_us / 1000.0;
        r->x0 = x0;
        r->x1 = x1;
        r->clip_left = b->ts_us < ps - eps_us;
        r->clip_right = end > pe + eps_us;
        r->color = kind == TF_PT_IO ? TF_COLOR_IO : TF_COLOR_GPU0;
        r->label_color = kind == TF_PT_IO ? TF_COLOR_BLACK : TF_COLOR_WHITE;
        /* No candidate: the JSON model still says so, as the pipelined mode's
         * bars say which they belong to. */
        struct tf_prop none = {"candidate", NULL, true};
        if (!tf_figure_bar_props(f, r, &none, 1) || !tf_seed_bar_tooltip(f, r, false, 0))
            return false;
    }
    return true;
}

static bool build(const struct tf_mode_input *in, const struct tf_opts *o, struct tf_figure *f,
                  struct tf_diag *d)
{
    const struct tf_pytorch *p = &in->trace->pytorch;
    if (in->breakdown)
        tf_diag_warn(d, "%s: the breakdown panel is drawn only for pipelined timelines",
                     in->breakdown_file);
    if (!p->found)
        return tf_diag_error(d, TF_EBADINPUT, "no Candidate_Eval_%lld event in the trace",
                             p->candidate);
    double start = p->win_ts_us, end = p->win_ts_us + p->win_dur_us;
    double dur = end - start;
    double ps, pe;
    padded_window(start, dur, &ps, &pe);
    if (!((pe - ps) / 1000.0 >= TF_MIN_SPAN_MS))
        return tf_diag_error(d, TF_EBADINPUT,
                             "Candidate_Eval_%lld lasts %g us: no window to plot", p->candidate,
                             dur);
    f->mode = tf_mode_pytorch.name;
    f->schema = "tracefig-figure-1";
    f->window_start = ps / 1000.0;
    f->window_end = pe / 1000.0;
    f->x_span = f->window_end - f->window_start;
    double span = (pe - ps) / 1000.0;
    /* The timeline's 6..14 ms bounds assume a window of about a second; a
     * Candidate_Eval window can be a millisecond, so here the amplitude is
     * just the 1.2 % of the span. */
    f->zigzag_amp = TF_ZIGZAG_AMP_FRAC * span;
    bool ok = tf_figure_add_prop(f, "start_candidate", NULL, true) &&
              tf_figure_add_lane(f, "gpu", "GPU compute") && tf_figure_add_lane(f, "io", "I/O") &&
              add_bars(p, TF_PT_IO, 1, ps, pe, f) && add_bars(p, TF_PT_COMPUTE, 0, ps, pe, f) &&
              tf_figure_add_legend(f, "I/O", tf_seed_legend_cat(f, TF_COLOR_IO, "io")) &&
              tf_figure_add_legend(f, "GPU compute",
                                   tf_seed_legend_cat(f, TF_COLOR_GPU0, "gpu0")) &&
              tf_seed_frame(f, false, span) && tf_seed_stats(f, o) &&
              tf_figure_describe(f, "PyTorch trace timeline", "PyTorch trace timeline");
    f->has_legend_y = o->has_legend_y;
    f->legend_y = o->legend_y;
    if (!ok)
        return tf_diag_oom(d, NULL);
    /* The reference draws an empty figure too; say why it is empty. */
    if (f->n_bars == 0)
        tf_diag_warn(d,
                     "%s: no bar in the window of Candidate_Eval_%lld: the pytorch mode draws "
                     "X or B/E events whose names contain POSIX_Lustre_Read or "
                     "Math_Operations or H2D_Transfer, or are IO_Wait_For_GPU",
                     in->file, p->candidate);
    return true;
}

const struct tf_mode tf_mode_pytorch = {
    .name = "pytorch",
    .summary = "legacy PyTorch Chrome trace with a Candidate_Eval_N window event",
    .kind = TF_TRACE_CHROME,
    .begin = begin,
    .end = end,
    .build = build,
};
