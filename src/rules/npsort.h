/* npsort.h - the order numpy 1.24's argsort(kind="quicksort") gives, ties
 * and all: what pandas' sort_values(by=one column) puts first among equal
 * keys in HTA's frames (rules/critpath.c).  That sort is not stable: equal
 * keys come out in an order that depends on the whole array, so a tool
 * that agrees with HTA on ties must sort the same way.
 */
#ifndef TF_NPSORT_H
#define TF_NPSORT_H

#include <stddef.h>
#include <stdint.h>

/* idx[0..n) (positions into key, usually 0..n-1 on entry) permuted into
 * numpy's introsort order of key[idx[i]]: median-of-three partitions of
 * the parts of more than 16, insertion sort of the others, heapsort past
 * twice the log2 of n levels.  (tests/unit checks it against numpy's
 * orders of arrays with ties.) */
void tf_np_argsort(const int64_t *key, uint32_t *idx, size_t n);

#endif
