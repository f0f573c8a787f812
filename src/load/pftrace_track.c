/* pftrace_track.c - Perfetto's track events: track descriptors and the
 * lanes they make, interned names, slices, instants, counters, debug
 * annotations, flows and legacy events; see pftrace.h (what becomes what)
 * and the notes at the top of pftrace.c (passes, clocks).
 *
 * Tracks are kept over both passes (they name lanes); a track's lane is
 * decided the first time an event uses it, from the descriptors read by
 * then, so both passes put its events on the same lane.  Slices are paired
 * per track as a stack: an END closes the track's innermost open slice.
 */
#include "load/pftrace_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/num.h"

enum { TYPE_BEGIN = 1, TYPE_END = 2, TYPE_INSTANT = 3, TYPE_COUNTER = 4 };
#define TD_KEY (1ULL << 63) /* a sequence's thread_descriptor lane, by tid */

static struct pf_track *track_get(struct pf *p, uint64_t uuid, bool make)
{
    uint64_t k;
    if (pf_map_get(&p->track_of, uuid, &k))
        return &p->tracks[k - 1];
    if (!make)
        return NULL;
    if (!TF_GROW(p->tracks, p->n_tracks, p->cap_tracks) ||
        !pf_map_put(&p->track_of, uuid, p->n_tracks + 1))
        return NULL;
    struct pf_track *t = &p->tracks[p->n_tracks++];
    memset(t, 0, sizeof *t);
    t->uuid = uuid;
    t->unit_mult = 1;
    return t;
}

/* --- descriptors ------------------------------------------------------------------ */

static bool process_desc(struct pf *p, struct pf_track *t, const struct tf_pb *msg)
{
    struct tf_pb r = *msg;
    struct tf_pb_field f;
    int k;
    uint32_t name = 0, cmd = 0;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if (f.num == 1 && f.wt == TF_PB_VARINT)
            t->pid = (int32_t)f.v;
        else if (f.num == 6 && f.wt == TF_PB_LEN)
            name = pf_str(p, f.data, f.len);
        else if (f.num == 2 && f.wt == TF_PB_LEN && !cmd)
            cmd = pf_str(p, f.data, f.len);
    }
    if (k < 0)
        return pf_pb_fail(p, &r);
    pf_name_proc(p, t->pid, cmd, 1);
    pf_name_proc(p, t->pid, name, 2);
    return true;
}

static bool thread_desc(struct pf *p, struct pf_track *t, const struct tf_pb *msg)
{
    struct tf_pb r = *msg;
    struct tf_pb_field f;
    int k;
    uint32_t name = 0;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if (f.num == 1 && f.wt == TF_PB_VARINT)
            t->pid = (int32_t)f.v;
        else if (f.num == 2 && f.wt == TF_PB_VARINT)
            t->tid = (int64_t)f.v;
        else if (f.num == 5 && f.wt == TF_PB_LEN)
            name = pf_str(p, f.data, f.len);
    }
    if (k < 0)
        return pf_pb_fail(p, &r);
    pf_name_thread(p, t->tid, t->pid, name, 2);
    return true;
}

static bool counter_desc(struct pf *p, struct pf_track *t, const struct tf_pb *msg)
{
    static const char *const units[] = {"", "ns", "count", "bytes"};
    struct tf_pb r = *msg;
    struct tf_pb_field f;
    int k;
    t->counter = true;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if (f.num == 3 && f.wt == TF_PB_VARINT && f.v < 4 && !t->unit)
            t->unit = f.v ? pf_cstr(p, units[f.v]) : 0;
        else if (f.num == 6 && f.wt == TF_PB_LEN)
            t->unit = pf_str(p, f.data, f.len);
        else if (f.num == 4 && f.wt == TF_PB_VARINT && f.v)
            t->unit_mult = (int64_t)f.v;
        else if (f.num == 5 && f.wt == TF_PB_VARINT)
            t->incremental = f.v != 0;
    }
    return k < 0 ? pf_pb_fail(p, &r) : true;
}

bool pf_track_descriptor(struct pf *p, const struct tf_pb *msg)
{
    struct tf_pb r = *msg, sub;
    struct tf_pb_field f;
    int k;
    uint64_t uuid = 0;
    while ((k = tf_pb_next(&r, &f)) > 0)
        if (f.num == 1 && f.wt == TF_PB_VARINT)
            uuid = f.v;
    if (k < 0)
        return pf_pb_fail(p, &r);
    struct pf_track *t = track_get(p, uuid, true);
    if (!t)
        return tf_diag_oom(p->d, p->file);
    if (t->resolved) /* named once (a sequence repeats its descriptors) */
        return true;
    r = *msg;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if (f.num == 5 && f.wt == TF_PB_VARINT) {
            t->parent = f.v;
            continue;
        }
        if (f.wt != TF_PB_LEN)
            continue;
        tf_pb_sub(&sub, &r, &f);
        bool ok = true;
        if (f.num == 2 || f.num == 10 || f.num == 13)
            t->name = pf_str(p, f.data, f.len);
        else if (f.num == 3) {
            t->kind = t->kind == PF_TK_THREAD ? t->kind : PF_TK_PROCESS;
            ok = process_desc(p, t, &sub);
        } else if (f.num == 4) {
            t->kind = PF_TK_THREAD;
            ok = thread_desc(p, t, &sub);
        } else if (f.num == 8)
            ok = counter_desc(p, t, &sub);
        if (!ok)
            return false;
    }
    if (k < 0)
        return pf_pb_fail(p, &r);
    if (t->kind == PF_TK_THREAD && t->name)
        pf_name_thread(p, t->tid, t->pid, t->name, 2);
    if (t->kind == PF_TK_PROCESS && t->name)
        pf_name_proc(p, t->pid, t->name, 2);
    return true;
}

/* The lane of a track (see pftrace.h). */
static void resolve(struct pf *p, struct pf_track *t)
{
    if (t->resolved)
        return;
    t->resolved = true;
    if (t->kind == PF_TK_THREAD) {
        t->lpid = (struct tf_id){TF_ID_NUM, t->pid, NULL};
        t->ltid = (struct tf_id){TF_ID_NUM, t->tid, NULL};
        t->cname = t->name;
        return;
    }
    /* the custom tracks up to an anchor (a process or thread), or the root */
    const struct pf_track *chain[16];
    size_t n = 0;
    const struct pf_track *a = t;
    while (a && a->kind == PF_TK_CUSTOM && n < 16) {
        chain[n++] = a;
        a = a->parent && a->parent != a->uuid ? track_get(p, a->parent, false) : NULL;
    }
    if (a && a->kind == PF_TK_CUSTOM)
        a = NULL;
    char idbuf[40];
    tf_buf_clear(&p->tmp);
    size_t top = n;
    if (!a && n > 1)
        top = n - 1; /* the root names the group */
    for (size_t i = top; i-- > 0;) {
        if (p->tmp.len)
            tf_buf_puts(&p->tmp, " / ");
        const char *nm = pf_s(p, chain[i]->name);
        if (!*nm) {
            snprintf(idbuf, sizeof idbuf, "track %llu", (unsigned long long)chain[i]->uuid);
            nm = idbuf;
        }
        tf_buf_puts(&p->tmp, nm);
    }
    char path[1024];
    snprintf(path, sizeof path, "%s", p->tmp.data ? p->tmp.data : "");
    uint32_t pathid = pf_cstr(p, path);
    t->cname = t->name ? t->name : pathid;
    if (a) {
        t->lpid = (struct tf_id){TF_ID_NUM, a->kind == PF_TK_THREAD ? a->pid : a->pid, NULL};
        if (a->kind == PF_TK_THREAD && n == 0)
            t->ltid = (struct tf_id){TF_ID_NUM, a->tid, NULL};
        else if (n == 0) /* a process track's own slices */
            t->ltid = (struct tf_id){TF_ID_STR, 0, pf_s(p, t->name ? t->name : pf_cstr(p, "process"))};
        else
            t->ltid = (struct tf_id){TF_ID_STR, 0, pf_s(p, pathid)};
        return;
    }
    uint32_t root = n ? chain[n - 1]->name : 0;
    if (!root) {
        snprintf(idbuf, sizeof idbuf, "track %llu",
                 (unsigned long long)(n ? chain[n - 1]->uuid : t->uuid));
        root = pf_cstr(p, idbuf);
    }
    t->lpid = (struct tf_id){TF_ID_STR, 0, pf_s(p, root)};
    t->ltid = (struct tf_id){TF_ID_STR, 0, pf_s(p, n > 1 ? pathid : root)};
}

/* --- interned data ----------------------------------------------------------------- */

static bool intern_one(struct pf *p, struct pf_map *m, const struct tf_pb *msg, uint32_t str_field)
{
    struct tf_pb r = *msg;
    struct tf_pb_field f;
    int k;
    uint64_t iid = 0;
    uint32_t s = 0;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if (f.num == 1 && f.wt == TF_PB_VARINT)
            iid = f.v;
        else if (f.num == str_field && f.wt == TF_PB_LEN)
            s = pf_str(p, f.data, f.len);
    }
    if (k < 0)
        return pf_pb_fail(p, &r);
    return pf_map_put(m, iid, s) ? true : tf_diag_oom(p->d, p->file);
}

bool pf_interned(struct pf *p, const struct tf_pb *msg)
{
    struct tf_pb r = *msg, sub;
    struct tf_pb_field f;
    int k;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if (f.wt != TF_PB_LEN)
            continue;
        tf_pb_sub(&sub, &r, &f);
        if (f.num == 47) { /* gpu_counter_descriptors: iid 1, counter_descriptor 2 */
            struct tf_pb q = sub, d;
            struct tf_pb_field g;
            int j;
            while ((j = tf_pb_next(&q, &g)) > 0) {
                if (g.num != 2 || g.wt != TF_PB_LEN)
                    continue;
                tf_pb_sub(&d, &q, &g);
                if (!pf_gpu_specs(p, &d))
                    return false;
            }
            if (j < 0)
                return pf_pb_fail(p, &q);
            continue;
        }
        struct pf_map *m = f.num == 1   ? &p->seq->cats
                           : f.num == 2 ? &p->seq->names
                           : f.num == 3 ? &p->seq->annots
                           : f.num == 29 ? &p->seq->strvals
                           : f.num == 24 ? &p->seq->gpuspecs
                                         : NULL;
        if (m && !intern_one(p, m, &sub, 2))
            return false;
    }
    return k < 0 ? pf_pb_fail(p, &r) : true;
}

static uint32_t interned(const struct pf_map *m, uint64_t iid)
{
    uint64_t v;
    return pf_map_get(m, iid, &v) ? (uint32_t)v : 0;
}

/* --- debug annotations -------------------------------------------------------------- */

/* One annotation's value as JSON into b; its name (when `named`) first. */
static bool annotation(struct pf *p, struct tf_buf *b, const struct tf_pb *msg, bool named,
                       int depth)
{
    struct tf_pb r = *msg, sub;
    struct tf_pb_field f;
    int k;
    uint32_t name = 0;
    bool has_name = false;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if (f.num == 1 && f.wt == TF_PB_VARINT) {
            name = interned(&p->seq->annots, f.v);
            has_name = true;
        } else if (f.num == 10 && f.wt == TF_PB_LEN) {
            name = pf_str(p, f.data, f.len);
            has_name = true;
        }
    }
    if (k < 0)
        return pf_pb_fail(p, &r);
    if (named) {
        tf_buf_json_str(b, has_name ? pf_s(p, name) : "?");
        tf_buf_putc(b, ':');
    }
    char num[40];
    bool done = false, dict = false, arr = false;
    r = *msg;
    while ((k = tf_pb_next(&r, &f)) > 0 && !done) {
        done = true;
        switch (f.num) {
        case 2: tf_buf_puts(b, f.v ? "true" : "false"); break;
        case 3: tf_buf_printf(b, "%llu", (unsigned long long)f.v); break;
        case 4: tf_buf_printf(b, "%lld", (long long)(int64_t)f.v); break;
        case 5: {
            double v = tf_pb_double(f.v);
            tf_buf_puts(b, v == v && v - v == 0 ? tf_fmt_repr(num, v) : "null");
            break;
        }
        case 7: tf_buf_printf(b, "\"0x%llx\"", (unsigned long long)f.v); break;
        case 6:
        case 9: {
            uint32_t s = pf_str(p, f.data, f.len);
            tf_buf_json_str(b, pf_s(p, s));
            break;
        }
        case 17: tf_buf_json_str(b, pf_s(p, interned(&p->seq->strvals, f.v))); break;
        case 11: dict = true; done = false; break;
        case 12: arr = true; done = false; break;
        default: done = false; break;
        }
    }
    if (k < 0)
        return pf_pb_fail(p, &r);
    if (done)
        return true;
    if ((dict || arr) && depth < 8) {
        tf_buf_putc(b, dict ? '{' : '[');
        bool first = true;
        r = *msg;
        while ((k = tf_pb_next(&r, &f)) > 0) {
            if (f.wt != TF_PB_LEN || f.num != (dict ? 11u : 12u))
                continue;
            if (!first)
                tf_buf_putc(b, ',');
            first = false;
            tf_pb_sub(&sub, &r, &f);
            if (!annotation(p, b, &sub, dict, depth + 1))
                return false;
        }
        tf_buf_putc(b, dict ? '}' : ']');
        return true;
    }
    tf_buf_puts(b, "null");
    return true;
}

/* --- events ------------------------------------------------------------------------ */

struct ev {
    int type;
    bool has_uuid;
    uint64_t uuid;
    uint32_t name;
    bool has_int, has_dbl;
    int64_t ival;
    double dval;
    uint64_t flows[8], terms[8];
    size_t n_flows, n_terms;
    uint64_t xi[16], xd[16];       /* extra counter values */
    size_t n_xi, n_xd;
    uint64_t xt_i[16], xt_d[16];   /* their tracks */
    size_t n_xt_i, n_xt_d;
    bool legacy;
    int phase;
    int64_t dur_us;
    bool has_pid_o, has_tid_o;
    int64_t pid_o, tid_o;
};

#define PUSH(arr, n, v)                                                                        \
    do {                                                                                       \
        if ((n) < sizeof(arr) / sizeof(arr)[0])                                                \
            (arr)[(n)++] = (v);                                                                \
    } while (0)

static bool add_flow(void *c, uint64_t v)
{
    struct ev *e = c;
    PUSH(e->flows, e->n_flows, v);
    return true;
}

static bool add_term(void *c, uint64_t v)
{
    struct ev *e = c;
    PUSH(e->terms, e->n_terms, v);
    return true;
}

static bool add_xi(void *c, uint64_t v)
{
    struct ev *e = c;
    PUSH(e->xi, e->n_xi, v);
    return true;
}

static bool add_xd(void *c, uint64_t v)
{
    struct ev *e = c;
    PUSH(e->xd, e->n_xd, v);
    return true;
}

static bool add_xti(void *c, uint64_t v)
{
    struct ev *e = c;
    PUSH(e->xt_i, e->n_xt_i, v);
    return true;
}

static bool add_xtd(void *c, uint64_t v)
{
    struct ev *e = c;
    PUSH(e->xt_d, e->n_xt_d, v);
    return true;
}


static bool legacy(struct pf *p, struct ev *e, const struct tf_pb *msg)
{
    struct tf_pb r = *msg;
    struct tf_pb_field f;
    int k;
    e->legacy = true;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if (f.wt != TF_PB_VARINT)
            continue;
        if (f.num == 1)
            e->name = interned(&p->seq->names, f.v);
        else if (f.num == 2)
            e->phase = (int)f.v;
        else if (f.num == 3)
            e->dur_us = (int64_t)f.v;
        else if (f.num == 18) {
            e->has_pid_o = true;
            e->pid_o = (int32_t)f.v;
        } else if (f.num == 19) {
            e->has_tid_o = true;
            e->tid_o = (int32_t)f.v;
        }
    }
    return k < 0 ? pf_pb_fail(p, &r) : true;
}

static bool flows_of(struct pf *p, const struct ev *e, const struct pf_track *t, int64_t ts)
{
    for (size_t pass = 0; pass < 2; pass++) {
        size_t n = pass ? e->n_terms : e->n_flows;
        for (size_t i = 0; i < n; i++) {
            uint64_t id = pass ? e->terms[i] : e->flows[i], seen;
            char ph = pass ? 'f' : pf_map_get(&p->flows, id, &seen) ? 't' : 's';
            if (!pass && !pf_map_put(&p->flows, id, 1))
                return tf_diag_oom(p->d, p->file);
            char ids[32];
            snprintf(ids, sizeof ids, "%llu", (unsigned long long)id);
            struct tf_tef_rec r;
            memset(&r, 0, sizeof r);
            r.kind = TF_TEF_FLOW;
            r.ph = ph;
            r.pid = t->lpid;
            r.tid = t->ltid;
            r.name = "flow";
            r.cat = "flow";
            r.ts = ts;
            r.id = ids;
            r.bp = 'e';
            if (!pf_emit(p, &r))
                return false;
        }
    }
    return true;
}

static bool counter_value(struct pf *p, struct pf_track *t, int64_t ts, double v)
{
    resolve(p, t);
    v *= (double)t->unit_mult;
    if (t->incremental) {
        t->last += v;
        v = t->last;
    }
    return pf_counter(p, &t->lpid, pf_s(p, t->cname), t->unit ? pf_s(p, t->unit) : NULL, ts, v);
}

/* The track of a thread_descriptor's sequence, or of a legacy override. */
static struct pf_track *thread_track(struct pf *p, int64_t pid, int64_t tid)
{
    struct pf_track *t = track_get(p, TD_KEY | (uint64_t)tid, true);
    if (t && !t->resolved) {
        t->kind = PF_TK_THREAD;
        t->pid = pid;
        t->tid = tid;
    }
    return t;
}

/* A legacy C event: each numeric debug annotation a series of its
 * process, "NAME KEY", as a JSON C event's args are. */
static bool legacy_counter(struct pf *p, struct pf_track *t, const struct tf_pb *msg,
                           uint32_t name, int64_t ts)
{
    struct tf_pb r = *msg, a;
    struct tf_pb_field f, g;
    int k, j;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if (f.num != 4 || f.wt != TF_PB_LEN)
            continue;
        tf_pb_sub(&a, &r, &f);
        uint32_t key = 0;
        bool has = false;
        double v = 0;
        while ((j = tf_pb_next(&a, &g)) > 0) {
            if (g.num == 1 && g.wt == TF_PB_VARINT)
                key = interned(&p->seq->annots, g.v);
            else if (g.num == 10 && g.wt == TF_PB_LEN)
                key = pf_str(p, g.data, g.len);
            else if ((g.num == 3 || g.num == 4) && g.wt == TF_PB_VARINT) {
                v = g.num == 3 ? (double)g.v : (double)(int64_t)g.v;
                has = true;
            } else if (g.num == 5 && g.wt == TF_PB_I64) {
                v = tf_pb_double(g.v);
                has = true;
            }
        }
        if (j < 0)
            return pf_pb_fail(p, &a);
        if (!has)
            continue;
        tf_buf_clear(&p->tmp2);
        tf_buf_puts(&p->tmp2, pf_s(p, name));
        if (pf_s(p, key)[0]) {
            tf_buf_putc(&p->tmp2, ' ');
            tf_buf_puts(&p->tmp2, pf_s(p, key));
        }
        uint32_t series = pf_cstr(p, p->tmp2.data ? p->tmp2.data : "");
        if (!pf_counter(p, &t->lpid, pf_s(p, series), NULL, ts, v))
            return false;
    }
    return k < 0 ? pf_pb_fail(p, &r) : true;
}

bool pf_track_event(struct pf *p, const struct tf_pb *msg, int64_t ts)
{
    struct ev e;
    memset(&e, 0, sizeof e);
    struct tf_pb r = *msg, sub;
    struct tf_pb_field f;
    int k;
    bool has_args = false;
    tf_buf_clear(&p->tmp2);
    /* categories joined by ',' into tmp2 first (pf_str uses tmp) */
    struct tf_buf cats = p->cats; /* the struct's buffer, put back below */
    tf_buf_clear(&cats);
    while ((k = tf_pb_next(&r, &f)) > 0) {
        bool ok = true;
        switch (f.num) {
        case 9: e.type = (int)f.v; break;
        case 11: e.has_uuid = true; e.uuid = f.v; break;
        case 10: if (!e.name) e.name = interned(&p->seq->names, f.v); break;
        case 23: if (f.wt == TF_PB_LEN) e.name = pf_str(p, f.data, f.len); break;
        case 3:
        case 22: {
            if (f.num == 3 && f.wt == TF_PB_LEN) { /* packed iids */
                const uint8_t *q = f.data, *end = f.data + f.len;
                uint64_t v;
                while (q < end && tf_pb_varint(&q, end, &v)) {
                    if (cats.len)
                        tf_buf_putc(&cats, ',');
                    tf_buf_puts(&cats, pf_s(p, interned(&p->seq->cats, v)));
                }
                break;
            }
            uint32_t c = f.num == 3 ? interned(&p->seq->cats, f.v) : pf_str(p, f.data, f.len);
            if (cats.len)
                tf_buf_putc(&cats, ',');
            tf_buf_puts(&cats, pf_s(p, c));
            break;
        }
        case 30: e.has_int = true; e.ival = (int64_t)f.v; break;
        case 44: e.has_dbl = true; e.dval = tf_pb_double(f.v); break;
        case 47: ok = tf_pb_each(&f, 8, add_flow, &e); break;
        case 36: ok = tf_pb_each(&f, 0, add_flow, &e); break;
        case 48: ok = tf_pb_each(&f, 8, add_term, &e); break;
        case 42: ok = tf_pb_each(&f, 0, add_term, &e); break;
        case 31: ok = tf_pb_each(&f, 0, add_xti, &e); break;
        case 12: ok = tf_pb_each(&f, 0, add_xi, &e); break;
        case 45: ok = tf_pb_each(&f, 0, add_xtd, &e); break;
        case 46: ok = tf_pb_each(&f, 8, add_xd, &e); break;
        case 4: has_args = true; break;
        case 6:
            if (f.wt == TF_PB_LEN) {
                tf_pb_sub(&sub, &r, &f);
                ok = legacy(p, &e, &sub) || (p->cats = cats, false);
                if (!ok)
                    return false;
            }
            break;
        default: break;
        }
        if (!ok) {
            p->cats = cats;
            return pf_bad(p, f.at, "a track event's repeated field is damaged");
        }
    }
    if (k < 0) {
        p->cats = cats;
        return pf_pb_fail(p, &r);
    }
    p->cats = cats;
    uint32_t cat = cats.len ? pf_cstr(p, cats.data) : 0;
    if (ts == INT64_MIN)
        return true; /* no time: nothing to draw */
    /* the track */
    struct pf_track *t = NULL;
    if (e.has_pid_o || e.has_tid_o)
        t = thread_track(p, e.has_pid_o ? e.pid_o : p->seq->td_pid,
                         e.has_tid_o ? e.tid_o : p->seq->td_tid);
    else if (e.has_uuid)
        t = track_get(p, e.uuid, true);
    else if (p->seq->has_def_track)
        t = track_get(p, p->seq->def_track, true);
    else if (p->seq->has_td)
        t = thread_track(p, p->seq->td_pid, p->seq->td_tid);
    if (!t) {
        if (tf_diag_failed(p->d))
            return false;
        p->n_no_track += p->pass == 1;
        return true;
    }
    resolve(p, t);
    /* extra counter values, on the sequence's default tracks unless given */
    for (size_t i = 0; i < e.n_xi; i++) {
        uint64_t u = i < e.n_xt_i ? e.xt_i[i]
                     : i < p->seq->n_def_extra_i ? p->seq->def_extra[i] : 0;
        struct pf_track *ct = u ? track_get(p, u, true) : NULL;
        if (ct && !counter_value(p, ct, ts, (double)(int64_t)e.xi[i]))
            return false;
    }
    for (size_t i = 0; i < e.n_xd; i++) {
        size_t j = p->seq->n_def_extra_i + i;
        uint64_t u = i < e.n_xt_d ? e.xt_d[i] : j < p->seq->n_def_extra ? p->seq->def_extra[j] : 0;
        struct pf_track *ct = u ? track_get(p, u, true) : NULL;
        if (ct && !counter_value(p, ct, ts, tf_pb_double(e.xd[i])))
            return false;
    }
    if (e.legacy && !e.type) {
        switch (e.phase) {
        case 'B': e.type = TYPE_BEGIN; break;
        case 'E': e.type = TYPE_END; break;
        case 'I':
        case 'i':
        case 'R': e.type = TYPE_INSTANT; break;
        case 'X': e.type = TYPE_BEGIN; break;
        case 'C': e.type = TYPE_COUNTER; break;
        default: return true; /* async and others: not drawn */
        }
    }
    /* the args (pass 2 only: pass 1 does not need them) */
    const char *args = NULL;
    if (has_args && p->pass == 2) {
        struct tf_buf b;
        tf_buf_init(&b);
        tf_buf_putc(&b, '{');
        r = *msg;
        bool first = true;
        while ((k = tf_pb_next(&r, &f)) > 0) {
            if (f.num != 4 || f.wt != TF_PB_LEN)
                continue;
            if (!first)
                tf_buf_putc(&b, ',');
            first = false;
            tf_pb_sub(&sub, &r, &f);
            if (!annotation(p, &b, &sub, true, 0)) {
                tf_buf_fini(&b);
                return false;
            }
        }
        tf_buf_putc(&b, '}');
        if (b.oom) {
            tf_buf_fini(&b);
            return tf_diag_oom(p->d, p->file);
        }
        tf_buf_clear(&p->args);
        tf_buf_puts(&p->args, b.data);
        tf_buf_fini(&b);
        args = p->args.data;
    }
    switch (e.type) {
    case TYPE_BEGIN:
        if (!pf_push(p, &t->st, e.name, cat, ts, args) || !flows_of(p, &e, t, ts))
            return false;
        if (e.legacy && e.phase == 'X')
            return pf_pop(p, &t->st, &t->lpid, &t->ltid, ts + e.dur_us * 1000, false);
        return true;
    case TYPE_END:
        return flows_of(p, &e, t, ts) && pf_pop(p, &t->st, &t->lpid, &t->ltid, ts, false);
    case TYPE_INSTANT: {
        struct tf_tef_rec rec;
        memset(&rec, 0, sizeof rec);
        rec.kind = TF_TEF_INSTANT;
        rec.ph = 'i';
        rec.scope = 't';
        rec.pid = t->lpid;
        rec.tid = t->ltid;
        rec.name = pf_s(p, e.name);
        rec.cat = pf_s(p, cat);
        rec.ts = ts;
        if (args) {
            rec.args = (const unsigned char *)args;
            rec.args_len = strlen(args);
        }
        return pf_emit(p, &rec) && flows_of(p, &e, t, ts);
    }
    case TYPE_COUNTER:
        if (e.has_int || e.has_dbl)
            return counter_value(p, t, ts, e.has_dbl ? e.dval : (double)e.ival);
        return e.legacy ? legacy_counter(p, t, msg, e.name, ts) : true;
    default:
        return true;
    }
}

bool pf_tracks_end(struct pf *p)
{
    for (size_t i = 0; i < p->n_tracks; i++) {
        struct pf_track *t = &p->tracks[i];
        while (t->st.n)
            if (!pf_pop(p, &t->st, &t->lpid, &t->ltid, 0, true))
                return false;
    }
    return true;
}

void pf_tracks_reset(struct pf *p)
{
    for (size_t i = 0; i < p->n_tracks; i++) {
        struct pf_track *t = &p->tracks[i];
        for (size_t j = 0; j < t->st.n; j++)
            free(t->st.v[j].args);
        t->st.n = 0;
        t->last = 0;
    }
}
