/* nsys_pipe.c - rows from the reader to the converter; see nsys_pipe.h.
 *
 * N_BLOCKS blocks of BLOCK_ROWS rows handed over by a ring (base/ring.h):
 * the reader fills a block and publishes it, the converter takes the
 * oldest full block and gives it back.  One lock per block, not per row.
 * The reader stops at the end, at its first failure (the rows before it
 * are still converted, as on one thread) or when the converter fails (it
 * is told to stop, and is joined).
 */
#include "load/nsys_pipe.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/ring.h"

#define N_BLOCKS 4
#define BLOCK_ROWS 1024

struct block {
    struct tf_nsys_row rows[BLOCK_ROWS];
    size_t off[BLOCK_ROWS][2]; /* name and short_name in text, SIZE_MAX: as it is */
    size_t n;
    struct tf_buf text;        /* the copies of the rows' strings */
};

struct pipe {
    struct tf_ring ring;
    struct block *b; /* N_BLOCKS */
    bool ok;         /* the reader ended without failure (read after the join) */
    struct tf_diag d; /* the reader's message */
    const char *file;
    tf_nsys_next_fn next;
    void *next_ctx;
};

/* Copies the strings of row i that die at the reader's next step. */
static void keep_text(struct block *b, size_t i, const struct tf_nsys_row *r)
{
    const char *s[2] = {r->name, r->short_name};
    for (int k = 0; k < 2; k++) {
        b->off[i][k] = SIZE_MAX;
        if (r->clean_names || !s[k])
            continue;
        b->off[i][k] = b->text.len;
        tf_buf_putn(&b->text, s[k], strlen(s[k]) + 1);
    }
}

/* The copies in place, once the block is whole (its text moves no more). */
static void fix_text(struct block *b)
{
    for (size_t i = 0; i < b->n; i++) {
        if (b->off[i][0] != SIZE_MAX)
            b->rows[i].name = b->text.data + b->off[i][0];
        if (b->off[i][1] != SIZE_MAX)
            b->rows[i].short_name = b->text.data + b->off[i][1];
    }
}

/* Fills block b; false at the end or on a failure (*ok false). */
static bool fill(struct pipe *p, struct block *b, bool *ok)
{
    b->n = 0;
    tf_buf_clear(&b->text);
    bool more = true;
    while (more && b->n < BLOCK_ROWS) {
        struct tf_nsys_row *r = &b->rows[b->n];
        bool any;
        *ok = p->next(p->next_ctx, r, &any, &p->d);
        more = *ok && any;
        if (more)
            keep_text(b, b->n++, r);
    }
    if (b->text.oom) {
        b->n = 0;
        *ok = more = tf_diag_oom(&p->d, p->file);
    }
    return more;
}

static void *reader(void *arg)
{
    struct pipe *p = arg;
    bool ok = true, more = true;
    while (more) {
        size_t i = tf_ring_claim(&p->ring);
        if (i == SIZE_MAX)
            break; /* the converter stopped */
        struct block *b = &p->b[i];
        more = fill(p, b, &ok);
        if (b->n > 0)
            tf_ring_publish(&p->ring);
    }
    p->ok = ok;
    tf_ring_close(&p->ring);
    return NULL;
}

/* The converter's side: the full blocks in order, until the reader ends. */
static bool convert(struct pipe *p, tf_nsys_take_fn take, void *take_ctx, struct tf_diag *d)
{
    bool ok = true;
    for (size_t i; ok && (i = tf_ring_take(&p->ring)) != SIZE_MAX;) {
        struct block *b = &p->b[i];
        fix_text(b);
        for (size_t k = 0; ok && k < b->n; k++)
            ok = take(take_ctx, &b->rows[k], d);
        tf_ring_release(&p->ring);
    }
    if (!ok)
        tf_ring_stop(&p->ring);
    return ok;
}

static bool run_here(tf_nsys_next_fn next, void *next_ctx, tf_nsys_take_fn take, void *take_ctx,
                     struct tf_diag *d)
{
    for (;;) {
        struct tf_nsys_row r;
        bool any;
        if (!next(next_ctx, &r, &any, d))
            return false;
        if (!any)
            return true;
        if (!take(take_ctx, &r, d))
            return false;
    }
}

bool tf_nsys_pipe_wanted(void)
{
    const char *e = getenv("TRACEFIG_PIPE");
    return e && strcmp(e, "on") == 0;
}

bool tf_nsys_pipe_run(bool threaded, const char *file, tf_nsys_next_fn next, void *next_ctx,
                      tf_nsys_take_fn take, void *take_ctx, struct tf_diag *d)
{
    struct pipe *p = threaded ? calloc(1, sizeof *p) : NULL;
    struct block *b = p ? calloc(N_BLOCKS, sizeof *b) : NULL;
    bool sync = b && tf_ring_init(&p->ring, N_BLOCKS);
    pthread_t th;
    if (sync) {
        p->b = b;
        p->file = file;
        p->next = next;
        p->next_ctx = next_ctx;
        tf_diag_init(&p->d);
        p->d.quiet = true;
        for (size_t i = 0; i < N_BLOCKS; i++)
            tf_buf_init(&b[i].text);
        if (pthread_create(&th, NULL, reader, p) != 0) {
            tf_ring_fini(&p->ring);
            sync = false;
        }
    }
    if (!sync) { /* one thread, then */
        free(b);
        free(p);
        return run_here(next, next_ctx, take, take_ctx, d);
    }
    bool ok = convert(p, take, take_ctx, d);
    pthread_join(th, NULL);
    if (ok && !p->ok)
        ok = tf_diag_error(d, p->d.code, "%s", p->d.msg);
    for (size_t i = 0; i < N_BLOCKS; i++)
        tf_buf_fini(&b[i].text);
    tf_ring_fini(&p->ring);
    free(b);
    free(p);
    return ok;
}
