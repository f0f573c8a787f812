/* sat.h - int64 sums and differences held at the ends of the range.
 *
 * Times in nanoseconds reach +-9.2e18 (a trace's |ts| may be 9e15 us), so
 * the difference of two of them, or a time plus a gap, can leave int64_t.
 * Where such a result is only compared, holding it at INT64_MAX or
 * INT64_MIN keeps every comparison the exact one would make that a
 * comparison against an in-range value can tell.
 */
#ifndef TF_SAT_H
#define TF_SAT_H

#include <stdint.h>

static inline int64_t tf_add_sat(int64_t a, int64_t b)
{
    if (b > 0 && a > INT64_MAX - b)
        return INT64_MAX;
    if (b < 0 && a < INT64_MIN - b)
        return INT64_MIN;
    return a + b;
}

static inline int64_t tf_sub_sat(int64_t a, int64_t b)
{
    if (b < 0 && a > INT64_MAX + b)
        return INT64_MAX;
    if (b > 0 && a < INT64_MIN + b)
        return INT64_MIN;
    return a - b;
}

#endif
