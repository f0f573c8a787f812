/* tef_int.h - what tef.c (the elements: decoding, threads, records) and
 * tef_passes.c (the reader's life and its passes) share: the reader's
 * state.  Private to those two files.
 */
#ifndef TF_LOAD_TEF_INT_H
#define TF_LOAD_TEF_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "load/ftrace.h"
#include "load/tef.h"

struct frame {
    size_t idx;
    bool async; /* a b event (its lane: the process's async lane for its cat) */
    int64_t ts;
    uint32_t name_hash;
    char *name, *cat, *cname; /* owned */
    unsigned char *args;      /* owned, pass 2 only */
    size_t args_len;
    char *bind_id;            /* owned, pass 2 only: a B event's v2 flow */
    bool flow_in, flow_out;
    struct tf_id pid, tid;    /* str owned by the thread */
};

struct thread {
    char *key; /* typed "pid|tid" text, owned */
    struct tf_id pid, tid;
    char *pid_str, *tid_str; /* owned */
    struct frame *st;
    size_t n, cap;
};

struct block {
    struct tf_scan_mark mark;
    size_t first_idx;
    bool timed;       /* lo/hi hold something */
    int64_t lo, hi;   /* times its events cover */
    bool pairs;       /* holds B or E events */
};

/* The last pid (or tid) read and what it became: most events carry the
 * ids of the event before them, read again only when their bytes differ. */
enum { ID_MEMO_BYTES = 32 };
struct id_memo {
    bool valid, escaped;
    enum tf_jtok type;
    size_t len;
    unsigned char text[ID_MEMO_BYTES];
    struct tf_id id; /* a TF_ID_STR's text is the buffer get_id wrote */
};

struct tf_tef {
    const char *file;
    const struct tf_tef_sink *sink;
    int pass; /* 1, 2, or 3: the sink's look at X events before pass 2 */
    struct thread *th;
    size_t n_th, cap_th;
    size_t *hash; /* thread index + 1 per slot, 0 empty */
    size_t hash_cap;
    struct block *blocks;
    size_t n_blocks, cap_blocks;
    int64_t lo, hi; /* the window (pass 3, the sink's look before pass 2: its span) */
    int64_t win_lo, win_hi; /* pass 3: the window */
    /* decoding scratch */
    struct tf_buf name, cat, pid, tid, id, cname, key, tmp;
    struct id_memo pid_memo, tid_memo;
    size_t n_unmatched_end, n_name_mismatch, n_open;
    /* what pass 1 passed over or read leniently, for one warning each */
    size_t n_no_dur, n_str_time, n_no_async_id;
    /* "systemTraceEvents" as ftrace text: indexed before the window,
     * collected before the finish, after this trace's own records */
    struct tf_ftrace_text *sys_text;
};

/* Frees what frame f owns (not f). */
void tf_tef_frame_free(struct frame *f);
/* Emits the record of th's innermost frame, closed at `end` (or left
 * open), and pops it. */
bool tf_tef_pop_frame(struct tf_tef *t, struct thread *th, int64_t end, bool open,
                      struct tf_diag *d);
/* One element of traceEvents (or systemTraceEvents: system), in either
 * pass; idx its index. */
bool tf_tef_element(struct tf_tef *t, const unsigned char *data, const struct tf_scan_field *f,
                    size_t idx, bool system, struct tf_diag *d);

#endif
