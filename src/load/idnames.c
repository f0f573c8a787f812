/* idnames.c - names by id; see idnames.h. */
#include "load/idnames.h"

#include <stdlib.h>

static size_t home(int64_t id, size_t cap)
{
    return (size_t)((uint64_t)id * 0x9E3779B97F4A7C15ULL >> 20) & (cap - 1);
}

void tf_idnames_init(struct tf_idnames *t)
{
    t->v = NULL;
    t->n = t->cap = 0;
}

void tf_idnames_fini(struct tf_idnames *t)
{
    free(t->v);
    tf_idnames_init(t);
}

static bool grow(struct tf_idnames *t)
{
    size_t cap = t->cap ? t->cap * 2 : 1024;
    struct tf_idname *v = calloc(cap, sizeof *v);
    if (!v)
        return false;
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->v[i].used)
            continue;
        size_t k = home(t->v[i].id, cap);
        while (v[k].used)
            k = (k + 1) & (cap - 1);
        v[k] = t->v[i];
    }
    free(t->v);
    t->v = v;
    t->cap = cap;
    return true;
}

struct tf_idname *tf_idnames_slot(struct tf_idnames *t, int64_t id)
{
    if ((t->n + 1) * 2 > t->cap && !grow(t))
        return NULL;
    size_t k = home(id, t->cap);
    while (t->v[k].used && t->v[k].id != id)
        k = (k + 1) & (t->cap - 1);
    return &t->v[k];
}

void tf_idnames_keep(struct tf_idnames *t, struct tf_idname *slot, int64_t id, const char *s)
{
    *slot = (struct tf_idname){id, s, true};
    t->n++;
}
