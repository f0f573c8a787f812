/* xplane_state.c - the services of an XPlane read's state that both of
 * its parts use (xplane_int.h): the one damage message, the string table,
 * metadata by id.  Below xplane.c (the walk) and xplane_emit.c (names,
 * lanes, events), so the two call down to it and not each other.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/nsys_rows.h"
#include "load/xplane_int.h"

/* --- messages ---------------------------------------------------------------------- */

bool xp_bad(struct xp *x, uint64_t at, const char *what)
{
    if (tf_diag_failed(x->d))
        return false; /* a read error, reported by the input */
    return tf_diag_error(x->d, TF_EBADINPUT, "%s: byte %llu: damaged XPlane: %s%s", x->file,
                         (unsigned long long)at, what,
                         x->mangled ? " (the file went through a UTF-8 text conversion: the "
                                      "bytes ef bf bd stand in place of its high bytes; use "
                                      "the original binary file)"
                                    : "");
}

/* --- strings and metadata ---------------------------------------------------------- */

uint32_t xp_str(struct xp *x, const uint8_t *s, size_t n)
{
    if (!n || !s)
        return 0;
    tf_buf_clear(&x->tmp);
    tf_buf_putn(&x->tmp, (const char *)s, n);
    const char *c = tf_nsys_clean(&x->tmp2, x->tmp.data ? x->tmp.data : "");
    uint32_t id = 0;
    if (!c || x->tmp.oom || !tf_strtab_id(&x->strs, c, &id))
        return 0;
    return id;
}

const char *xp_s(const struct xp *x, uint32_t id)
{
    return tf_strtab_str(&x->strs, id);
}

const struct xp_meta *xp_meta_of(const struct xp *x, const struct xp_meta *v, size_t n,
                                 int64_t id)
{
    (void)x;
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].id == id)
            return &v[mid];
        if (v[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}
