/* strtab.h - a table of distinct strings: each string once, named by a
 * small number, for the names and categories of the events a figure keeps
 * (a trace repeats a few thousand names millions of times).  A loader
 * often hands over the same string at the same address row after row (an
 * export's string table, a literal category): the last id found for an
 * address is tried first, its bytes compared, before any hashing.
 */
#ifndef TF_STRTAB_H
#define TF_STRTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

#define TF_STRTAB_MEMO 64 /* addresses remembered (a power of 2) */

struct tf_strtab {
    struct tf_arena arena;
    const char **strs; /* by id */
    uint32_t *hashes;
    size_t n, cap, cap_hashes;
    uint32_t *slots; /* id + 1, 0 empty */
    size_t n_slots;
    /* TF_STRTAB_MEMO entries, made at the first lookup (a table made and
     * never used, of which a figure of thousands of traces holds many,
     * costs no more than its struct) */
    struct tf_strtab_memo {
        uintptr_t addr; /* of a string looked up (never read through) */
        uint32_t id;    /* the id it had then */
    } *memo;
};

void tf_strtab_init(struct tf_strtab *t);
void tf_strtab_fini(struct tf_strtab *t);
/* The id of s (added when new); false when out of memory. */
bool tf_strtab_id(struct tf_strtab *t, const char *s, uint32_t *id);
static inline const char *tf_strtab_str(const struct tf_strtab *t, uint32_t id)
{
    return t->strs[id];
}

#endif
