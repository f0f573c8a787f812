/* plan_int.h - the fit policy's state, shared by plan.c and the files that
 * start one (plan_size.c: what a height holds).
 * Not for other stages: render/plan.h is the plan's interface.
 */
#ifndef TF_PLAN_INT_H
#define TF_PLAN_INT_H

#include "render/plan.h"

struct fit {
    const struct tf_figure *f;
    struct tf_plan *p;
    struct tf_label_levels lv;
    int level;          /* the label level drawn (-1: none) */
    double margin, gap; /* canvas edge to text; label to plot */
    double lab_line;    /* a label's line (left: the least lane height) */
    double header_h;
    double below_h;     /* everything under the plot */
    /* A figure of many traces of one lane each (ranks): lanes need not be
     * as tall as a label (sparse), and every `every`-th lane is labelled
     * (0, 1: all) when they are thinner. */
    bool sparse;
    size_t every;
    /* An overview's row of its last rank to end, always labelled (the
     * labels within `every` of it give way); 0: none, else its index + 1. */
    size_t mark1;
    /* Set as plan_fit goes: the base font; the plot's left end and the
     * panel's needs; the pads and height of a time axis; whether the
     * summary line is drawn; the plot's top. */
    double fb;
    double x0, pneed, plh;
    double tick_pad, title_pad, axis_h;
    bool annotate;
    double top;
};

/* A text's height (ascent and descent) at a size (plan_labels.c, beside
 * tf_plan_text_width). */
double tf_plan_text_h(double size, bool bold);

/* The bottom legend's entries (the figure's, and the share key's when
 * p->legend.share_key) at text size fs, with the handle, text pad, column
 * space and pad in fs (plan_legend.c); false when out of memory. */
bool tf_plan_legend_init(const struct tf_figure *f, struct tf_plan *p, double fs, double handle,
                         double textpad, double colspace, double pad);
/* Its grid: one row when it fits in `avail`, else in as few rows as fit,
 * columns as wide as their widest entry. */
bool tf_plan_legend_grid(const struct tf_figure *f, struct tf_plan *p, double avail);

/* The fit policy's first steps on F (its f and p set): the plan's arrays,
 * the fonts and label level, and what goes under the plot (F->below_h);
 * false when out of memory. */
bool tf_plan_fit_start(struct fit *F, const struct tf_size *size);

/* The header over lane i at the level drawn, or (size_t)-1: every lane of
 * an overview is under one, the rank axis. */
size_t tf_plan_lane_header(const struct fit *F, size_t i);

/* The height budget of a fit figure at this size. */
double tf_plan_budget(const struct tf_plan *p, const struct tf_size *size);

/* The marks (plan_marks.c): the spans' and regions' rows above the plot,
 * once the plot's left and right are known (p->marks_h, before the
 * height is fitted); then, once the lanes are placed, every mark's place
 * and label.  False when out of memory. */
bool tf_plan_marks_rows(struct fit *F);
bool tf_plan_marks_place(struct fit *F);
/* The labels of marks left out for want of room, added to p->note (none:
 * true); false when out of memory. */
bool tf_plan_marks_note(struct tf_plan *p);

#endif
