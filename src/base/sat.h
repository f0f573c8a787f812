/* sat.h - int64 sums and differences held at the ends of the range.
 *
 * A Chrome trace's times are bounded so that any two add and subtract
 * exactly (TF_TEF_MAX_NS), but other loaders' nanoseconds (an export's
 * int64 columns) and times plus gaps or padding need not be.  Where such a
 * result is only compared with an in-range value, holding it at INT64_MAX
 * or INT64_MIN gives the comparison the exact result would.
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
