/* numpy's argsort(kind="quicksort") order (rules/npsort.h): the orders
 * numpy 1.24 gives these arrays, ties and all (HTA's sort_values). */
#include "harness.h"
#include "rules/npsort.h"

static void check(const int64_t *key, size_t n, const uint32_t *want)
{
    uint32_t ix[64];
    for (size_t i = 0; i < n; i++)
        ix[i] = (uint32_t)i;
    tf_np_argsort(key, ix, n);
    TF_CHECK(memcmp(ix, want, n * sizeof *ix) == 0);
}

TF_TEST(npsort_seventeen_equal_keys_are_partitioned)
{
    int64_t key[17] = {0};
    const uint32_t want[17] = {0, 14, 13, 12, 11, 10, 9, 15, 8, 6, 5, 4, 3, 2, 1, 7, 16};
    check(key, 17, want);
    /* sixteen or fewer: insertion sort, stable */
    uint32_t ix[16];
    for (uint32_t i = 0; i < 16; i++)
        ix[i] = i;
    tf_np_argsort(key, ix, 16);
    for (uint32_t i = 0; i < 16; i++)
        TF_CHECK(ix[i] == i);
}

TF_TEST(npsort_three_values)
{
    const int64_t key[40] = {0, 0, 1, 2, 2, 0, 1, 0, 1, 0, 1, 2, 1, 2, 1, 1, 1, 2, 0, 1,
                             0, 1, 1, 0, 1, 1, 0, 0, 1, 1, 1, 2, 0, 1, 1, 2, 2, 0, 1, 2};
    const uint32_t want[40] = {0,  18, 23, 26, 27, 9,  7,  20, 5,  37, 1,  32, 30, 21,
                               28, 33, 34, 25, 24, 22, 29, 19, 8,  16, 15, 14, 2,  12,
                               10, 38, 6,  36, 35, 3,  17, 31, 11, 13, 4,  39};
    check(key, 40, want);
}

TF_TEST(npsort_mostly_equal)
{
    const int64_t key[36] = {5, 3, 5, 1, 5, 3, 5, 5, 2, 5, 5, 5, 3, 5, 5, 5, 5, 1,
                             5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5};
    const uint32_t want[36] = {17, 3,  8,  1,  5,  12, 22, 23, 24, 25, 26, 29,
                               28, 21, 30, 31, 32, 33, 27, 20, 0,  18, 34, 16,
                               15, 14, 13, 11, 10, 9,  7,  6,  4,  2,  19, 35};
    check(key, 36, want);
}
