/* ticks.h - "nice" axis ticks. */
#ifndef TF_TICKS_H
#define TF_TICKS_H

#include <stddef.h>

/* matplotlib's MaxNLocator (steps 1, 2, 2.5, 5, 10) for [vmin, vmax] with
 * at most nbins intervals: writes the ticks inside [vmin, vmax] and returns
 * how many (at most max_out). */
size_t tf_nice_ticks(double vmin, double vmax, int nbins, double *out, size_t max_out);

/* Room for any tf_nice_ticks result with nbins <= 30. */
#define TF_TICKS_MAX 32

#endif
