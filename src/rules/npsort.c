/* npsort.c - numpy's quicksort argsort order (rules/npsort.h), written
 * from the algorithm's description: an introsort over an index array. */
#include "rules/npsort.h"

#define SMALL 15   /* parts of at most SMALL + 1 (16) go to insertion sort */
#define STACK 128  /* twice the bits of a size_t: the larger part is pushed */

static void swap(uint32_t *a, uint32_t *b)
{
    uint32_t t = *a;
    *a = *b;
    *b = t;
}

/* Heapsort of a[1..n] (one-based), numpy's fallback. */
static void heap(const int64_t *v, uint32_t *a, size_t n)
{
    for (size_t l = n / 2; l > 0; l--) {
        uint32_t t = a[l];
        size_t i = l, j = 2 * l;
        while (j <= n) {
            if (j < n && v[a[j]] < v[a[j + 1]])
                j++;
            if (!(v[t] < v[a[j]]))
                break;
            a[i] = a[j];
            i = j;
            j += j;
        }
        a[i] = t;
    }
    while (n > 1) {
        uint32_t t = a[n];
        a[n] = a[1];
        n--;
        size_t i = 1, j = 2;
        while (j <= n) {
            if (j < n && v[a[j]] < v[a[j + 1]])
                j++;
            if (!(v[t] < v[a[j]]))
                break;
            a[i] = a[j];
            i = j;
            j += j;
        }
        a[i] = t;
    }
}

void tf_np_argsort(const int64_t *v, uint32_t *idx, size_t n)
{
    if (n < 2)
        return;
    uint32_t *stack_lo[STACK], *stack_hi[STACK];
    int depth_of[STACK];
    size_t sp = 0;
    int depth = 0;
    for (size_t m = n; m >>= 1;)
        depth++;
    depth *= 2;
    uint32_t *pl = idx, *pr = idx + n - 1;
    for (;;) {
        if (depth < 0) {
            heap(v, pl - 1, (size_t)(pr - pl) + 1);
        } else {
            while (pr - pl > SMALL) {
                uint32_t *pm = pl + ((pr - pl) >> 1);
                if (v[*pm] < v[*pl])
                    swap(pm, pl);
                if (v[*pr] < v[*pm])
                    swap(pr, pm);
                if (v[*pm] < v[*pl])
                    swap(pm, pl);
                int64_t piv = v[*pm];
                uint32_t *pi = pl, *pj = pr - 1;
                swap(pm, pj);
                for (;;) {
                    do
                        pi++;
                    while (v[*pi] < piv);
                    do
                        pj--;
                    while (piv < v[*pj]);
                    if (pi >= pj)
                        break;
                    swap(pi, pj);
                }
                swap(pi, pr - 1);
                /* the larger part waits on the stack */
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
            for (uint32_t *pi = pl + 1; pi <= pr; pi++) {
                uint32_t x = *pi;
                uint32_t *pj = pi;
                while (pj > pl && v[x] < v[*(pj - 1)]) {
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
