/* frame.c - a trace timeline's frame (figure.h, "the frame"): the window
 * on the trace clock, the time axis (its unit, its "Time (unit)" title,
 * its MaxNLocator ticks) and the nominal canvas of a flame timeline.  One
 * trace (rules/chrome/mode.c), a model read back (rules/chrome/remodel.c)
 * and a figure of several traces (run_multi.c) all take theirs from here.
 * It draws nothing and knows no mode. */
#include "model/figure.h"

#include <stdio.h>

#include "base/ticks.h"

void tf_frame_unit(int64_t span_ns, const char **unit, double *per)
{
    if (span_ns >= 10000000000LL) {
        *unit = "s";
        *per = 1e9;
    } else if (span_ns >= 10000000LL) {
        *unit = "ms";
        *per = 1e6;
    } else {
        *unit = "\xC2\xB5s";
        *per = 1e3;
    }
}

bool tf_figure_frame(struct tf_figure *f, const struct tf_frame *fr)
{
    f->clock_unit = "us";
    f->window_start = (double)fr->w0 / 1e3;
    f->window_end = (double)fr->w1 / 1e3;
    f->x_span = (double)fr->span_ns / fr->per;
    f->zigzag_amp = f->x_span * 0.004;
    f->axis.unit = fr->unit;
    char title[32];
    snprintf(title, sizeof title, "Time (%s)", fr->unit);
    f->axis.title = tf_figure_str(f, title);
    double ticks[TF_TICKS_MAX];
    size_t nt = tf_nice_ticks(0.0, f->x_span, fr->bins, ticks, TF_TICKS_MAX);
    return f->axis.title && tf_figure_set_ticks(f, ticks, nt);
}

void tf_figure_frame_size(struct tf_figure *f, double width_pt, double rows)
{
    f->width_pt = width_pt > 0 ? width_pt : TF_FRAME_WIDTH_PT;
    f->height_pt = 60.0 + 15.0 * rows + 40.0;
    if (f->height_pt < 160)
        f->height_pt = 160;
}
