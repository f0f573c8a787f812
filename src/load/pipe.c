/* pipe.c - the scanner on a thread of its own (pipe.h).
 *
 * A ring of N_BATCHES batches.  The producer fills the batch at `put`
 * (element bytes one after another in an arena, a record per element, the
 * members that are present packed after it) and publishes it full; the
 * consumer reads the batch at `get` and gives it back empty.  One mutex and
 * one condition variable guard the batches' states and the flags; the
 * batches' contents belong to whichever side holds them, so they need no
 * lock.  A batch is handed over when its arena or its records are full, or
 * at the end (`last`, with the producer's result).
 */
#include "load/pipe.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
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

enum batch_state { FREE, FILLING, FULL, READING };

struct batch {
    enum batch_state state;
    unsigned char *bytes;
    size_t n_bytes, cap_bytes;
    struct elem *elems;
    size_t n_elems;
    struct member *members;
    size_t n_members;
    bool last; /* the producer's end: no batch after this one */
};

struct tf_pipe {
    struct tf_scan *scan;
    size_t nf;
    tf_pipe_produce produce;
    void *ctx;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct batch b[N_BATCHES];
    size_t put, get; /* the producer's batch, the consumer's */
    bool holding;    /* the consumer is reading b[get] */
    size_t read;     /* its next element there */
    /* the members the consumer's fields hold now (tf_pipe_get) */
    uint8_t set[TF_SCAN_MAX_FIELDS];
    size_t n_set;
    bool stop;       /* the consumer left early */
    bool result;     /* the producer's, once `last` is published */
    bool ended;      /* the consumer has seen the last batch */
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

/* Publishes the producer's batch and waits for the next one to be free;
 * false when the consumer has stopped. */
static bool hand_over(struct tf_pipe *p, bool last)
{
    pthread_mutex_lock(&p->mu);
    struct batch *b = &p->b[p->put];
    b->last = last;
    b->state = FULL;
    pthread_cond_broadcast(&p->cv);
    bool go = !last;
    if (go) {
        p->put = (p->put + 1) % N_BATCHES;
        while (p->b[p->put].state != FREE && !p->stop)
            pthread_cond_wait(&p->cv, &p->mu);
        go = !p->stop;
        if (go) {
            struct batch *n = &p->b[p->put];
            n->state = FILLING;
            n->n_bytes = n->n_elems = n->n_members = 0;
        }
    }
    pthread_mutex_unlock(&p->mu);
    return go;
}

/* Room for an element of len bytes in the producer's batch (handing it
 * over first when full); false when the consumer stopped or no memory. */
static bool make_room(struct tf_pipe *p, size_t len, bool *oom)
{
    struct batch *b = &p->b[p->put];
    if (b->n_elems == BATCH_ELEMS || (b->n_elems && b->n_bytes + len > b->cap_bytes)) {
        if (!hand_over(p, false))
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
    struct member *m = b->members + b->n_members;
    for (size_t i = 0; i < p->nf; i++)
        if (f[i].type != TF_JT_NONE)
            *m++ = (struct member){(uint8_t)i, (uint8_t)f[i].type, f[i].escaped, f[i].is_int,
                                   (uint32_t)f[i].off, (uint32_t)f[i].len};
    e->n = (size_t)(m - b->members) - e->first;
    b->n_members += e->n;
    return true;
}

static void *run(void *arg)
{
    struct tf_pipe *p = arg;
    bool ok = p->produce(p->ctx, p);
    pthread_mutex_lock(&p->mu);
    p->result = ok;
    bool stopped = p->stop;
    pthread_mutex_unlock(&p->mu);
    if (!stopped)
        hand_over(p, true);
    return NULL;
}

/* Gives the scan (and its input) back the diag it had. */
static void restore_diag(struct tf_pipe *p)
{
    p->scan->d = p->scan_d;
    tf_input_set_diag(p->scan->in, p->input_d);
}

/* Frees the pipe; with `sync`, its mutex and condition too. */
static void pipe_free(struct tf_pipe *p, bool sync)
{
    if (sync) {
        pthread_mutex_destroy(&p->mu);
        pthread_cond_destroy(&p->cv);
    }
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
    if (!ok) {
        pipe_free(p, false);
        return NULL;
    }
    p->scan = s;
    p->nf = nf;
    p->produce = produce;
    p->ctx = ctx;
    p->b[0].state = FILLING;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
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
    struct batch *b = &p->b[p->get];
    while (!p->holding || p->read == b->n_elems) {
        pthread_mutex_lock(&p->mu);
        if (p->holding) {
            /* done with it */
            bool last = b->last;
            b->state = FREE;
            p->holding = false;
            pthread_cond_broadcast(&p->cv);
            if (last) {
                p->ended = true;
                pthread_mutex_unlock(&p->mu);
                return false;
            }
            p->get = (p->get + 1) % N_BATCHES;
            b = &p->b[p->get];
        }
        while (b->state != FULL)
            pthread_cond_wait(&p->cv, &p->mu);
        b->state = READING;
        p->holding = true;
        p->read = 0;
        pthread_mutex_unlock(&p->mu);
    }
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
    if (early) {
        pthread_mutex_lock(&p->mu);
        p->stop = true;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
    pthread_join(p->thread, NULL);
    restore_diag(p);
    bool ok = p->result;
    if (!early && tf_diag_failed(&p->priv))
        tf_diag_error(p->scan->d, p->priv.code, "%s", p->priv.msg);
    pipe_free(p, true);
    return ok;
}
