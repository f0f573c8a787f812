/* pipe.c - the scanner on a thread of its own (pipe.h).
 *
 * N_BATCHES batches handed over by a ring (base/ring.h).  The producer
 * fills a batch (element bytes one after another in an arena, a record per
 * element, the members that are present packed after it) and publishes it
 * when its arena or its records are full, and at the end (possibly empty),
 * before closing the ring; the consumer reads the batches in order.
 */
#include "load/pipe.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/ring.h"
#include "load/input.h"

enum {
    N_BATCHES = 3,
    BATCH_BYTES = 1 << 20,
    BATCH_ELEMS = 8192,
    /* readable zero bytes after an arena's last element, as the scan's
     * buffer has (nothing reads them today) */
    ARENA_PAD = TF_SCAN_PAD,
};

/* A member that is present: its index among the located ones. */
struct member {
    uint8_t i, type, escaped, is_int;
    uint32_t off, len; /* an element is at most TF_SCAN_MAX_BUFFER bytes */
};

struct elem {
    size_t off, len, idx;
    size_t first, n; /* its members: members[first .. first + n) */
    bool has_mark;
    struct tf_scan_mark mark;
};

struct batch {
    unsigned char *bytes;
    size_t n_bytes, cap_bytes;
    struct elem *elems;
    size_t n_elems;
    struct member *members;
    size_t n_members;
};

struct tf_pipe {
    struct tf_scan *scan;
    size_t nf;
    tf_pipe_produce produce;
    void *ctx;
    pthread_t thread;
    struct tf_ring ring;
    struct batch b[N_BATCHES];
    size_t put; /* the producer's batch, SIZE_MAX before it claims one */
    size_t get; /* the consumer's, SIZE_MAX when it holds none */
    size_t read; /* its next element there */
    /* the members the consumer's fields hold now (tf_pipe_get) */
    uint8_t set[TF_SCAN_MAX_FIELDS];
    size_t n_set;
    bool result; /* the producer's, once the ring is closed */
    bool ended;  /* the consumer has seen the end */
    /* the scan's diags while the producer owns it */
    struct tf_diag priv, *scan_d, *input_d;
};

enum tf_pipe_mode tf_pipe_mode(const struct tf_input *in)
{
    const char *env = getenv("TRACEFIG_PIPE");
    if (env && strcmp(env, "off") == 0)
        return TF_PIPE_OFF;
    if (env && strcmp(env, "on") == 0)
        return TF_PIPE_ON;
    long need = tf_input_is_gzip(in) ? 3 : 2;
    return sysconf(_SC_NPROCESSORS_ONLN) >= need ? TF_PIPE_AUTO : TF_PIPE_OFF;
}

static bool batch_alloc(struct batch *b)
{
    b->cap_bytes = BATCH_BYTES;
    b->bytes = calloc(b->cap_bytes + ARENA_PAD, 1);
    b->elems = malloc(BATCH_ELEMS * sizeof *b->elems);
    b->members = malloc(BATCH_ELEMS * TF_SCAN_MAX_FIELDS * sizeof *b->members);
    return b->bytes && b->elems && b->members;
}

static void batch_free(struct batch *b)
{
    free(b->bytes);
    free(b->elems);
    free(b->members);
}

/* The producer's batch: claimed (emptied) when it has none; false when
 * the consumer has stopped. */
static bool claim(struct tf_pipe *p)
{
    if (p->put != SIZE_MAX)
        return true;
    p->put = tf_ring_claim(&p->ring);
    if (p->put == SIZE_MAX)
        return false;
    struct batch *n = &p->b[p->put];
    n->n_bytes = n->n_elems = n->n_members = 0;
    return true;
}

/* Hands the producer's batch over. */
static void publish(struct tf_pipe *p)
{
    if (p->put == SIZE_MAX)
        return;
    p->put = SIZE_MAX;
    tf_ring_publish(&p->ring);
}

/* Room for an element of len bytes in the producer's batch (handing it
 * over first when full); false when the consumer stopped or no memory. */
static bool make_room(struct tf_pipe *p, size_t len, bool *oom)
{
    if (!claim(p))
        return false;
    struct batch *b = &p->b[p->put];
    if (b->n_elems == BATCH_ELEMS || (b->n_elems && b->n_bytes + len > b->cap_bytes)) {
        publish(p);
        if (!claim(p))
            return false;
        b = &p->b[p->put];
    }
    if (len > b->cap_bytes) {
        /* one element larger than an arena: this batch's grows for it */
        unsigned char *nb = realloc(b->bytes, len + ARENA_PAD);
        if (!nb) {
            *oom = true;
            return false;
        }
        memset(nb + len, 0, ARENA_PAD);
        b->bytes = nb;
        b->cap_bytes = len;
    }
    return true;
}

bool tf_pipe_put(struct tf_pipe *p, const unsigned char *data, size_t len,
                 const struct tf_scan_field *f, size_t idx, const struct tf_scan_mark *mark)
{
    bool oom = false;
    if (!make_room(p, len, &oom)) {
        if (oom)
            tf_diag_oom(p->scan->d, p->scan->file);
        return false;
    }
    struct batch *b = &p->b[p->put];
    struct elem *e = &b->elems[b->n_elems++];
    e->off = b->n_bytes;
    e->len = len;
    e->idx = idx;
    e->first = b->n_members;
    e->has_mark = mark != NULL;
    if (mark)
        e->mark = *mark;
    memcpy(b->bytes + b->n_bytes, data, len);
    b->n_bytes += len;
    /* Every member written, the present ones kept: no branch to guess per
     * member (the records have room for nf members an element). */
    struct member *m = b->members + b->n_members;
    for (size_t i = 0; i < p->nf; i++) {
        *m = (struct member){(uint8_t)i, (uint8_t)f[i].type, f[i].escaped, f[i].is_int,
                             (uint32_t)f[i].off, (uint32_t)f[i].len};
        m += f[i].type != TF_JT_NONE;
    }
    e->n = (size_t)(m - b->members) - e->first;
    b->n_members += e->n;
    return true;
}

static void *run(void *arg)
{
    struct tf_pipe *p = arg;
    p->result = p->produce(p->ctx, p);
    publish(p);
    tf_ring_close(&p->ring);
    return NULL;
}

/* Gives the scan (and its input) back the diag it had. */
static void restore_diag(struct tf_pipe *p)
{
    p->scan->d = p->scan_d;
    tf_input_set_diag(p->scan->in, p->input_d);
}

/* Frees the pipe; with `sync`, its ring too. */
static void pipe_free(struct tf_pipe *p, bool sync)
{
    if (sync)
        tf_ring_fini(&p->ring);
    for (size_t i = 0; i < N_BATCHES; i++)
        batch_free(&p->b[i]);
    free(p);
}

struct tf_pipe *tf_pipe_start(struct tf_scan *s, size_t nf, tf_pipe_produce produce,
                              void *ctx)
{
    struct tf_pipe *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    bool ok = nf <= TF_SCAN_MAX_FIELDS;
    for (size_t i = 0; ok && i < N_BATCHES; i++)
        ok = batch_alloc(&p->b[i]);
    if (!ok || !tf_ring_init(&p->ring, N_BATCHES)) {
        pipe_free(p, false);
        return NULL;
    }
    p->scan = s;
    p->nf = nf;
    p->produce = produce;
    p->ctx = ctx;
    p->put = p->get = SIZE_MAX;
    tf_diag_init(&p->priv);
    p->priv.quiet = s->d->quiet;
    p->scan_d = s->d;
    s->d = &p->priv;
    p->input_d = tf_input_set_diag(s->in, &p->priv);
    if (pthread_create(&p->thread, NULL, run, p) != 0) {
        restore_diag(p);
        pipe_free(p, true);
        return NULL;
    }
    return p;
}

bool tf_pipe_get(struct tf_pipe *p, struct tf_pipe_elem *e, struct tf_scan_field *f)
{
    if (p->ended)
        return false;
    while (p->get == SIZE_MAX || p->read == p->b[p->get].n_elems) {
        if (p->get != SIZE_MAX)
            tf_ring_release(&p->ring); /* done with it */
        p->get = tf_ring_take(&p->ring);
        p->read = 0;
        if (p->get == SIZE_MAX) {
            p->ended = true;
            return false;
        }
    }
    struct batch *b = &p->b[p->get];
    const struct elem *el = &b->elems[p->read++];
    if (p->read + 2 < b->n_elems) {
        /* the element after next comes from the other core's cache */
        const struct elem *ahead = el + 2;
        __builtin_prefetch(b->bytes + ahead->off);
        __builtin_prefetch(b->bytes + ahead->off + 64);
        __builtin_prefetch(b->bytes + ahead->off + 128);
        __builtin_prefetch(&b->members[ahead->first]);
        __builtin_prefetch(ahead + 2);
    }
    e->data = b->bytes + el->off;
    e->len = el->len;
    e->idx = el->idx;
    e->has_mark = el->has_mark;
    if (el->has_mark)
        e->mark = el->mark;
    /* the members absent from the last element are still absent */
    for (size_t k = 0; k < p->n_set; k++) {
        struct tf_scan_field *t = &f[p->set[k]];
        t->type = TF_JT_NONE;
        t->off = t->len = 0;
        t->escaped = t->is_int = false;
    }
    p->n_set = el->n;
    for (size_t k = el->first; k < el->first + el->n; k++) {
        p->set[k - el->first] = b->members[k].i;
        const struct member *m = &b->members[k];
        struct tf_scan_field *t = &f[m->i];
        t->type = (enum tf_jtok)m->type;
        t->escaped = m->escaped;
        t->is_int = m->is_int;
        t->off = m->off;
        t->len = m->len;
    }
    return true;
}

bool tf_pipe_finish(struct tf_pipe *p, bool early)
{
    if (early)
        tf_ring_stop(&p->ring);
    pthread_join(p->thread, NULL);
    restore_diag(p);
    bool ok = p->result;
    if (!early && tf_diag_failed(&p->priv))
        tf_diag_error(p->scan->d, p->priv.code, "%s", p->priv.msg);
    pipe_free(p, true);
    return ok;
}
