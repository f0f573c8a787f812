/* ivfold.c - the folded past of several interval sets; see ivfold.h.
 *
 * A cut sweeps the ends of every interval before `at` (the one across it
 * cut there) in time order, merging the sets' sorted prefixes through a
 * heap; between two consecutive times the sorted list of sets then busy
 * is looked up (open addressing on its FNV-1a hash) and the stretch added
 * to its time.  A cut costs O(p log k) for p intervals of k sets; the
 * combinations live as long as the fold.
 */
#include "rules/ivfold.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

void tf_ivfold_init(struct tf_ivfold *f)
{
    memset(f, 0, sizeof *f);
}

void tf_ivfold_fini(struct tf_ivfold *f)
{
    free(f->combo);
    free(f->ids);
    free(f->slot);
    memset(f, 0, sizeof *f);
}

/* The intervals of s wholly before `at`: s->v[0 .. return). */
static size_t below(const struct tf_ivset *s, int64_t at)
{
    size_t k = 0;
    while (k < s->n && s->v[k].hi <= at)
        k++;
    return k;
}

/* Drops the part of s before `at`, its first k intervals wholly. */
static void drop_below(struct tf_ivset *s, size_t k, int64_t at)
{
    if (k < s->n && s->v[k].lo < at)
        s->v[k].lo = at;
    if (s->n > k)
        memmove(s->v, s->v + k, (s->n - k) * sizeof *s->v);
    s->n -= k;
}

bool tf_ivset_take_below(struct tf_ivset *s, int64_t at, struct tf_ivset *out)
{
    tf_ivset_clear(out);
    size_t k = below(s, at);
    for (size_t i = 0; i < k; i++)
        if (!tf_ivset_add(out, s->v[i].lo, s->v[i].hi))
            return false;
    if (k < s->n && s->v[k].lo < at && !tf_ivset_add(out, s->v[k].lo, at))
        return false;
    drop_below(s, k, at);
    return true;
}

/* A set of ids' slot hash, a word at a time (slots never show). */
static uint32_t hash_ids(const uint32_t *ids, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15u ^ n;
    for (size_t i = 0; i < n; i++)
        h = (h ^ ids[i]) * 0xFF51AFD7ED558CCDu;
    return (uint32_t)(h ^ (h >> 32));
}

static bool same(const struct tf_ivfold *f, const struct tf_ivfold_combo *c, const uint32_t *ids,
                 size_t n)
{
    return c->n == n && memcmp(f->ids + c->off, ids, n * sizeof *ids) == 0;
}

/* Doubles the table and puts every combination back. */
static bool rehash(struct tf_ivfold *f)
{
    size_t n_slot = f->n_slot ? 2 * f->n_slot : 64;
    size_t *slot = calloc(n_slot, sizeof *slot);
    if (!slot)
        return false;
    for (size_t c = 0; c < f->n_combo; c++) {
        size_t i = hash_ids(f->ids + f->combo[c].off, f->combo[c].n) & (n_slot - 1);
        while (slot[i])
            i = (i + 1) & (n_slot - 1);
        slot[i] = c + 1;
    }
    free(f->slot);
    f->slot = slot;
    f->n_slot = n_slot;
    return true;
}

/* Adds ns to the combination ids[0..n) (sorted), made when new. */
static bool add_time(struct tf_ivfold *f, const uint32_t *ids, size_t n, int64_t ns)
{
    if (2 * (f->n_combo + 1) > f->n_slot && !rehash(f))
        return false;
    size_t i = hash_ids(ids, n) & (f->n_slot - 1);
    for (; f->slot[i]; i = (i + 1) & (f->n_slot - 1)) {
        struct tf_ivfold_combo *c = &f->combo[f->slot[i] - 1];
        if (same(f, c, ids, n)) {
            c->ns += ns;
            return true;
        }
    }
    if (!TF_GROW(f->combo, f->n_combo, f->cap_combo))
        return false;
    for (size_t k = 0; k < n; k++) {
        if (!TF_GROW(f->ids, f->n_ids, f->cap_ids))
            return false;
        f->ids[f->n_ids++] = ids[k];
    }
    f->combo[f->n_combo] = (struct tf_ivfold_combo){f->n_ids - n, n, ns};
    f->slot[i] = ++f->n_combo;
    return true;
}

/* The sets busy now, sorted: id joins or leaves. */
static void toggle(uint32_t *busy, size_t *n, uint32_t id, bool start)
{
    size_t lo = 0, hi = *n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (busy[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (start) {
        memmove(busy + lo + 1, busy + lo, (*n - lo) * sizeof *busy);
        busy[lo] = id;
        (*n)++;
    } else if (lo < *n && busy[lo] == id) {
        memmove(busy + lo, busy + lo + 1, (*n - lo - 1) * sizeof *busy);
        (*n)--;
    }
}

/* A set's next end in the sweep: its interval k, the start or the end
 * (cut at the fold's time). */
struct cursor {
    int64_t t;
    uint32_t id;
    size_t k;
    bool start;
};

static bool before(const struct cursor *a, const struct cursor *b)
{
    return a->t != b->t ? a->t < b->t : a->id < b->id;
}

/* The heap of cursors, its least at h[0]: h[i] moved down into place. */
static void sift(struct cursor *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < n && before(&h[l], &h[m]))
            m = l;
        if (l + 1 < n && before(&h[l + 1], &h[m]))
            m = l + 1;
        if (m == i)
            return;
        struct cursor t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

/* The cursor's next end before `at`; false when the set has no more. */
static bool advance(struct tf_ivset *const *sets, struct cursor *c, int64_t at)
{
    const struct tf_ivset *s = sets[c->id];
    if (c->start) {
        c->start = false;
        c->t = s->v[c->k].hi < at ? s->v[c->k].hi : at;
        return true;
    }
    if (++c->k >= s->n || s->v[c->k].lo >= at)
        return false;
    c->start = true;
    c->t = s->v[c->k].lo;
    return true;
}

/* Sweeps the sets' prefixes before `at` in time order, merging them (each
 * is sorted already): a heap of one cursor per set, O(p log sets). */
static bool sweep(struct tf_ivfold *f, struct tf_ivset *const *sets, size_t n, int64_t at,
                  struct cursor *h, uint32_t *busy)
{
    size_t n_h = 0, n_busy = 0;
    for (size_t i = 0; i < n; i++)
        if (sets[i] && sets[i]->n && sets[i]->v[0].lo < at)
            h[n_h++] = (struct cursor){sets[i]->v[0].lo, (uint32_t)i, 0, true};
    for (size_t i = n_h; i-- > 0;)
        sift(h, n_h, i);
    while (n_h) {
        int64_t t = h[0].t;
        while (n_h && h[0].t == t) {
            toggle(busy, &n_busy, h[0].id, h[0].start);
            if (!advance(sets, &h[0], at))
                h[0] = h[--n_h];
            sift(h, n_h, 0);
        }
        if (n_h && n_busy && !add_time(f, busy, n_busy, h[0].t - t))
            return false;
    }
    return true;
}

bool tf_ivfold_cut(struct tf_ivfold *f, struct tf_ivset *const *sets, size_t n, int64_t at)
{
    struct cursor *h = malloc((n ? n : 1) * sizeof *h);
    uint32_t *busy = malloc((n ? n : 1) * sizeof *busy);
    bool ok = h && busy && sweep(f, sets, n, at, h, busy);
    for (size_t i = 0; ok && i < n; i++)
        if (sets[i])
            drop_below(sets[i], below(sets[i], at), at);
    f->any = f->any || ok;
    free(h);
    free(busy);
    return ok;
}

static int by_id(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

bool tf_ivfold_remap(const struct tf_ivfold *in, const uint32_t *map, size_t n_map,
                     struct tf_ivfold *out)
{
    tf_ivfold_init(out);
    out->any = in->any;
    uint32_t *ids = malloc((in->n_ids ? in->n_ids : 1) * sizeof *ids);
    bool ok = ids != NULL;
    for (size_t c = 0; ok && c < in->n_combo; c++) {
        size_t n = 0;
        for (size_t k = 0; k < in->combo[c].n; k++) {
            uint32_t id = in->ids[in->combo[c].off + k];
            if (id < n_map && map[id] != UINT32_MAX)
                ids[n++] = map[id];
        }
        qsort(ids, n, sizeof *ids, by_id);
        ok = n == 0 || add_time(out, ids, n, in->combo[c].ns);
    }
    free(ids);
    return ok;
}

int64_t tf_ivfold_len(const struct tf_ivfold *f, uint32_t id)
{
    int64_t sum = 0;
    for (size_t c = 0; c < f->n_combo; c++) {
        const uint32_t *ids = f->ids + f->combo[c].off;
        for (size_t k = 0; k < f->combo[c].n; k++)
            if (ids[k] == id) {
                sum += f->combo[c].ns;
                break;
            }
    }
    return sum;
}
