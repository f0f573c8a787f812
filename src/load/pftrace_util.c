/* pftrace_util.c - what the Perfetto loader's parts share: the u64 map,
 * strings and the names of threads and processes (kept over the passes),
 * and the records handed to the sink (the window's filter in pass 2, slice
 * stacks, counter samples); see pftrace_int.h.
 */
#include "load/pftrace_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "load/nsys_rows.h"

/* --- the map --------------------------------------------------------------------- */

static size_t slot_of(uint64_t k, size_t cap)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)k & (cap - 1);
}

bool pf_map_put(struct pf_map *m, uint64_t key, uint64_t val)
{
    if (key == 0) {
        m->has0 = true;
        m->val0 = val;
        return true;
    }
    if ((m->n + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        uint64_t *k = calloc(cap, sizeof *k), *v = malloc(cap * sizeof *v);
        if (!k || !v) {
            free(k);
            free(v);
            return false;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i]) {
                size_t s = slot_of(m->keys[i], cap);
                while (k[s])
                    s = (s + 1) & (cap - 1);
                k[s] = m->keys[i];
                v[s] = m->vals[i];
            }
        free(m->keys);
        free(m->vals);
        m->keys = k;
        m->vals = v;
        m->cap = cap;
    }
    size_t s = slot_of(key, m->cap);
    while (m->keys[s] && m->keys[s] != key)
        s = (s + 1) & (m->cap - 1);
    if (!m->keys[s])
        m->n++;
    m->keys[s] = key;
    m->vals[s] = val;
    return true;
}

bool pf_map_get(const struct pf_map *m, uint64_t key, uint64_t *val)
{
    if (key == 0) {
        *val = m->val0;
        return m->has0;
    }
    if (!m->cap)
        return false;
    size_t s = slot_of(key, m->cap);
    while (m->keys[s]) {
        if (m->keys[s] == key) {
            *val = m->vals[s];
            return true;
        }
        s = (s + 1) & (m->cap - 1);
    }
    return false;
}

void pf_map_clear(struct pf_map *m)
{
    if (m->cap)
        memset(m->keys, 0, m->cap * sizeof *m->keys);
    m->n = 0;
    m->has0 = false;
}

void pf_map_fini(struct pf_map *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

/* --- strings, names ---------------------------------------------------------------- */

uint32_t pf_str(struct pf *p, const uint8_t *s, size_t n)
{
    if (!n || !s)
        return 0; /* "" */
    tf_buf_clear(&p->tmp);
    tf_buf_putn(&p->tmp, (const char *)s, n);
    /* a NUL inside ends the string */
    const char *c = tf_nsys_clean(&p->tmp2, p->tmp.data ? p->tmp.data : "");
    uint32_t id = 0;
    if (!c || p->tmp.oom || !tf_strtab_id(&p->strs, c, &id))
        return 0;
    return id;
}

uint32_t pf_cstr(struct pf *p, const char *s)
{
    return pf_str(p, (const uint8_t *)s, strlen(s));
}

const char *pf_s(const struct pf *p, uint32_t id)
{
    return tf_strtab_str(&p->strs, id);
}

struct pf_thread *pf_thread(struct pf *p, int64_t tid)
{
    uint64_t k;
    if (pf_map_get(&p->thr_of, (uint64_t)tid, &k))
        return &p->thrs[k - 1];
    if (!TF_GROW(p->thrs, p->n_thrs, p->cap_thrs) ||
        !pf_map_put(&p->thr_of, (uint64_t)tid, p->n_thrs + 1))
        return NULL;
    struct pf_thread *t = &p->thrs[p->n_thrs++];
    memset(t, 0, sizeof *t);
    t->tid = tid;
    t->tgid = -1;
    return t;
}

struct pf_proc *pf_proc(struct pf *p, int64_t pid)
{
    uint64_t k;
    if (pf_map_get(&p->proc_of, (uint64_t)pid, &k))
        return &p->procs[k - 1];
    if (!TF_GROW(p->procs, p->n_procs, p->cap_procs) ||
        !pf_map_put(&p->proc_of, (uint64_t)pid, p->n_procs + 1))
        return NULL;
    struct pf_proc *t = &p->procs[p->n_procs++];
    memset(t, 0, sizeof *t);
    t->pid = pid;
    return t;
}

void pf_name_thread(struct pf *p, int64_t tid, int64_t tgid, uint32_t name, int rank)
{
    struct pf_thread *t = pf_thread(p, tid);
    if (!t)
        return;
    if (tgid >= 0 && (t->tgid < 0 || rank >= 2))
        t->tgid = tgid;
    if (name && pf_s(p, name)[0] && rank >= t->name_rank) {
        t->name = name;
        t->name_rank = rank;
    }
}

void pf_name_proc(struct pf *p, int64_t pid, uint32_t name, int rank)
{
    struct pf_proc *t = pf_proc(p, pid);
    if (t && name && pf_s(p, name)[0] && rank >= t->name_rank) {
        t->name = name;
        t->name_rank = rank;
    }
}

/* --- records ----------------------------------------------------------------------- */

bool pf_emit(struct pf *p, struct tf_tef_rec *r)
{
    r->idx = p->idx++;
    if (p->pass == 1 && r->kind != TF_TEF_META)
        p->n_events++;
    if (p->pass == 2) {
        if (r->kind == TF_TEF_META)
            return true;
        if (r->kind == TF_TEF_SLICE) {
            int64_t end = r->ts + (r->dur > 0 ? r->dur : 0);
            if (r->ts > p->hi || (!r->open_end && end < p->lo))
                return true;
        } else if (r->kind == TF_TEF_INSTANT && r->ts > p->hi) {
            return true;
        }
    }
    return tf_tef_emit(p->sink, p->pass, p->file, r, p->d);
}

bool pf_bad(struct pf *p, uint64_t at, const char *what)
{
    return tf_diag_error(p->d, TF_EBADINPUT, "%s: byte %llu: %s", p->file,
                         (unsigned long long)at, what);
}

bool pf_pb_fail(struct pf *p, const struct tf_pb *r)
{
    return pf_bad(p, r->err_at, r->err ? r->err : "damaged protobuf");
}

bool pf_push(struct pf *p, struct pf_stack *st, uint32_t name, uint32_t cat, int64_t ts,
             const char *args)
{
    if (!TF_GROW(st->v, st->n, st->cap))
        return tf_diag_oom(p->d, p->file);
    struct pf_frame *f = &st->v[st->n++];
    f->name = name;
    f->cat = cat;
    f->ts = ts;
    f->cookie = 0;
    f->args = NULL;
    if (args && p->pass == 2 && !(f->args = strdup(args)))
        return tf_diag_oom(p->d, p->file);
    return true;
}

bool pf_pop(struct pf *p, struct pf_stack *st, const struct tf_id *pid, const struct tf_id *tid,
            int64_t ts, bool open_end)
{
    if (!st->n) {
        p->n_unmatched_end += p->pass == 1;
        return true;
    }
    struct pf_frame *f = &st->v[--st->n];
    struct tf_tef_rec r;
    memset(&r, 0, sizeof r);
    r.kind = TF_TEF_SLICE;
    r.ph = 'B';
    r.pid = *pid;
    r.tid = *tid;
    r.name = pf_s(p, f->name);
    r.cat = pf_s(p, f->cat);
    r.ts = f->ts;
    r.dur = open_end || ts < f->ts ? 0 : ts - f->ts;
    r.has_dur = !open_end;
    r.open_end = open_end;
    r.depth = (unsigned)st->n + 1;
    if (f->args) {
        r.args = (const unsigned char *)f->args;
        r.args_len = strlen(f->args);
    }
    p->n_open += open_end && p->pass == 1;
    bool ok = pf_emit(p, &r);
    free(f->args);
    f->args = NULL;
    return ok;
}

void pf_stack_fini(struct pf_stack *st)
{
    for (size_t i = 0; i < st->n; i++)
        free(st->v[i].args);
    free(st->v);
    memset(st, 0, sizeof *st);
}

bool pf_counter(struct pf *p, const struct tf_id *pid, const char *name, const char *unit,
                int64_t ts, double v)
{
    /* a value past 1e100 (damaged bytes read as a double, never a real
     * counter) would overflow the mode's time-weighted mean: not drawn */
    if (!(v >= -1e100 && v <= 1e100))
        return true;
    char num[40];
    tf_buf_clear(&p->args);
    tf_buf_puts(&p->args, "{\"\":");
    tf_buf_puts(&p->args, tf_fmt_repr(num, v));
    tf_buf_putc(&p->args, '}');
    if (p->args.oom)
        return tf_diag_oom(p->d, p->file);
    struct tf_tef_rec r;
    memset(&r, 0, sizeof r);
    r.kind = TF_TEF_COUNTER;
    r.ph = 'C';
    r.pid = *pid;
    r.name = name;
    r.unit = unit;
    r.ts = ts;
    r.args = (const unsigned char *)p->args.data;
    r.args_len = p->args.len;
    return pf_emit(p, &r);
}

