/* strtab.c - see strtab.h: open addressing on tf_hash_words, table at
 * most half full; ids count up in the order strings first come.  The memo
 * is direct-mapped by address and only ever a shortcut: a hit is checked
 * byte for byte, so an address reused for other bytes finds the right id. */
#include "base/strtab.h"

#include <stdlib.h>
#include <string.h>

#include "base/hash.h"

void tf_strtab_init(struct tf_strtab *t)
{
    memset(t, 0, sizeof *t);
    tf_arena_init(&t->arena);
}

void tf_strtab_fini(struct tf_strtab *t)
{
    tf_arena_fini(&t->arena);
    free(t->memo);
    free(t->strs);
    free(t->hashes);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

static bool resize(struct tf_strtab *t, size_t n_slots)
{
    uint32_t *slots = calloc(n_slots, sizeof *slots);
    if (!slots)
        return false;
    for (size_t i = 0; i < t->n; i++) {
        size_t s = t->hashes[i] & (n_slots - 1);
        while (slots[s])
            s = (s + 1) & (n_slots - 1);
        slots[s] = (uint32_t)i + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->n_slots = n_slots;
    return true;
}

/* The id of s by its hash (added when new). */
static bool lookup(struct tf_strtab *t, const char *s, uint32_t *id)
{
    uint32_t h = tf_hash_words(s, strlen(s));
    if (t->n_slots) {
        for (size_t k = h & (t->n_slots - 1); t->slots[k]; k = (k + 1) & (t->n_slots - 1)) {
            uint32_t i = t->slots[k] - 1;
            if (t->hashes[i] == h && strcmp(t->strs[i], s) == 0) {
                *id = i;
                return true;
            }
        }
    }
    if (t->n >= UINT32_MAX - 1)
        return false;
    if ((t->n + 1) * 2 > t->n_slots && !resize(t, t->n_slots ? t->n_slots * 2 : 256))
        return false;
    if (!TF_GROW(t->strs, t->n, t->cap) || !TF_GROW(t->hashes, t->n, t->cap_hashes))
        return false;
    const char *c = tf_arena_strdup(&t->arena, s);
    if (!c)
        return false;
    t->strs[t->n] = c;
    t->hashes[t->n] = h;
    size_t k = h & (t->n_slots - 1);
    while (t->slots[k])
        k = (k + 1) & (t->n_slots - 1);
    t->slots[k] = (uint32_t)t->n + 1;
    *id = (uint32_t)t->n++;
    return true;
}

bool tf_strtab_id(struct tf_strtab *t, const char *s, uint32_t *id)
{
    uintptr_t a = (uintptr_t)s;
    if (!t->memo && !(t->memo = calloc(TF_STRTAB_MEMO, sizeof *t->memo)))
        return false;
    struct tf_strtab_memo *m = &t->memo[tf_addr_slot(s, TF_STRTAB_MEMO)];
    /* the same address with the same bytes: the same string */
    if (m->addr == a && m->id < t->n && strcmp(t->strs[m->id], s) == 0) {
        *id = m->id;
        return true;
    }
    if (!lookup(t, s, id))
        return false;
    m->addr = a;
    m->id = *id;
    return true;
}
