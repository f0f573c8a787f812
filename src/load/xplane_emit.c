/* xplane_emit.c - the XPlane loader's records: what a plane and a line are
 * (kind, device, role), an event as a slice or an instant with its label,
 * category and args, the launch -> kernel flows, and the lanes' names and
 * order; see xplane_int.h.
 */
#include "load/xplane_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/num.h"

/* --- planes and lines -------------------------------------------------------------- */

bool xp_plane_kind(struct xp *x, struct xp_plane *p)
{
    const char *n = xp_s(x, p->name);
    struct tf_buf *b = &x->args;
    tf_buf_clear(b);
    p->kind = XP_OTHER;
    p->dev = -1;
    if (strncmp(n, "/device:", 8) == 0) {
        const char *k = n + 8, *colon = strchr(k, ':');
        char *e = NULL;
        long long dev = colon ? strtoll(colon + 1, &e, 10) : -1;
        if (colon && e && e > colon + 1 && dev >= 0) {
            size_t kl = (size_t)(colon - k);
            p->kind = kl == 3 && memcmp(k, "GPU", 3) == 0   ? XP_GPU
                      : kl == 3 && memcmp(k, "TPU", 3) == 0 ? XP_TPU
                                                            : XP_DEVICE;
            p->dev = dev;
            tf_buf_putn(b, k, kl);
            tf_buf_printf(b, " %lld%s", dev, e);
        }
    } else if (strncmp(n, "/host:", 6) == 0) {
        p->kind = XP_HOST;
        tf_buf_puts(b, strcmp(n, "/host:CPU") == 0 ? "Host" : n + 1);
    }
    if (p->kind == XP_OTHER)
        tf_buf_puts(b, *n == '/' ? n + 1 : *n ? n : "plane");
    if (b->oom)
        return tf_diag_oom(x->d, x->file);
    p->label = xp_str(x, (const uint8_t *)b->data, b->len);
    return p->label || tf_diag_oom(x->d, x->file);
}

/* Lines a device's tools derive from its streams (drawn after them). */
static const char *const derived[] = {
    "XLA Modules",    "XLA Ops",         "Async XLA Ops",        "XLA TraceMe",
    "TensorFlow Ops", "TensorFlow Name Scope", "Framework Ops",  "Framework Name Scope",
    "Steps",          "Source",          "Launch Stats",
};

static bool is_derived(const char *name)
{
    for (size_t i = 0; i < sizeof derived / sizeof *derived; i++)
        if (strcmp(name, derived[i]) == 0)
            return true;
    return false;
}

static const char *line_name(const struct xp *x, const struct xp_line *l)
{
    return l->dname ? xp_s(x, l->dname) : xp_s(x, l->name);
}

void xp_line_roles(struct xp *x, const struct xp_plane *p)
{
    for (size_t i = 0; i < p->n_lines; i++) {
        struct xp_line *l = &x->lines[p->line0 + i];
        const char *n = xp_s(x, l->name);
        if (p->kind == XP_GPU || p->kind == XP_DEVICE)
            l->role = is_derived(n) ? XP_DERIVED : XP_STREAM;
        else if (p->kind == XP_TPU)
            l->role = strcmp(n, "XLA Ops") == 0 ? XP_STREAM : XP_DERIVED;
        else
            l->role = XP_THREAD;
    }
}

/* --- labels and categories --------------------------------------------------------- */

/* The label of an event's metadata: display_name, else name, an HLO
 * instruction text ("%fusion.3 = f32[...] fusion(...)") as "fusion.3". */
static uint32_t label_of(struct xp *x, struct xp_meta *m)
{
    if (m->label)
        return m->label;
    if (m->dname)
        return m->label = m->dname;
    const char *n = xp_s(x, m->name);
    const char *eq = n[0] == '%' ? strstr(n, " = ") : NULL;
    if (eq && eq > n + 1 && !memchr(n, ' ', (size_t)(eq - n)))
        m->label = xp_str(x, (const uint8_t *)n + 1, (size_t)(eq - n - 1));
    return m->label ? m->label : (m->label = m->name);
}

static bool contains(const char *s, const char *a, const char *b)
{
    return strstr(s, a) || strstr(s, b);
}

static const char *derived_cat(const char *line)
{
    static const struct {
        const char *line, *cat;
    } cats[] = {
        {"XLA Modules", "xla_module"},
        {"XLA Ops", "xla_op"},
        {"Async XLA Ops", "xla_async_op"},
        {"XLA TraceMe", "xla_traceme"},
        {"TensorFlow Ops", "tf_op"},
        {"TensorFlow Name Scope", "tf_name_scope"},
        {"Framework Ops", "framework_op"},
        {"Framework Name Scope", "framework_name_scope"},
        {"Steps", "step"},
    };
    for (size_t i = 0; i < sizeof cats / sizeof *cats; i++)
        if (strcmp(line, cats[i].line) == 0)
            return cats[i].cat;
    return "xla_derived";
}

/* Kineto's categories for a GPU stream's events; a TPU's ops are its
 * kernels. */
static const char *cat_of(const struct xp *x, const struct xp_plane *p, const struct xp_line *l,
                          const char *name, bool launch)
{
    switch (l->role) {
    case XP_STREAM:
        if (p->kind == XP_TPU)
            return "kernel";
        if (contains(name, "emcpy", "EMCPY") || strncmp(name, "MemcpyD", 7) == 0)
            return "gpu_memcpy";
        if (contains(name, "emset", "EMSET"))
            return "gpu_memset";
        return "kernel";
    case XP_DERIVED:
        return derived_cat(xp_s(x, l->name));
    case XP_THREAD:
    default:
        /* TensorFlow's /host:CUPTI plane: CUDA API calls, every one */
        if (p->kind == XP_HOST && (launch || strcmp(xp_s(x, p->name), "/host:CUPTI") == 0))
            return "cuda_runtime";
        return p->kind == XP_HOST ? "cpu_op" : "xplane";
    }
}

/* --- events ------------------------------------------------------------------------ */

/* ps -> ns, rounded half up (floor division for negative offsets). */
static int64_t ps_ns(int64_t ps)
{
    int64_t q = ps / 1000, r = ps % 1000;
    if (r < 0) {
        q--;
        r += 1000;
    }
    return q + (r >= 500);
}

/* What ps_ns rounded ps by: ps - ps_ns(ps) * 1000, in [-500, 500), without
 * the product (which overflows near INT64_MAX). */
static int16_t ps_sub(int64_t ps)
{
    int64_t r = ps % 1000;
    if (r < 0)
        r += 1000;
    return (int16_t)(r >= 500 ? r - 1000 : r);
}

/* An event [s, e) in ps from its line's timestamp_ns: its ends in ns on
 * the trace clock, each rounded to the nearest; the record says by how
 * many ps (ps0, ps1), and the mode's busy times keep them.  (Choosing the
 * end so that the line's drawn time stays its exact time, rounded, would
 * overlap the next op that starts where one ends: the figure then nests
 * back-to-back ops in rows of their own.)  The line's exact busy time,
 * the union in ps of its events in start order, orders the lanes. */
static void exact_ends(struct xp_line *l, int64_t s, int64_t e, int64_t *t0, int64_t *t1)
{
    *t0 = l->ts_ns + ps_ns(s);
    *t1 = l->ts_ns + ps_ns(e);
    if (e <= s)
        return;
    if (l->any && s < l->last_ps)
        l->sorted = false;
    l->last_ps = s;
    uint64_t add = 0; /* saturated: offsets may lie further apart than int64_t holds */
    if (!l->any || s >= l->end_ps) {
        add = (uint64_t)e - (uint64_t)s;
        l->end_ps = e;
    } else if (e > l->end_ps) {
        add = (uint64_t)e - (uint64_t)l->end_ps;
        l->end_ps = e;
    }
    l->busy_ps = add > (uint64_t)(INT64_MAX - l->busy_ps) ? INT64_MAX : l->busy_ps + (int64_t)add;
    l->any = true;
}

struct ev {
    int64_t mid, off, dur;
    bool has_off, occ;
    const uint8_t *data;
    size_t len;
    uint64_t base;
    bool has_corr;
    uint64_t corr;
};

/* The event's stats as args (and its correlation_id). */
static bool args_of(struct xp *x, const struct xp_plane *p,
                    const struct xp_meta *m, struct ev *e)
{
    struct tf_buf *b = &x->args;
    const struct xp_meta *sm = x->smetas ? x->smetas + p->smeta0 : NULL;
    char num[40];
    tf_buf_clear(b);
    tf_buf_putc(b, '{');
    /* the whole name when the label is not it, and the display name */
    if (m && m->label != m->name) {
        tf_buf_puts(b, "\"name\":");
        tf_buf_json_str(b, xp_s(x, m->name));
    }
    if (m && m->dname) {
        tf_buf_puts(b, b->len > 1 ? ",\"display_name\":" : "\"display_name\":");
        tf_buf_json_str(b, xp_s(x, m->dname));
    }
    struct tf_pb r, s;
    struct tf_pb_field f, g;
    tf_pb_init(&r, e->data, e->len, e->base);
    int k;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if (f.num != 4 || f.wt != TF_PB_LEN)
            continue;
        tf_pb_sub(&s, &r, &f);
        int64_t mid = 0;
        struct tf_pb_field val;
        memset(&val, 0, sizeof val);
        bool has_val = false;
        while ((k = tf_pb_next(&s, &g)) > 0) {
            if (g.num == 1 && g.wt == TF_PB_VARINT)
                mid = (int64_t)g.v;
            else if (g.num >= 2 && g.num <= 7) {
                val = g;
                has_val = true;
            }
        }
        if (k < 0) {
            r = s;
            break;
        }
        if (!has_val)
            continue;
        const struct xp_meta *n = xp_meta_of(x, sm, p->n_smeta, mid);
        const char *key = n ? xp_s(x, n->name) : "";
        if (b->len > 1)
            tf_buf_putc(b, ',');
        if (*key) {
            tf_buf_json_str(b, key);
        } else {
            snprintf(num, sizeof num, "\"stat %lld\"", (long long)mid);
            tf_buf_puts(b, num);
        }
        tf_buf_putc(b, ':');
        switch (val.num) {
        case 2: {
            double v = tf_pb_double(val.v);
            if (v >= -1e300 && v <= 1e300)
                tf_buf_puts(b, tf_fmt_repr(num, v));
            else
                tf_buf_puts(b, "null");
            break;
        }
        case 3:
            tf_buf_printf(b, "%llu", (unsigned long long)val.v);
            break;
        case 4:
            tf_buf_printf(b, "%lld", (long long)val.v);
            break;
        case 5:
            tf_buf_clear(&x->tmp);
            tf_buf_putn(&x->tmp, (const char *)val.data, val.len);
            tf_buf_json_str(b, x->tmp.data ? x->tmp.data : "");
            break;
        case 6:
            tf_buf_printf(b, "\"(%zu bytes)\"", val.len);
            break;
        case 7: {
            const struct xp_meta *rv = xp_meta_of(x, sm, p->n_smeta, (int64_t)val.v);
            tf_buf_json_str(b, rv ? xp_s(x, rv->name) : "");
            break;
        }
        default:
            break;
        }
        if (strcmp(key, "correlation_id") == 0 && (val.num == 3 || val.num == 4)) {
            e->has_corr = true;
            e->corr = val.v;
        }
    }
    if (k < 0)
        return xp_bad(x, r.err_at, r.err ? r.err + (strncmp(r.err, "damaged protobuf: ", 18)
                                                        ? 0
                                                        : 18)
                                         : "a damaged stat");
    /* the stream is the record's (has_stream); the times exact when the
     * ns the event is drawn at are not (a tooltip text each event shares
     * with none is kept by the mode: not for every event) */
    if (e->off % 1000 || e->dur % 1000)
        tf_buf_printf(b, "%s\"offset_ps\":%lld,\"duration_ps\":%lld", b->len > 1 ? "," : "",
                      (long long)e->off, (long long)e->dur);
    tf_buf_putc(b, '}');
    return !b->oom || tf_diag_oom(x->d, x->file);
}

static bool emit(struct xp *x, struct tf_tef_rec *r)
{
    r->idx = x->idx++;
    if (x->pass == 2) {
        int64_t end = r->ts + (r->dur > 0 ? r->dur : 0);
        if (r->ts > x->hi || end < x->lo)
            return true;
    }
    return tf_tef_emit(x->sink, x->pass, x->file, r, x->d);
}

bool xp_event(struct xp *x, const uint8_t *data, size_t len, uint64_t base)
{
    struct xp_plane *p = &x->planes[x->plane];
    struct xp_line *l = &x->lines[x->line];
    struct ev e;
    memset(&e, 0, sizeof e);
    e.data = data;
    e.len = len;
    e.base = base;
    struct tf_pb r;
    struct tf_pb_field f;
    tf_pb_init(&r, data, len, base);
    int k;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if (f.wt != TF_PB_VARINT)
            continue;
        if (f.num == 1)
            e.mid = (int64_t)f.v;
        else if (f.num == 2) { /* offset_ps and num_occurrences are a oneof: */
            e.off = (int64_t)f.v; /* the last one read is the event's */
            e.has_off = true;
            e.occ = false;
        } else if (f.num == 3)
            e.dur = (int64_t)f.v;
        else if (f.num == 5) {
            e.occ = true;
            e.has_off = false;
            e.off = 0;
        }
    }
    if (k < 0) {
        const char *why = r.err ? r.err : "damaged protobuf";
        return xp_bad(x, r.err_at,
                      strncmp(why, "damaged protobuf: ", 18) == 0 ? why + 18 : why);
    }
    if (e.occ) { /* an aggregate: no time (xp_line_untimed counts it) */
        x->n_skipped += x->pass == 1;
        l->n_agg += x->pass == 1;
        return true;
    }
    if (e.dur < 0)
        e.dur = 0;
    struct xp_meta *m = (struct xp_meta *)xp_meta_of(x, x->metas ? x->metas + p->meta0 : NULL, p->n_meta, e.mid);
    char noname[32];
    const char *name = noname;
    if (m) {
        name = xp_s(x, label_of(x, m));
    } else {
        snprintf(noname, sizeof noname, "metadata %lld", (long long)e.mid);
    }
    if (!*name)
        name = "?";
    /* times past the year 2096 (or before 1843) on either side are no
     * profile's: the sums below would overflow */
    if (e.off > INT64_MAX - e.dur || l->ts_ns > TF_TEF_MAX_NS || l->ts_ns < -TF_TEF_MAX_NS ||
        l->ts_ns + ps_ns(e.off) < -TF_TEF_MAX_NS ||
        l->ts_ns + ps_ns(e.off + e.dur) > TF_TEF_MAX_NS)
        return xp_bad(x, base, "an event's time (its line's timestamp_ns plus its offset_ps "
                               "and duration_ps) lies beyond 4e18 ns from 1970");
    int64_t t0, t1;
    exact_ends(l, e.off, e.off + e.dur, &t0, &t1);
    struct tf_tef_rec rec;
    memset(&rec, 0, sizeof rec);
    rec.pid = (struct tf_id){TF_ID_NUM, (long long)x->plane + 1, NULL};
    rec.tid = (struct tf_id){TF_ID_NUM, (long long)(x->line - p->line0) + 1, NULL};
    rec.name = name;
    rec.ts = t0;
    /* the ps the ends were rounded by: the mode's busy times stay exact */
    rec.ps0 = ps_sub(e.off);
    rec.ps1 = ps_sub(e.off + e.dur);
    if (e.dur > 0) {
        rec.kind = TF_TEF_SLICE;
        rec.ph = 'X';
        rec.dur = t1 - t0;
        rec.has_dur = true;
    } else {
        rec.kind = TF_TEF_INSTANT;
        rec.ph = 'i';
        rec.scope = 't';
    }
    if (l->role == XP_STREAM) {
        rec.has_stream = true;
        rec.stream = l->id;
    }
    if (x->pass == 1) {
        l->busy = ps_ns(l->busy_ps);
        x->n_events++;
    }
    bool full = x->pass == 2 || x->sink->args_pass1 || x->sink->flows;
    if (x->pass == 2 && (t0 > x->hi || t1 < x->lo))
        full = false; /* left out by emit(): no args needed */
    if (full) {
        if (!args_of(x, p, m, &e))
            return false;
        rec.args = (const unsigned char *)x->args.data;
        rec.args_len = x->args.len;
        rec.cat = cat_of(x, p, l, name, e.has_corr);
    }
    if (!emit(x, &rec))
        return false;
    if (!full || !e.has_corr || !x->sink->flows ||
        !(l->role == XP_THREAD || (l->role == XP_STREAM && p->kind == XP_GPU)))
        return true;
    char ids[32];
    snprintf(ids, sizeof ids, "%llu", (unsigned long long)e.corr);
    struct tf_tef_rec fl;
    memset(&fl, 0, sizeof fl);
    fl.kind = TF_TEF_FLOW;
    fl.ph = l->role == XP_THREAD ? 's' : 'f';
    fl.pid = rec.pid;
    fl.tid = rec.tid;
    fl.name = "launch";
    fl.cat = "ac2g";
    fl.ts = t0;
    fl.id = ids;
    fl.bp = 'e';
    return emit(x, &fl);
}

bool xp_line_untimed(struct xp *x)
{
    const struct xp_plane *p = &x->planes[x->plane];
    const struct xp_line *l = &x->lines[x->line];
    struct tf_tef_rec r;
    memset(&r, 0, sizeof r);
    r.kind = TF_TEF_UNTIMED;
    r.pid = (struct tf_id){TF_ID_NUM, (long long)x->plane + 1, NULL};
    r.tid = (struct tf_id){TF_ID_NUM, (long long)(x->line - p->line0) + 1, NULL};
    for (size_t k = 0; k < l->n_agg && l->n_agg < l->n_events; k++)
        if (!tf_tef_emit(x->sink, x->pass, x->file, &r, x->d))
            return false;
    return true;
}

/* --- lanes ------------------------------------------------------------------------- */

static bool meta_rec(struct xp *x, const char *what, long long pid, long long tid,
                     const char *name, long long sort)
{
    struct tf_tef_rec r;
    struct tf_id p = {TF_ID_NUM, pid, NULL}, t = {TF_ID_NUM, tid, NULL};
    if (name) {
        if (!tf_tef_name_rec(&r, &x->args, what, &p, tid ? &t : NULL, name))
            return tf_diag_oom(x->d, x->file);
    } else {
        tf_buf_clear(&x->args);
        tf_buf_printf(&x->args, "{\"sort_index\":%lld}", sort);
        if (x->args.oom)
            return tf_diag_oom(x->d, x->file);
        memset(&r, 0, sizeof r);
        r.kind = TF_TEF_META;
        r.ph = 'M';
        r.name = what;
        r.pid = p;
        if (tid)
            r.tid = t;
        r.args = (const unsigned char *)x->args.data;
        r.args_len = x->args.len;
    }
    return emit(x, &r);
}

/* A device plane's kind (its name's: "GPU"), name and vendor (its stats'
 * device_type_string and device_vendor), for --stats. */
static bool device_rec(struct xp *x, const struct xp_plane *p, long long pid)
{
    const char *n = xp_s(x, p->name) + 8, *colon = strchr(n, ':');
    struct tf_buf *b = &x->args;
    tf_buf_clear(b);
    tf_buf_puts(b, "{\"kind\":");
    tf_buf_clear(&x->tmp);
    tf_buf_putn(&x->tmp, n, colon ? (size_t)(colon - n) : strlen(n));
    tf_buf_json_str(b, x->tmp.data ? x->tmp.data : "");
    tf_buf_puts(b, ",\"name\":");
    tf_buf_json_str(b, xp_s(x, p->dev_type));
    tf_buf_puts(b, ",\"vendor\":");
    tf_buf_json_str(b, xp_s(x, p->vendor));
    tf_buf_putc(b, '}');
    if (b->oom || x->tmp.oom)
        return tf_diag_oom(x->d, x->file);
    struct tf_tef_rec r;
    memset(&r, 0, sizeof r);
    r.kind = TF_TEF_META;
    r.ph = 'M';
    r.name = "process_device";
    r.pid = (struct tf_id){TF_ID_NUM, pid, NULL};
    r.args = (const unsigned char *)b->data;
    r.args_len = b->len;
    return emit(x, &r);
}

/* A line of aggregates only (num_occurrences: no time) has no lane: a
 * note names it. */
static bool agg_note(struct xp *x, const struct xp_plane *p, const char *line, size_t n)
{
    tf_buf_clear(&x->tmp2);
    tf_buf_printf(&x->tmp2, "%s / %s: %zu aggregated event%s (num_occurrences, no time), not drawn",
                  xp_s(x, p->label), line, n, n == 1 ? "" : "s");
    if (x->tmp2.oom)
        return tf_diag_oom(x->d, x->file);
    struct tf_tef_rec r;
    memset(&r, 0, sizeof r);
    r.kind = TF_TEF_NOTE;
    r.name = x->tmp2.data;
    return emit(x, &r);
}

static int kind_rank(enum xp_kind k)
{
    return k == XP_GPU || k == XP_TPU ? 1 : k == XP_DEVICE ? 2 : k == XP_HOST ? 3 : 4;
}

bool xp_lane_names(struct xp *x)
{
    /* the lanes count their events: each is one XLine's */
    struct tf_tef_rec counts;
    memset(&counts, 0, sizeof counts);
    counts.kind = TF_TEF_COUNTS;
    if (!emit(x, &counts))
        return false;
    /* and their times are ps: the statistics keep them */
    counts.kind = TF_TEF_FINE;
    if (!emit(x, &counts))
        return false;
    for (size_t i = 0; i < x->n_planes; i++) {
        const struct xp_plane *p = &x->planes[i];
        bool any = false;
        for (size_t j = 0; j < p->n_lines; j++)
            any = any || x->lines[p->line0 + j].n_events > 0;
        if (!any)
            continue;
        long long pid = (long long)i + 1;
        long long sort = kind_rank(p->kind) * 1000000LL + (p->dev >= 0 ? p->dev : (long long)i);
        if (!meta_rec(x, "process_name", pid, 0, xp_s(x, p->label), 0) ||
            !meta_rec(x, "process_sort_index", pid, 0, NULL, sort))
            return false;
        if (p->kind != XP_HOST && p->kind != XP_OTHER && !device_rec(x, p, pid))
            return false;
        for (size_t j = 0; j < p->n_lines; j++) {
            const struct xp_line *l = &x->lines[p->line0 + j];
            if (!l->n_events)
                continue;
            char id[40];
            const char *name = line_name(x, l);
            if (!*name) {
                snprintf(id, sizeof id, "line %lld", (long long)l->id);
                name = id;
            }
            /* a GPU's streams and a host's threads busiest first; a TPU's
             * lines and the derived lines in the file's order, after them */
            long long ts = 1000000 + (long long)j;
            if (p->kind != XP_TPU && l->role != XP_DERIVED) {
                ts = 0;
                for (size_t q = 0; q < p->n_lines; q++) {
                    const struct xp_line *o = &x->lines[p->line0 + q];
                    ts += o->role == l->role && o->n_events &&
                          (o->busy > l->busy || (o->busy == l->busy && q < j));
                }
            }
            if (!meta_rec(x, "thread_name", pid, (long long)j + 1, name, 0) ||
                !meta_rec(x, "thread_sort_index", pid, (long long)j + 1, NULL, ts))
                return false;
            if (l->n_agg == l->n_events && !agg_note(x, p, name, l->n_agg))
                return false;
        }
    }
    return true;
}
