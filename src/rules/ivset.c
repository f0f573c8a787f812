/* ivset.c - sets of disjoint intervals in integer ticks; see ivset.h.
 *
 * Every set operation works on normalized sets (sorted, disjoint, no two
 * touching), so a union is a merge, an intersection a two-pointer sweep,
 * and a length a sum of integers: exact, whatever the order the slices
 * came in.  Normalizing sorts (O(n log n)) only when the intervals are not
 * already in order, which is the common case of slices added in time
 * order.
 */
#include "rules/ivset.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

void tf_ivset_init(struct tf_ivset *s)
{
    memset(s, 0, sizeof *s);
}

void tf_ivset_fini(struct tf_ivset *s)
{
    free(s->v);
    memset(s, 0, sizeof *s);
}

void tf_ivset_clear(struct tf_ivset *s)
{
    s->n = 0;
}

bool tf_ivset_add(struct tf_ivset *s, int64_t lo, int64_t hi)
{
    if (hi <= lo)
        return true;
    if (!TF_GROW(s->v, s->n, s->cap))
        return false;
    s->v[s->n++] = (struct tf_ival){lo, hi};
    return true;
}

static int cmp_ival(const void *a, const void *b)
{
    const struct tf_ival *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    return (x->hi > y->hi) - (x->hi < y->hi);
}

void tf_ivset_normalize(struct tf_ivset *s)
{
    /* A set normalized before and added to since is a sorted run and a
     * tail: sort the tail alone and merge the two (linear), so that
     * normalizing a growing set now and then costs little more than
     * adding to it. */
    size_t p = 1;
    while (p < s->n && s->v[p - 1].lo <= s->v[p].lo)
        p++;
    if (p < s->n) {
        qsort(s->v + p, s->n - p, sizeof *s->v, cmp_ival);
        struct tf_ival *m = malloc(s->n * sizeof *m);
        if (m) {
            size_t i = 0, j = p, o = 0;
            while (i < p || j < s->n)
                m[o++] = j >= s->n || (i < p && s->v[i].lo <= s->v[j].lo) ? s->v[i++] : s->v[j++];
            memcpy(s->v, m, s->n * sizeof *m);
            free(m);
        } else {
            qsort(s->v, s->n, sizeof *s->v, cmp_ival);
        }
    }
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (k > 0 && s->v[i].lo <= s->v[k - 1].hi) {
            if (s->v[i].hi > s->v[k - 1].hi)
                s->v[k - 1].hi = s->v[i].hi;
        } else {
            s->v[k++] = s->v[i];
        }
    }
    s->n = k;
}

int64_t tf_ivset_len(const struct tf_ivset *s)
{
    int64_t sum = 0;
    for (size_t i = 0; i < s->n; i++)
        sum += s->v[i].hi - s->v[i].lo;
    return sum;
}

int64_t tf_ivset_overlap(const struct tf_ivset *a, const struct tf_ivset *b)
{
    int64_t sum = 0;
    size_t i = 0, j = 0;
    while (i < a->n && j < b->n) {
        int64_t lo = a->v[i].lo > b->v[j].lo ? a->v[i].lo : b->v[j].lo;
        int64_t hi = a->v[i].hi < b->v[j].hi ? a->v[i].hi : b->v[j].hi;
        if (hi > lo)
            sum += hi - lo;
        if (a->v[i].hi < b->v[j].hi)
            i++;
        else
            j++;
    }
    return sum;
}

bool tf_ivset_union(const struct tf_ivset *a, const struct tf_ivset *b, struct tf_ivset *out)
{
    tf_ivset_clear(out);
    size_t i = 0, j = 0;
    while (i < a->n || j < b->n) {
        struct tf_ival next;
        if (j >= b->n || (i < a->n && a->v[i].lo <= b->v[j].lo))
            next = a->v[i++];
        else
            next = b->v[j++];
        if (out->n > 0 && next.lo <= out->v[out->n - 1].hi) {
            if (next.hi > out->v[out->n - 1].hi)
                out->v[out->n - 1].hi = next.hi;
        } else if (!tf_ivset_add(out, next.lo, next.hi)) {
            return false;
        }
    }
    return true;
}

void tf_ivset_clip(struct tf_ivset *s, int64_t lo, int64_t hi)
{
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++) {
        struct tf_ival v = s->v[i];
        if (v.lo < lo)
            v.lo = lo;
        if (v.hi > hi)
            v.hi = hi;
        if (v.hi > v.lo)
            s->v[k++] = v;
    }
    s->n = k;
}
