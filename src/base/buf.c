/* buf.c - see buf.h. */
#include "base/buf.h"

#include <stdalign.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool tf_grow_array(void *arrp, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return true;
    size_t c = *cap ? *cap : 8;
    while (c <= n) {
        if (c > SIZE_MAX / 2)
            return false;
        c *= 2;
    }
    if (size == 0 || c > SIZE_MAX / size)
        return false;
    void *old;
    memcpy(&old, arrp, sizeof old);
    void *p = realloc(old, c * size);
    if (!p)
        return false;
    memcpy(arrp, &p, sizeof p);
    *cap = c;
    return true;
}

/* --- bytes ------------------------------------------------------------------ */

void tf_buf_init(struct tf_buf *b)
{
    memset(b, 0, sizeof *b);
}

void tf_buf_fini(struct tf_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

void tf_buf_clear(struct tf_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

static bool buf_reserve(struct tf_buf *b, size_t extra)
{
    if (b->oom)
        return false;
    if (extra < SIZE_MAX - b->len - 1 && b->len + extra + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 256;
    while (extra >= SIZE_MAX - b->len - 1 || cap < b->len + extra + 1) {
        if (cap > SIZE_MAX / 2 || extra >= SIZE_MAX - b->len - 1) {
            b->oom = true;
            return false;
        }
        cap *= 2;
    }
    char *p = realloc(b->data, cap);
    if (!p) {
        b->oom = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void tf_buf_putn(struct tf_buf *b, const char *s, size_t n)
{
    /* Room already (the usual case): no call to grow. */
    if (!b->oom && b->cap > b->len && n < b->cap - b->len) {
        memcpy(b->data + b->len, s, n);
        b->len += n;
        b->data[b->len] = '\0';
        return;
    }
    if (!buf_reserve(b, n))
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void tf_buf_putc(struct tf_buf *b, char c)
{
    if (b->len + 1 < b->cap) {
        b->data[b->len++] = c;
        b->data[b->len] = '\0';
        return;
    }
    tf_buf_putn(b, &c, 1);
}

void tf_buf_puts(struct tf_buf *b, const char *s)
{
    tf_buf_putn(b, s, strlen(s));
}

void tf_buf_uint(struct tf_buf *b, unsigned long long v)
{
    char tmp[24];
    size_t i = sizeof tmp;
    do {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    tf_buf_putn(b, tmp + i, sizeof tmp - i);
}

void tf_buf_printf(struct tf_buf *b, const char *fmt, ...)
{
    /* Straight into the room the buffer has (one pass when it fits), else
     * again once it has grown. */
    if (b->oom)
        return;
    /* A fresh buffer gets its first block now: formatting into no room
     * would take two passes. */
    if (!b->cap && !buf_reserve(b, 0))
        return;
    size_t room = b->cap > b->len ? b->cap - b->len : 0;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(room ? b->data + b->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n >= room) {
        if (!buf_reserve(b, (size_t)n))
            return;
        va_start(ap, fmt);
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    b->len += (size_t)n;
}

/* --- arena ------------------------------------------------------------------- */

struct tf_arena_block {
    struct tf_arena_block *next;
    size_t used, cap;
    alignas(max_align_t) unsigned char data[];
};

/* An arena's first block is small and each next one twice the last, up to
 * ARENA_BLOCK_MIN: thousands of small arenas (a figure of 4096 traces
 * holds four string tables per trace between its passes) stay small. */
enum { ARENA_BLOCK_FIRST = 512, ARENA_BLOCK_MIN = 16384 };

void tf_arena_init(struct tf_arena *a)
{
    memset(a, 0, sizeof *a);
}

void tf_arena_fini(struct tf_arena *a)
{
    struct tf_arena_block *b = a->head;
    while (b) {
        struct tf_arena_block *next = b->next;
        free(b);
        b = next;
    }
    memset(a, 0, sizeof *a);
}

void *tf_arena_alloc(struct tf_arena *a, size_t n)
{
    const size_t align = alignof(max_align_t);
    if (n > SIZE_MAX - align - sizeof(struct tf_arena_block)) {
        a->oom = true;
        return NULL;
    }
    n = (n + align - 1) & ~(align - 1);
    struct tf_arena_block *b = a->head;
    if (!b || b->cap - b->used < n) {
        size_t grow = !b ? ARENA_BLOCK_FIRST : b->cap < ARENA_BLOCK_MIN / 2 ? 2 * b->cap : ARENA_BLOCK_MIN;
        size_t cap = n > grow ? n : grow;
        b = malloc(sizeof *b + cap);
        if (!b) {
            a->oom = true;
            return NULL;
        }
        b->next = a->head;
        b->used = 0;
        b->cap = cap;
        a->head = b;
    }
    void *p = b->data + b->used;
    b->used += n;
    return p;
}

char *tf_arena_strndup(struct tf_arena *a, const char *s, size_t n)
{
    if (!s)
        return NULL;
    if (n == SIZE_MAX) {
        a->oom = true;
        return NULL;
    }
    char *p = tf_arena_alloc(a, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

char *tf_arena_strdup(struct tf_arena *a, const char *s)
{
    return s ? tf_arena_strndup(a, s, strlen(s)) : NULL;
}

char *tf_arena_buf(struct tf_arena *a, const struct tf_buf *b)
{
    if (b->oom) {
        a->oom = true;
        return NULL;
    }
    return tf_arena_strndup(a, b->data ? b->data : "", b->len);
}
