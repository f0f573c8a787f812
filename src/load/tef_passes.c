/* tef_passes.c - the Chrome trace event reader's life and its passes
 * (load/tef.h): made, fed the index (pass 1), the window, the sink's look
 * before pass 2, pass 2's blocks and records, the finish and its
 * warnings.  The elements themselves are tef.c's.
 */
#include "load/tef_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

struct tf_tef *tf_tef_new(const char *file, const struct tf_tef_sink *sink)
{
    struct tf_tef *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->file = file;
    t->sink = sink;
    t->pass = 1;
    if (sink->prepass_on)
        sink->prepass_on(sink->ctx);
    struct tf_buf *bufs[] = {&t->name, &t->cat, &t->pid, &t->tid, &t->id, &t->cname, &t->key,
                             &t->tmp};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        tf_buf_init(bufs[i]);
    return t;
}

/* Closes every frame of every thread (after pass 1). */
static void clear_threads(struct tf_tef *t)
{
    for (size_t i = 0; i < t->n_th; i++) {
        for (size_t k = 0; k < t->th[i].n; k++)
            tf_tef_frame_free(&t->th[i].st[k]);
        t->th[i].n = 0;
    }
}

void tf_tef_free(struct tf_tef *t)
{
    if (!t)
        return;
    clear_threads(t);
    for (size_t i = 0; i < t->n_th; i++) {
        free(t->th[i].key);
        free(t->th[i].pid_str);
        free(t->th[i].tid_str);
        free(t->th[i].st);
    }
    free(t->th);
    free(t->hash);
    free(t->blocks);
    tf_ftrace_text_free(t->sys_text);
    struct tf_buf *bufs[] = {&t->name, &t->cat, &t->pid, &t->tid, &t->id, &t->cname, &t->key,
                             &t->tmp};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        tf_buf_fini(bufs[i]);
    free(t);
}

/* --- the passes ------------------------------------------------------------ */

bool tf_tef_block(struct tf_tef *t, const struct tf_scan_mark *m, size_t idx,
                  struct tf_diag *d)
{
    if (!TF_GROW(t->blocks, t->n_blocks, t->cap_blocks))
        return tf_diag_oom(d, t->file);
    struct block *b = &t->blocks[t->n_blocks++];
    memset(b, 0, sizeof *b);
    b->mark = *m;
    b->first_idx = idx;
    return true;
}

bool tf_tef_index(struct tf_tef *t, const unsigned char *data, size_t len,
                  const struct tf_scan_field *f, size_t idx, bool system, struct tf_diag *d)
{
    (void)len; /* the scanner located every member element() reads */
    return tf_tef_element(t, data, f, idx, system, d);
}

bool tf_tef_window(struct tf_tef *t, struct tf_diag *d)
{
    /* B events still open at the end of pass 1 go to the index as open. */
    for (size_t i = 0; i < t->n_th; i++)
        while (t->th[i].n)
            if (!tf_tef_pop_frame(t, &t->th[i], 0, true, d))
                return false;
    clear_threads(t);
    size_t idx_base = t->n_blocks ? t->blocks[t->n_blocks - 1].first_idx + TF_TEF_BLOCK : 0;
    if (t->sys_text && !tf_ftrace_text_index(t->sys_text, idx_base))
        return false;
    if (t->sink->window && !t->sink->window(t->sink->ctx, &t->lo, &t->hi, d)) {
        tf_diag_prefix(d, t->file);
        return false;
    }
    t->pass = 2;
    return true;
}

bool tf_tef_prepass_begin(struct tf_tef *t, bool *on)
{
    *on = false;
    int64_t lo, hi;
    if (!t->sink->prepass || !t->sink->prepass_range ||
        !t->sink->prepass_range(t->sink->ctx, &lo, &hi))
        return true;
    t->win_lo = t->lo;
    t->win_hi = t->hi;
    t->lo = lo;
    t->hi = hi;
    t->pass = 3;
    *on = true;
    return true;
}

bool tf_tef_prepass_end(struct tf_tef *t, struct tf_diag *d)
{
    t->lo = t->win_lo;
    t->hi = t->win_hi;
    t->pass = 2;
    if (t->sink->prepass_done && !t->sink->prepass_done(t->sink->ctx, d)) {
        tf_diag_prefix(d, t->file);
        return false;
    }
    return true;
}

bool tf_tef_next_block(struct tf_tef *t, size_t *i, struct tf_scan_mark *m, size_t *first_idx)
{
    for (; *i < t->n_blocks; (*i)++) {
        const struct block *b = &t->blocks[*i];
        if (b->pairs || (b->timed && b->lo <= t->hi && b->hi >= t->lo)) {
            *m = b->mark;
            *first_idx = b->first_idx;
            (*i)++;
            return true;
        }
    }
    return false;
}

bool tf_tef_collect(struct tf_tef *t, const unsigned char *data, size_t len,
                    const struct tf_scan_field *f, size_t idx, struct tf_diag *d)
{
    (void)len;
    return tf_tef_element(t, data, f, idx, false, d);
}

bool tf_tef_system_text(struct tf_tef *t, const unsigned char *data, size_t len,
                        struct tf_diag *d)
{
    tf_ftrace_text_free(t->sys_text);
    t->sys_text = tf_ftrace_text_new(t->file, t->sink, data, len, d);
    return t->sys_text != NULL;
}

bool tf_tef_finish(struct tf_tef *t, struct tf_diag *d)
{
    if (t->sys_text && !tf_ftrace_text_collect(t->sys_text, t->lo, t->hi))
        return false;
    for (size_t i = 0; i < t->n_th; i++)
        while (t->th[i].n) {
            t->n_open++;
            if (!tf_tef_pop_frame(t, &t->th[i], 0, true, d))
                return false;
        }
    if (t->sink->finish && !t->sink->finish(t->sink->ctx, d)) {
        tf_diag_prefix(d, t->file);
        return false;
    }
    if (t->n_open)
        tf_diag_warn(d, "%s: %zu B event%s never closed by an E event: drawn to the window's end",
                     t->file, t->n_open, t->n_open == 1 ? "" : "s");
    if (t->n_unmatched_end)
        tf_diag_warn(d, "%s: %zu E event%s without an open B event; ignored", t->file,
                     t->n_unmatched_end, t->n_unmatched_end == 1 ? "" : "s");
    if (t->n_name_mismatch)
        tf_diag_warn(d, "%s: %zu E event%s named unlike the B event they close", t->file,
                     t->n_name_mismatch, t->n_name_mismatch == 1 ? "" : "s");
    if (t->n_no_dur)
        tf_diag_warn(d, "%s: %zu X event%s without a dur dropped", t->file, t->n_no_dur,
                     t->n_no_dur == 1 ? "" : "s");
    if (t->n_no_async_id)
        tf_diag_warn(d, "%s: %zu async event%s without an id (or an id2 with local or global) "
                        "dropped",
                     t->file, t->n_no_async_id, t->n_no_async_id == 1 ? "" : "s");
    if (t->n_str_time)
        tf_diag_warn(d, "%s: %zu time%s given as a string of a number (\"100\"); read as "
                        "numbers",
                     t->file, t->n_str_time, t->n_str_time == 1 ? "" : "s");
    return true;
}
