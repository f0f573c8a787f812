/* align.c - see align.h. */
#include "rules/align.h"

#include <stdlib.h>
#include <string.h>

bool tf_align_parse(const char *s, enum tf_align *out)
{
    static const char *const names[] = {"auto", "clock", "event", "start"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(s, names[i]) == 0) {
            *out = (enum tf_align)i;
            return true;
        }
    return false;
}

const char *tf_align_name(enum tf_align a)
{
    return a == TF_ALIGN_CLOCK ? "clock" : a == TF_ALIGN_EVENT ? "event"
                                         : a == TF_ALIGN_START ? "start" : "auto";
}

/* The shifts that put the traces on their shared clock: each base (where
 * it is the origin of a trace's clock) less the smallest, so that traces
 * of one base keep their own numbers. */
static void clock_offsets(const struct tf_align_in *in, size_t n, struct tf_align_out *out)
{
    int64_t lo = 0;
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        int64_t b = in[i].has_base ? in[i].base_ns : 0;
        if (!any || b < lo)
            lo = b;
        any = true;
    }
    for (size_t i = 0; i < n; i++)
        out[i].offset = (in[i].has_base ? in[i].base_ns : 0) - lo;
}

struct extent {
    int64_t s, e;
    size_t i;
};

static int by_start(const void *x, const void *y)
{
    const struct extent *a = x, *b = y;
    if (a->s != b->s)
        return a->s < b->s ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* Whether the spans, shifted, make one connected stretch of time; and the
 * spread of their starts.  False when out of memory. */
static bool spans_overlap(const struct tf_align_in *in, size_t n, const struct tf_align_out *out,
                          struct tf_align_plan *p, bool *overlap)
{
    struct extent *x = malloc((n ? n : 1) * sizeof *x);
    if (!x)
        return false;
    for (size_t i = 0; i < n; i++)
        x[i] = (struct extent){in[i].span.origin + out[i].offset, in[i].span.end + out[i].offset,
                               i};
    qsort(x, n, sizeof *x, by_start);
    *overlap = true;
    int64_t reach = n ? x[0].e : 0;
    for (size_t k = 1; k < n; k++) {
        if (x[k].s > reach)
            *overlap = false;
        if (x[k].e > reach)
            reach = x[k].e;
    }
    if (n) {
        p->first = x[0].i;
        p->last = x[n - 1].i;
        p->spread = x[n - 1].s - x[0].s;
    }
    free(x);
    return true;
}

bool tf_align_make(enum tf_align asked, const struct tf_align_in *in, size_t n,
                   struct tf_align_out *out, struct tf_align_plan *p)
{
    memset(p, 0, sizeof *p);
    clock_offsets(in, n, out);
    bool overlap;
    if (!spans_overlap(in, n, out, p, &overlap))
        return false;
    enum tf_align a = asked;
    if (a == TF_ALIGN_AUTO) {
        bool one_job = true, own = false;
        for (size_t i = 0; i < n; i++) {
            one_job = one_job && in[i].has_world_size && in[i].world_size == in[0].world_size &&
                      in[i].has_rank;
            for (size_t k = 0; k < i && one_job; k++)
                one_job = in[k].rank != in[i].rank;
            own = own || in[i].own_clock;
        }
        a = !own && (one_job || overlap) ? TF_ALIGN_CLOCK : TF_ALIGN_EVENT;
    }
    p->align = a;
    p->apart = a == TF_ALIGN_CLOCK && !overlap;
    for (size_t i = 0; i < n; i++) {
        if (a == TF_ALIGN_EVENT)
            out[i].offset = -in[i].span.event;
        else if (a == TF_ALIGN_START)
            out[i].offset = -in[i].span.origin;
        int64_t s = in[i].span.w0 + out[i].offset, e = in[i].span.w1 + out[i].offset;
        if (i == 0 || s < p->w0)
            p->w0 = s;
        if (i == 0 || e > p->w1)
            p->w1 = e;
    }
    for (size_t i = 0; i < n; i++) {
        out[i].x0 = p->w0 - out[i].offset;
        if (a == TF_ALIGN_EVENT) {
            out[i].w0 = in[i].span.w0;
            out[i].w1 = in[i].span.w1;
        } else {
            out[i].w0 = p->w0 - out[i].offset;
            out[i].w1 = p->w1 - out[i].offset;
        }
    }
    return true;
}
