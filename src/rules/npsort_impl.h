/* npsort_impl.h - the body of numpy's quicksort argsort (rules/npsort.h),
 * written once for each kind of key.  The file that includes it defines
 *   NP_NAME          the function made, of (const NP_KEY *v, NP_IDX *idx, size_t n)
 *   NP_KEY, NP_IDX   the key's type and the index's
 *   NP_LT(a, b)      numpy's "a sorts before b" for two keys
 *   NP_STATIC        (optional) defined when the function is the file's own
 * and gets a function that permutes idx[0..n) (positions into v) into
 * numpy's introsort order: median-of-three partitions of the parts of more
 * than 16, insertion sort of the others, heapsort past twice the log2 of n
 * levels.  No include guard: it is meant to be included more than once.
 */
#include <stddef.h>

#define NP_CAT_(a, b) a##b
#define NP_CAT(a, b) NP_CAT_(a, b)
#define NP_SWAP NP_CAT(NP_NAME, _swap)
#define NP_HEAP NP_CAT(NP_NAME, _heap)
#define NP_SIFT NP_CAT(NP_NAME, _sift)

static void NP_SWAP(NP_IDX *a, NP_IDX *b)
{
    NP_IDX t = *a;
    *a = *b;
    *b = t;
}

/* Heapsort of a0[0..n), numpy's fallback, counted from 1 as numpy counts
 * (A(i) is a0[i - 1]): sift moves A(i) down the heap of the first n. */
#define A(i) a0[(i) - 1]
static void NP_SIFT(const NP_KEY *v, NP_IDX *a0, size_t i, size_t n)
{
    NP_IDX t = A(i);
    size_t j = 2 * i;
    while (j <= n) {
        if (j < n && NP_LT(v[A(j)], v[A(j + 1)]))
            j++;
        if (!NP_LT(v[t], v[A(j)]))
            break;
        A(i) = A(j);
        i = j;
        j += j;
    }
    A(i) = t;
}

static void NP_HEAP(const NP_KEY *v, NP_IDX *a0, size_t n)
{
    for (size_t l = n / 2; l > 0; l--)
        NP_SIFT(v, a0, l, n);
    while (n > 1) {
        NP_IDX t = A(n);
        A(n) = A(1);
        n--;
        A(1) = t;
        NP_SIFT(v, a0, 1, n);
    }
}
#undef A

#ifdef NP_STATIC
static
#endif
void NP_NAME(const NP_KEY *v, NP_IDX *idx, size_t n)
{
    /* parts of at most 16 go to insertion sort; the stack holds twice the
     * bits of a size_t (the larger part is pushed) */
    enum { SMALL = 15, STACK = 128 };
    if (n < 2)
        return;
    NP_IDX *stack_lo[STACK], *stack_hi[STACK];
    int depth_of[STACK];
    size_t sp = 0;
    int depth = 0;
    for (size_t m = n; m >>= 1;)
        depth++;
    depth *= 2;
    NP_IDX *pl = idx, *pr = idx + n - 1;
    for (;;) {
        if (depth < 0) {
            NP_HEAP(v, pl, (size_t)(pr - pl) + 1);
        } else {
            while (pr - pl > SMALL) {
                NP_IDX *pm = pl + ((pr - pl) >> 1);
                if (NP_LT(v[*pm], v[*pl]))
                    NP_SWAP(pm, pl);
                if (NP_LT(v[*pr], v[*pm]))
                    NP_SWAP(pr, pm);
                if (NP_LT(v[*pm], v[*pl]))
                    NP_SWAP(pm, pl);
                NP_KEY piv = v[*pm];
                NP_IDX *pi = pl, *pj = pr - 1;
                NP_SWAP(pm, pj);
                for (;;) {
                    do
                        pi++;
                    while (NP_LT(v[*pi], piv));
                    do
                        pj--;
                    while (NP_LT(piv, v[*pj]));
                    if (pi >= pj)
                        break;
                    NP_SWAP(pi, pj);
                }
                NP_SWAP(pi, pr - 1);
                if (pi - pl < pr - pi) {
                    stack_lo[sp] = pi + 1;
                    stack_hi[sp] = pr;
                    pr = pi - 1;
                } else {
                    stack_lo[sp] = pl;
                    stack_hi[sp] = pi - 1;
                    pl = pi + 1;
                }
                depth_of[sp++] = --depth;
            }
            for (NP_IDX *pi = pl + 1; pi <= pr; pi++) {
                NP_IDX x = *pi;
                NP_IDX *pj = pi;
                while (pj > pl && NP_LT(v[x], v[*(pj - 1)])) {
                    *pj = *(pj - 1);
                    pj--;
                }
                *pj = x;
            }
        }
        if (sp == 0)
            break;
        sp--;
        pl = stack_lo[sp];
        pr = stack_hi[sp];
        depth = depth_of[sp];
    }
}

#undef NP_SWAP
#undef NP_HEAP
#undef NP_SIFT
#undef NP_CAT
#undef NP_CAT_
