/* num.h - locale-free number formatting.
 *
 * Every number an output holds goes through tf_fmt_num: fixed decimals,
 * trailing zeros trimmed, "-0" printed as "0".  tracefig never calls
 * setlocale(), and tf_fmt_num still forces '.' as the decimal point, so the
 * bytes never depend on LC_ALL / LC_NUMERIC.
 */
#ifndef TF_NUM_H
#define TF_NUM_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

/* Room for any finite double with up to 9 decimals. */
#define TF_NUM_MAX 340

/* Writes v with `decimals` (0..9) fixed decimals, trailing zeros and a
 * trailing '.' removed, "-0" as "0": the bytes of glibc's "%.*f" (the
 * exact binary value rounded once, to nearest, ties to even), computed in
 * integers without printf (fixed.c).  Non-finite values print as "0"
 * (callers reject them earlier).  Returns out. */
const char *tf_fmt_num(char out[TF_NUM_MAX], double v, int decimals);

/* The same, returning strlen(out). */
size_t tf_fmt_num_len(char out[TF_NUM_MAX], double v, int decimals);

/* tf_fmt_num into the buffer. */
void tf_buf_num(struct tf_buf *b, double v, int decimals);

/* v as Python's repr() writes a float: the shortest digits that read back
 * as v, in positional form for exponents -4..15 ("5.0", "0.001",
 * "1234.5"), else scientific ("1e+16", "1.5e-07"); "inf", "-inf", "nan".
 * Returns out. */
const char *tf_fmt_repr(char out[40], double v);

/* "#RRGGBB" for 0xRRGGBB. */
const char *tf_fmt_color(char out[8], uint32_t rgb);

/* The fewest decimals (0..9) that print every value exactly: the labels
 * of a 0.25-ms tick step need 2, of a 200-ms step none.  Used for tick
 * labels so they never print as duplicates. */
int tf_num_decimals(const double *v, size_t n);

#endif
