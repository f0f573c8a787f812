/* buf.h - growable memory: a byte buffer, an array-growth macro, and an
 * arena for strings that live as long as their owner.
 *
 * Every growing array in tracefig grows through TF_GROW, and every string
 * a model owns lives in a struct tf_arena, so there is one allocation path
 * and one way to run out of memory: the call that fails returns false (or
 * NULL, or sets `oom`), leaves what it had intact, and the caller reports
 * it with tf_diag_oom() (exit status TF_ENOMEM).
 */
#ifndef TF_BUF_H
#define TF_BUF_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"

/* --- arrays -----------------------------------------------------------------
 * TF_GROW(arr, n, cap) makes room for item n (0-based) of the array `arr`
 * (any object pointer, NULL when empty) whose capacity is `cap` items
 * (a size_t lvalue): nothing when n < cap, else the capacity doubles (at
 * least 8).  It evaluates to false when out of memory or on overflow, and
 * then leaves arr and cap unchanged.  The arguments are evaluated more than
 * once: pass plain lvalues and side-effect-free expressions.
 *
 *     if (!TF_GROW(t->events, t->n_events, t->cap_events))
 *         return tf_diag_oom(d, file);
 *     t->events[t->n_events++] = *e;
 */
#define TF_GROW(arr, n, cap)                                                                   \
    ((void)sizeof(char[sizeof(arr) == sizeof(void *) ? 1 : -1]),                               \
     (size_t)(n) < (cap) || tf_grow_array(&(arr), &(cap), (n), sizeof *(arr)))

/* The function behind TF_GROW: `arrp` is the address of the array's
 * pointer (read and written as a void *). */
bool tf_grow_array(void *arrp, size_t *cap, size_t n, size_t size);

/* --- bytes ------------------------------------------------------------------
 * A growable buffer of bytes, always NUL-terminated.  On allocation failure
 * it sets oom and ignores later writes; check it once at the end. */
struct tf_buf {
    char *data;
    size_t len;
    size_t cap;
    bool oom;
};

void tf_buf_init(struct tf_buf *b);
void tf_buf_fini(struct tf_buf *b); /* frees data */
void tf_buf_clear(struct tf_buf *b);
void tf_buf_putc(struct tf_buf *b, char c);
void tf_buf_puts(struct tf_buf *b, const char *s);
void tf_buf_putn(struct tf_buf *b, const char *s, size_t n);
/* v in decimal, as "%llu" prints it (no printf). */
void tf_buf_uint(struct tf_buf *b, unsigned long long v);
/* printf-style, for integers and strings only: never pass a double (use
 * tf_buf_num, which is locale-free). */
void tf_buf_printf(struct tf_buf *b, const char *fmt, ...) TF_PRINTF(2, 3);

/* --- strings that live with their owner --------------------------------------
 * An arena hands out memory that is freed all at once by tf_arena_fini;
 * blocks never move, so pointers into it stay valid.  A failed allocation
 * returns NULL and sets oom. */
struct tf_arena_block;

struct tf_arena {
    struct tf_arena_block *head;
    bool oom;
};

void tf_arena_init(struct tf_arena *a);
void tf_arena_fini(struct tf_arena *a);
/* n bytes aligned for any object. */
void *tf_arena_alloc(struct tf_arena *a, size_t n);
/* A copy of s (NULL stays NULL; NULL is also returned when out of memory). */
char *tf_arena_strdup(struct tf_arena *a, const char *s);
/* A NUL-ended copy of s[0 .. n). */
char *tf_arena_strndup(struct tf_arena *a, const char *s, size_t n);
/* A copy of the bytes of b (b->oom counts as out of memory). */
char *tf_arena_buf(struct tf_arena *a, const struct tf_buf *b);

#endif
