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
#include <math.h>
#include <stdio.h>

#include "figure.h"

#define TF_PT_PAD_LEFT 0.02
#define TF_PT_PAD_RIGHT 0.05

static bool add_bars(const struct tf_pytorch *p, unsigned char kind, int lane, double ps,
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
        struct tf_bar *r = tf_figure_add_bar(f);
        if (!r)
            return false;
        double end = b->ts_us + b->dur_us;
        double x0 = (b->ts_us - ps) / 1000.0, x1 = x0 + b->dur_us / 1000.0;
        r->lane = lane;
        r->name = kind == TF_PT_IO ? "io" : "compute";
        r->has_candidate = false;
        r->start_ms = b->ts_us / 1000.0;
        r->dur_ms = b->dur_us / 1000.0;
        r->x0 = x0;
        r->x1 = x1;
        r->clip_left = b->ts_us < ps - eps_us;
        r->clip_right = end > pe + eps_us;
        r->has_label = false;
        r->color = kind == TF_PT_IO ? TF_COLOR_IO : TF_COLOR_GPU0;
        r->label_color = kind == TF_PT_IO ? TF_COLOR_BLACK : TF_COLOR_WHITE;
    }
    return true;
}

bool tf_pytorch_figure(const struct tf_pytorch *p, const struct tf_rules_opts *o,
                       struct tf_figure *f, struct tf_diag *d)
{
    if (!p->found)
        return tf_diag_error(d, TF_EBADINPUT, "no Candidate_Eval_%lld event in the trace",
                             p->candidate);
    double start = p->win_ts_us, end = p->win_ts_us + p->win_dur_us;
    double dur = end - start;
    double ps = start - dur * TF_PT_PAD_LEFT, pe = end + dur * TF_PT_PAD_RIGHT;
    if (!((pe - ps) / 1000.0 >= TF_MIN_SPAN_MS))
        return tf_diag_error(d, TF_EBADINPUT,
                             "Candidate_Eval_%lld lasts %g us: no window to plot", p->candidate,
                             dur);
    f->mode = TF_MODE_PYTORCH;
    f->has_start_candidate = false;
    f->start_candidate = p->candidate;
    f->num_candidates = 1;
    f->window_start_ms = ps / 1000.0;
    f->window_end_ms = pe / 1000.0;
    double span = (pe - ps) / 1000.0;
    /* The timeline's 6..14 ms bounds assume a window of about a second; a
     * Candidate_Eval window can be a millisecond, so here the amplitude is
     * just the 1.2 % of the span. */
    f->zigzag_amp_ms = TF_ZIGZAG_AMP_FRAC * span;
    f->n_lanes = 2;
    snprintf(f->lanes[0].id, sizeof f->lanes[0].id, "gpu");
    snprintf(f->lanes[0].label, sizeof f->lanes[0].label, "GPU compute");
    snprintf(f->lanes[1].id, sizeof f->lanes[1].id, "io");
    snprintf(f->lanes[1].label, sizeof f->lanes[1].label, "I/O");
    f->has_main_lane = false;
    if (!add_bars(p, TF_PT_IO, 1, ps, pe, f) || !add_bars(p, TF_PT_COMPUTE, 0, ps, pe, f))
        return tf_diag_error(d, TF_EIO, "out of memory");
    f->n_legend = 0;
    f->legend[f->n_legend++] = (struct tf_legend_entry){"I/O", TF_COLOR_IO};
    f->legend[f->n_legend++] = (struct tf_legend_entry){"GPU compute", TF_COLOR_GPU0};
    f->has_legend_y = o ? o->has_legend_y : false;
    f->legend_y = o ? o->legend_y : 0.0;
    f->has_breakdown = false;
    f->n_xticks = tf_nice_ticks(0.0, span, 9, f->xticks, TF_MAX_TICKS);
    return true;
}
