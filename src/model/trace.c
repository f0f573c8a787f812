/* trace.c - ownership helpers and name tables of the trace model. */
#include "model/trace.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/escape.h"

static const char *const ev_names[] = {
    [TF_EV_OTHER] = "",
    [TF_EV_HDF5_READ] = "hdf5_read",
    [TF_EV_GPU_BUFFER_WAIT] = "gpu_buffer_wait",
    [TF_EV_COMPUTE] = "compute",
    [TF_EV_WAIT_FOR_IO] = "wait_for_io",
    [TF_EV_AWAIT_DISPATCH] = "await_dispatch",
    [TF_EV_TRSM_HOST] = "trsm_host",
};

const char *tf_ev_name_str(enum tf_ev_name name)
{
    return (size_t)name < sizeof ev_names / sizeof ev_names[0] ? ev_names[name] : "";
}

enum tf_ev_name tf_ev_name_from(const char *s)
{
    for (size_t i = 1; i < sizeof ev_names / sizeof ev_names[0]; i++)
        if (strcmp(s, ev_names[i]) == 0)
            return (enum tf_ev_name)i;
    return TF_EV_OTHER;
}

enum tf_in_lane tf_in_lane_from(const char *s)
{
    if (strcmp(s, "io") == 0)
        return TF_IN_IO;
    if (strcmp(s, "main") == 0)
        return TF_IN_MAIN;
    if (strcmp(s, "gpu") == 0)
        return TF_IN_GPU;
    return TF_IN_OTHER;
}

void tf_timeline_init(struct tf_timeline *t)
{
    memset(t, 0, sizeof *t);
}

void tf_timeline_fini(struct tf_timeline *t)
{
    free(t->events);
    memset(t, 0, sizeof *t);
}

bool tf_timeline_push(struct tf_timeline *t, const struct tf_event *e)
{
    if (!TF_GROW(t->events, t->n_events, t->cap_events))
        return false;
    t->events[t->n_events++] = *e;
    return true;
}

void tf_breakdown_in_init(struct tf_breakdown_in *b)
{
    memset(b, 0, sizeof *b);
}

void tf_breakdown_in_fini(struct tf_breakdown_in *b)
{
    free(b->candidate);
    for (size_t i = 0; i < b->n_ops; i++)
        free(b->ops[i].key);
    free(b->ops);
    memset(b, 0, sizeof *b);
}

void tf_pytorch_init(struct tf_pytorch *p)
{
    memset(p, 0, sizeof *p);
}

void tf_pytorch_fini(struct tf_pytorch *p)
{
    free(p->blocks);
    memset(p, 0, sizeof *p);
}

bool tf_pytorch_push(struct tf_pytorch *p, const struct tf_pt_block *b)
{
    if (!TF_GROW(p->blocks, p->n_blocks, p->cap_blocks))
        return false;
    p->blocks[p->n_blocks++] = *b;
    return true;
}

void tf_trace_init(struct tf_trace *t)
{
    memset(t, 0, sizeof *t);
    tf_timeline_init(&t->timeline);
    tf_pytorch_init(&t->pytorch);
}

void tf_trace_fini(struct tf_trace *t)
{
    tf_timeline_fini(&t->timeline);
    tf_pytorch_fini(&t->pytorch);
}

void tf_id_key(struct tf_buf *b, const struct tf_id *id)
{
    if (id->kind == TF_ID_NUM) {
        /* Digits by hand: this runs for every event of a large trace. */
        char tmp[24], *e = tmp + sizeof tmp, *q = e;
        unsigned long long u = id->num < 0 ? 0ULL - (unsigned long long)id->num
                                           : (unsigned long long)id->num;
        do
            *--q = (char)('0' + u % 10);
        while (u /= 10);
        if (id->num < 0)
            *--q = '-';
        *--q = 'i';
        tf_buf_putn(b, q, (size_t)(e - q));
    } else if (id->kind == TF_ID_STR) {
        tf_buf_putc(b, 's');
        tf_buf_puts(b, id->str);
    } else {
        tf_buf_putc(b, '-');
    }
}

bool tf_tef_emit(const struct tf_tef_sink *sink, int pass, const char *file,
                 const struct tf_tef_rec *r, struct tf_diag *d)
{
    bool (*fn)(void *, const struct tf_tef_rec *, struct tf_diag *) =
        pass == 1 ? sink->index : sink->collect;
    if (!fn || fn(sink->ctx, r, d))
        return true;
    if (!tf_diag_failed(d))
        return tf_diag_oom(d, file);
    tf_diag_prefix(d, file);
    return false;
}

bool tf_tef_name_rec(struct tf_tef_rec *r, struct tf_buf *args, const char *what,
                     const struct tf_id *pid, const struct tf_id *tid, const char *name)
{
    tf_buf_clear(args);
    tf_buf_puts(args, "{\"name\":");
    tf_buf_json_str(args, name);
    tf_buf_putc(args, '}');
    memset(r, 0, sizeof *r);
    r->kind = TF_TEF_META;
    r->ph = 'M';
    r->name = what;
    r->pid = *pid;
    if (tid)
        r->tid = *tid;
    r->args = (const unsigned char *)args->data;
    r->args_len = args->len;
    return !args->oom;
}
