/* idnames.h - names looked up by an integer id, once each: an SQLite
 * loader's cache of the names its rows refer to (an export's StringIds,
 * load/nsys_strings.c; a rocpd database's kernel symbols,
 * load/rocpd_rows.c), so that a name is read, checked and copied once
 * however many rows name it, and its rows hand over one address.
 *
 * An open-addressing table; the caller owns the names it stores (an
 * arena, as a rule) and frees the table with tf_idnames_fini.
 */
#ifndef TF_LOAD_IDNAMES_H
#define TF_LOAD_IDNAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tf_idname {
    int64_t id;
    const char *s; /* NULL: the id names nothing */
    bool used;
};

struct tf_idnames {
    struct tf_idname *v;
    size_t n, cap;
};

void tf_idnames_init(struct tf_idnames *t);
void tf_idnames_fini(struct tf_idnames *t);

/* The slot of id: used when it was stored, else an empty slot that the
 * caller fills with tf_idnames_keep before the next call; NULL when out
 * of memory. */
struct tf_idname *tf_idnames_slot(struct tf_idnames *t, int64_t id);
void tf_idnames_keep(struct tf_idnames *t, struct tf_idname *slot, int64_t id, const char *s);

#endif
