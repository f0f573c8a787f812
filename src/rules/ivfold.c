/* ivfold.c - the folded past of several interval sets; see ivfold.h.
 *
 * A cut lists both ends of every interval before `at` (the one across it
 * cut there), sorts them, and sweeps: between two consecutive times the
 * sorted list of sets then busy is looked up (open addressing on its
 * FNV-1a hash) and the stretch added to its time.  A cut costs
 * O(p log p) in the p intervals it folds; the combinations live as long
 * as the fold.
 */
#include "rules/ivfold.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/hash.h"

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

bool tf_ivset_take_below(struct tf_ivset *s, int64_t at, struct tf_ivset *out)
{
    tf_ivset_clear(out);
    size_t k = 0;
    while (k < s->n && s->v[k].hi <= at)
        k++;
    bool across = k < s->n && s->v[k].lo < at;
    for (size_t i = 0; i < k; i++)
        if (!tf_ivset_add(out, s->v[i].lo, s->v[i].hi))
            return false;
    if (across && !tf_ivset_add(out, s->v[k].lo, at))
        return false;
    if (across)
        s->v[k].lo = at;
    memmove(s->v, s->v + k, (s->n - k) * sizeof *s->v);
    s->n -= k;
    return true;
}

/* One end of a folded interval: set `id` busy from t (start) or no
 * longer (end). */
struct end {
    int64_t t;
    uint32_t id;
    bool start;
};

static int by_time(const void *x, const void *y)
{
    const struct end *a = x, *b = y;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

static uint32_t hash_ids(const uint32_t *ids, size_t n)
{
    return tf_fnv1a(ids, n * sizeof *ids);
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

static bool sweep(struct tf_ivfold *f, struct end *e, size_t n_e, uint32_t *busy)
{
    qsort(e, n_e, sizeof *e, by_time);
    size_t n_busy = 0;
    for (size_t i = 0; i < n_e;) {
        int64_t t = e[i].t;
        for (; i < n_e && e[i].t == t; i++)
            toggle(busy, &n_busy, e[i].id, e[i].start);
        if (i < n_e && n_busy && !add_time(f, busy, n_busy, e[i].t - t))
            return false;
    }
    return true;
}

bool tf_ivfold_cut(struct tf_ivfold *f, struct tf_ivset *const *sets, size_t n, int64_t at)
{
    size_t n_e = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; sets[i] && k < sets[i]->n && sets[i]->v[k].lo < at; k++)
            n_e += 2;
    struct end *e = malloc((n_e ? n_e : 1) * sizeof *e);
    uint32_t *busy = malloc((n ? n : 1) * sizeof *busy);
    bool ok = e && busy;
    size_t m = 0;
    for (size_t i = 0; ok && i < n; i++) {
        if (!sets[i])
            continue;
        for (size_t k = 0; k < sets[i]->n && sets[i]->v[k].lo < at; k++) {
            int64_t hi = sets[i]->v[k].hi < at ? sets[i]->v[k].hi : at;
            e[m++] = (struct end){sets[i]->v[k].lo, (uint32_t)i, true};
            e[m++] = (struct end){hi, (uint32_t)i, false};
        }
    }
    ok = ok && sweep(f, e, m, busy);
    for (size_t i = 0; ok && i < n; i++) {
        struct tf_ivset *s = sets[i];
        if (!s)
            continue;
        size_t k = 0;
        while (k < s->n && s->v[k].hi <= at)
            k++;
        if (k < s->n && s->v[k].lo < at)
            s->v[k].lo = at;
        memmove(s->v, s->v + k, (s->n - k) * sizeof *s->v);
        s->n -= k;
    }
    if (ok && at > f->upto)
        f->upto = at;
    f->any = f->any || ok;
    free(e);
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
    out->upto = in->upto;
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
