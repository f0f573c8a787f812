/* align.h - several traces on one time axis: which clock they share
 * (--align), the shift of each trace's timestamps, the figure's window and
 * what each trace draws of it.  Pure rules on numbers: run_multi.c gathers
 * each trace's span (mode.h, struct tf_span) and facts, and applies the
 * plan.  All times are nanoseconds.
 *
 *   clock  the traces' own timestamps (with Kineto's baseTimeNanoseconds
 *          added where a trace's times count from it); the window is the
 *          union of the traces' windows, and every trace draws all of it.
 *   event  each trace's window event (its window's start without one) at
 *          0; the window is the longest of them, and each trace draws its
 *          own, so a shorter step ends earlier on the axis.
 *   start  each trace's first event at 0; the window is the union of the
 *          shifted windows, every trace drawing all of it.
 *
 * The default (TF_ALIGN_AUTO) is clock when the traces are ranks of one
 * job (all give the same world_size, each another rank) or when their spans overlap on the
 * shared clock, and event otherwise; a trace whose clock counts from its
 * own start (a pipelined timeline) is never on a shared clock by default.
 */
#ifndef TF_RULES_ALIGN_H
#define TF_RULES_ALIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/mode.h"

enum tf_align { TF_ALIGN_AUTO = 0, TF_ALIGN_CLOCK, TF_ALIGN_EVENT, TF_ALIGN_START };

/* "clock", "event", "start" (and "auto"); false for another word. */
bool tf_align_parse(const char *s, enum tf_align *out);
const char *tf_align_name(enum tf_align a);

struct tf_align_in {
    struct tf_span span;   /* on its own clock */
    bool has_base;         /* base_ns is the origin of its clock */
    int64_t base_ns;
    bool has_world_size, has_rank;
    long long world_size, rank;
    bool own_clock;        /* its clock counts from its own start */
};

struct tf_align_out {
    int64_t offset; /* added to its times: its clock -> the figure's */
    int64_t w0, w1; /* what it draws, on its clock */
    int64_t x0;     /* its clock's time at the figure's x = 0 */
};

struct tf_align_plan {
    enum tf_align align;   /* as decided */
    int64_t w0, w1;        /* the figure's window, on the figure's clock */
    /* Under clock: the spans do not overlap.  Then `spread` is the
     * distance from the earliest start to the latest, and first / last
     * the traces that start so. */
    bool apart;
    int64_t spread;
    size_t first, last;
};

/* The plan for n >= 1 traces (out: n entries); false when out of
 * memory. */
bool tf_align_make(enum tf_align asked, const struct tf_align_in *in, size_t n,
                   struct tf_align_out *out, struct tf_align_plan *plan);

#endif
