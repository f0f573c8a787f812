/* ring.c - see ring.h.  The slot to fill is the one after the full ones;
 * the slot taken stays counted full until it is released, so the producer
 * never fills it meanwhile. */
#include "base/ring.h"

#include <stdint.h>

bool tf_ring_init(struct tf_ring *r, size_t n)
{
    r->n = n;
    r->head = r->n_full = 0;
    r->closed = r->stopped = false;
    if (pthread_mutex_init(&r->mu, NULL) != 0)
        return false;
    if (pthread_cond_init(&r->cv, NULL) != 0) {
        pthread_mutex_destroy(&r->mu);
        return false;
    }
    return true;
}

void tf_ring_fini(struct tf_ring *r)
{
    pthread_mutex_destroy(&r->mu);
    pthread_cond_destroy(&r->cv);
}

size_t tf_ring_claim(struct tf_ring *r)
{
    pthread_mutex_lock(&r->mu);
    while (r->n_full == r->n && !r->stopped)
        pthread_cond_wait(&r->cv, &r->mu);
    size_t i = r->stopped ? SIZE_MAX : (r->head + r->n_full) % r->n;
    pthread_mutex_unlock(&r->mu);
    return i;
}

void tf_ring_publish(struct tf_ring *r)
{
    pthread_mutex_lock(&r->mu);
    r->n_full++;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
}

void tf_ring_close(struct tf_ring *r)
{
    pthread_mutex_lock(&r->mu);
    r->closed = true;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
}

size_t tf_ring_take(struct tf_ring *r)
{
    pthread_mutex_lock(&r->mu);
    while (r->n_full == 0 && !r->closed)
        pthread_cond_wait(&r->cv, &r->mu);
    size_t i = r->n_full ? r->head : SIZE_MAX;
    pthread_mutex_unlock(&r->mu);
    return i;
}

void tf_ring_release(struct tf_ring *r)
{
    pthread_mutex_lock(&r->mu);
    r->head = (r->head + 1) % r->n;
    r->n_full--;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
}

void tf_ring_stop(struct tf_ring *r)
{
    pthread_mutex_lock(&r->mu);
    r->stopped = true;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
}
