/* ring.h - the slots one producer thread fills and one consumer thread
 * empties, handed over in order under one mutex (a lock per slot, not per
 * item).  The slots themselves are the caller's (an array of n): the ring
 * only says which one each side may touch.  For the loaders' second
 * threads (load/pipe.c, load/nsys_pipe.c).
 *
 * Producer: tf_ring_claim gives the slot to fill (waiting for a free one),
 * tf_ring_publish hands it over, tf_ring_close says no more will come.
 * Consumer: tf_ring_take gives the oldest full slot (waiting for one),
 * tf_ring_release gives it back, tf_ring_stop tells the producer to stop
 * (its claims fail from then on).  What the producer wrote into a slot
 * before publishing it, or before closing, the consumer sees after taking
 * it, or after tf_ring_take says the end.
 */
#ifndef TF_RING_H
#define TF_RING_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

struct tf_ring {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t n;            /* slots */
    size_t head, n_full; /* the oldest full slot; how many are full (the one taken too) */
    bool closed, stopped;
};

/* False when the mutex or the condition cannot be had. */
bool tf_ring_init(struct tf_ring *r, size_t n);
void tf_ring_fini(struct tf_ring *r);

/* The slot to fill next (the same until it is published), once one is
 * free; SIZE_MAX when the consumer has stopped. */
size_t tf_ring_claim(struct tf_ring *r);
void tf_ring_publish(struct tf_ring *r);
void tf_ring_close(struct tf_ring *r);

/* The oldest full slot, once there is one; SIZE_MAX when the producer
 * has closed and every slot it published was taken. */
size_t tf_ring_take(struct tf_ring *r);
void tf_ring_release(struct tf_ring *r);
void tf_ring_stop(struct tf_ring *r);

#endif
