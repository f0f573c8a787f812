/* npsort.c - numpy's quicksort argsort order of int64 keys
 * (rules/npsort.h); the algorithm is npsort_impl.h's, which hta_calc.c
 * also instantiates for HTA's float columns. */
#include "rules/npsort.h"

#define NP_NAME tf_np_argsort
#define NP_KEY int64_t
#define NP_IDX uint32_t
#define NP_LT(a, b) ((a) < (b))
#include "rules/npsort_impl.h"
