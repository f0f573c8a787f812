/* nsys_strings.c - the names of an Nsight Systems export (see nsys.h).
 *
 * Names are ids into StringIds.  Each id is looked up once (a prepared
 * primary-key query, l->str_st) and kept in a table (load/idnames.h), made valid
 * UTF-8 then: a window holds millions of kernels but a few hundred names,
 * and a JOIN would repeat the lookup for every row.  The rows then hand
 * over the same address for the same name, which the sink's tables
 * remember (base/strtab.h).  A column holding text instead of an id (older
 * exports) is read as text, and checked for each row.
 */
#include <stdint.h>
#include <stdlib.h>

#include "load/nsys_int.h"

/* The string of StringIds id (NULL when there is none). */
static bool string_id(struct ld *l, int64_t id, const char **out, struct tf_diag *d)
{
    *out = NULL;
    if (!l->str_st)
        return true;
    struct tf_idname *slot = tf_idnames_slot(&l->names, id);
    if (!slot)
        return tf_diag_oom(d, l->file);
    if (slot->used) {
        *out = slot->s;
        return true;
    }
    sq.sqlite3_reset(l->str_st);
    sq.sqlite3_bind_int64(l->str_st, 1, id);
    bool row;
    if (!tf_nsys_step(l, l->str_st, &row, "StringIds", d))
        return false;
    const char *s = NULL;
    if (row && sq.sqlite3_column_type(l->str_st, 0) != SQLITE_NULL) {
        /* kept valid UTF-8: rows need not check it each time */
        const char *c =
            tf_nsys_clean(&l->tmp, (const char *)sq.sqlite3_column_text(l->str_st, 0));
        s = c ? tf_arena_strdup(&l->arena, c) : NULL;
        if (!s)
            return tf_diag_oom(d, l->file);
    }
    tf_idnames_keep(&l->names, slot, id, s);
    *out = s;
    return true;
}

/* A name column: text as it is (*raw set: not checked as UTF-8 yet), an
 * integer through StringIds (made valid UTF-8 once). */
bool tf_nsys_name_col(struct ld *l, sqlite3_stmt *st, int col, const char **out, bool *raw,
                     struct tf_diag *d)
{
    switch (sq.sqlite3_column_type(st, col)) {
    case SQLITE_NULL:
        *out = NULL;
        return true;
    case SQLITE_INTEGER:
        return string_id(l, sq.sqlite3_column_int64(st, col), out, d);
    default:
        *out = (const char *)sq.sqlite3_column_text(st, col);
        *raw = true;
        return true;
    }
}

