/* marks_file.c - a --marks file; see marks_file.h.
 *
 *   [{"kind": "measure",
 *     "from": {"event": "aten::copy_", "occurrence": 2, "edge": "end", "lane": "*python*"},
 *     "to": {"event": "ncclDevKernel*", "edge": "start", "lane": "GPU*"},
 *     "text": "exposed {dur}", "color": "#D62728"},
 *    {"kind": "highlight", "events": ["nccl*"]},
 *    {"kind": "region", "from": {"time": "4ms"}, "to": {"time": "6ms"}, "text": "bubble"}]
 *
 * An end is {"time": T} or {"event": GLOB, "occurrence": K, "edge": "start"|"end",
 * "lane": GLOB, "trace": GLOB}, each with an optional "offset": T (T a number of
 * ms, or a string such as "12.5ms", "300us").  A callout names its event in
 * "from"; a span, measure or region with "from" alone spans its event.  A
 * mark's "trace" is its ends' unless they give their own.
 */
#include "load/marks_file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/jsonutil.h"

struct ctx {
    const char *file;
    struct tf_arena *a;
    struct tf_diag *d;
};

static bool bad(struct ctx *c, const char *where, const char *what)
{
    return tf_diag_error(c->d, TF_EBADINPUT, "%s: %s: %s", c->file, where, what);
}

static bool str_of(struct ctx *c, const json_t *v, const char *where, const char **out)
{
    if (!json_is_string(v)) {
        char what[80];
        snprintf(what, sizeof what, "expected a string, got %s", tf_jtype(v));
        return bad(c, where, what);
    }
    if (!(*out = tf_arena_strdup(c->a, json_string_value(v))))
        return tf_diag_oom(c->d, c->file);
    return true;
}

/* A time: a number of ms, or "12.5ms", "300us", "1.2s", "450000ns". */
static bool time_of(struct ctx *c, const json_t *v, const char *where, int64_t *ns)
{
    double x, scale = 1e6;
    if (json_is_number(v)) {
        x = json_number_value(v);
    } else if (json_is_string(v)) {
        const char *s = json_string_value(v);
        char *end;
        errno = 0;
        size_t k = strspn(s, "+-.0123456789eE");
        char num[64];
        if (k == 0 || k >= sizeof num)
            return bad(c, where, "expected a time such as 12.5ms, 300us or 1.2s");
        memcpy(num, s, k);
        num[k] = '\0';
        x = strtod(num, &end);
        const char *u = s + k;
        if (end != num + k)
            return bad(c, where, "expected a time such as 12.5ms, 300us or 1.2s");
        if (*u == '\0' || strcmp(u, "ms") == 0)
            scale = 1e6;
        else if (strcmp(u, "us") == 0 || strcmp(u, "\xC2\xB5s") == 0)
            scale = 1e3;
        else if (strcmp(u, "ns") == 0)
            scale = 1;
        else if (strcmp(u, "s") == 0)
            scale = 1e9;
        else
            return bad(c, where, "expected a time such as 12.5ms, 300us or 1.2s");
    } else {
        return bad(c, where, "expected a time such as 12.5ms, 300us or 1.2s, or a number of ms");
    }
    x *= scale;
    if (!isfinite(x) || fabs(x) > 9e18)
        return bad(c, where, "out of range");
    *ns = (int64_t)llround(x);
    return true;
}

static bool end_of(struct ctx *c, const json_t *o, const char *where, const char *trace,
                   struct tf_mark_end *e)
{
    memset(e, 0, sizeof *e);
    char w[160];
    if (!json_is_object(o)) {
        char what[80];
        snprintf(what, sizeof what, "expected an object, got %s", tf_jtype(o));
        return bad(c, where, what);
    }
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)o, key, v) {
        static const char *const known[] = {"time", "event", "occurrence", "edge",
                                            "lane", "trace", "offset"};
        bool ok = false;
        for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
            ok = ok || strcmp(key, known[i]) == 0;
        if (!ok) {
            snprintf(w, sizeof w, "%s.%.60s", where, key);
            return bad(c, w, "unknown key (time, event, occurrence, edge, lane, trace, offset)");
        }
    }
    const json_t *t = json_object_get(o, "time"), *ev = json_object_get(o, "event");
    if (!t == !ev)
        return bad(c, where, "expected one of \"time\" and \"event\"");
    e->occurrence = 1;
    if (t) {
        snprintf(w, sizeof w, "%s.time", where);
        if (!time_of(c, t, w, &e->time_ns))
            return false;
        e->is_time = true;
    } else {
        snprintf(w, sizeof w, "%s.event", where);
        if (!str_of(c, ev, w, &e->event))
            return false;
        if (!*e->event)
            return bad(c, w, "empty");
    }
    if ((v = json_object_get(o, "occurrence"))) {
        long long k;
        snprintf(w, sizeof w, "%s.occurrence", where);
        if (!tf_jint(v, c->file, w, &k, c->d))
            return false;
        if (k < 1)
            return bad(c, w, "expected a count from 1");
        e->occurrence = k;
    }
    if ((v = json_object_get(o, "edge"))) {
        snprintf(w, sizeof w, "%s.edge", where);
        const char *s = json_is_string(v) ? json_string_value(v) : "";
        if (strcmp(s, "start") == 0)
            e->edge = TF_EDGE_START;
        else if (strcmp(s, "end") == 0)
            e->edge = TF_EDGE_END;
        else
            return bad(c, w, "expected \"start\" or \"end\"");
    }
    if ((v = json_object_get(o, "lane"))) {
        snprintf(w, sizeof w, "%s.lane", where);
        if (!str_of(c, v, w, &e->lane))
            return false;
    }
    e->trace = trace;
    if ((v = json_object_get(o, "trace"))) {
        snprintf(w, sizeof w, "%s.trace", where);
        if (!str_of(c, v, w, &e->trace))
            return false;
    }
    if ((v = json_object_get(o, "offset"))) {
        snprintf(w, sizeof w, "%s.offset", where);
        if (!time_of(c, v, w, &e->offset_ns))
            return false;
    }
    return true;
}

static bool color_of(struct ctx *c, const json_t *v, const char *where, uint32_t *rgb)
{
    const char *s = json_is_string(v) ? json_string_value(v) : "";
    if (*s == '#')
        s++;
    if (strlen(s) != 6 || strspn(s, "0123456789abcdefABCDEF") != 6)
        return bad(c, where, "expected a colour #RRGGBB");
    *rgb = (uint32_t)strtoul(s, NULL, 16);
    return true;
}

static bool mark_of(struct ctx *c, const json_t *o, size_t i, struct tf_mark_spec *m)
{
    memset(m, 0, sizeof *m);
    char where[64], w[160];
    snprintf(where, sizeof where, "[%zu]", i);
    if (!json_is_object(o)) {
        char what[80];
        snprintf(what, sizeof what, "expected a mark object, got %s", tf_jtype(o));
        return bad(c, where, what);
    }
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)o, key, v) {
        static const char *const known[] = {"kind", "from", "to", "text", "events", "color",
                                            "trace"};
        bool ok = false;
        for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
            ok = ok || strcmp(key, known[k]) == 0;
        if (!ok) {
            snprintf(w, sizeof w, "%s.%.60s", where, key);
            return bad(c, w, "unknown key (kind, from, to, text, events, color, trace)");
        }
    }
    snprintf(w, sizeof w, "%s.kind", where);
    const json_t *kind = json_object_get(o, "kind");
    const char *ks = json_is_string(kind) ? json_string_value(kind) : "";
    size_t k = 0;
    while (k < TF_MARK_KINDS && strcmp(ks, tf_mark_kind_names[k]) != 0)
        k++;
    if (k == TF_MARK_KINDS)
        return bad(c, w, "expected \"span\", \"measure\", \"callout\", \"region\" or "
                         "\"highlight\"");
    m->kind = (enum tf_mark_kind)k;
    char wh[300];
    snprintf(wh, sizeof wh, "%s: %s", c->file, where);
    if (!(m->where = tf_arena_strdup(c->a, wh)))
        return tf_diag_oom(c->d, c->file);
    if ((v = json_object_get(o, "text"))) {
        snprintf(w, sizeof w, "%s.text", where);
        if (!str_of(c, v, w, &m->text))
            return false;
    }
    if ((v = json_object_get(o, "color"))) {
        snprintf(w, sizeof w, "%s.color", where);
        if (!color_of(c, v, w, &m->color))
            return false;
        m->has_color = true;
    }
    const char *trace = NULL;
    if ((v = json_object_get(o, "trace"))) {
        snprintf(w, sizeof w, "%s.trace", where);
        if (!str_of(c, v, w, &trace))
            return false;
    }
    if (m->kind == TF_MARK_HIGHLIGHT) {
        const json_t *ev = json_object_get(o, "events");
        snprintf(w, sizeof w, "%s.events", where);
        if (!json_is_array(ev) || json_array_size(ev) == 0)
            return bad(c, w, "expected an array of event name globs");
        size_t n = json_array_size(ev);
        const char **g = tf_arena_alloc(c->a, n * sizeof *g);
        if (!g)
            return tf_diag_oom(c->d, c->file);
        for (size_t j = 0; j < n; j++) {
            snprintf(w, sizeof w, "%s.events[%zu]", where, j);
            if (!str_of(c, json_array_get(ev, j), w, &g[j]))
                return false;
        }
        m->globs = g;
        m->n_globs = n;
        return true;
    }
    const json_t *from = json_object_get(o, "from"), *to = json_object_get(o, "to");
    snprintf(w, sizeof w, "%s.from", where);
    if (!from)
        return bad(c, w, "missing");
    if (!end_of(c, from, w, trace, &m->from))
        return false;
    if (m->kind == TF_MARK_CALLOUT || !to) {
        if (m->from.is_time)
            return bad(c, w, m->kind == TF_MARK_CALLOUT ? "a callout names an event"
                                                        : "a time alone spans nothing: give \"to\"");
        m->to = m->from;
        if (m->kind != TF_MARK_CALLOUT && m->from.edge != TF_EDGE_DEFAULT)
            return bad(c, w, "an edge alone spans nothing: give \"to\"");
        return true;
    }
    snprintf(w, sizeof w, "%s.to", where);
    return end_of(c, to, w, trace, &m->to);
}

bool tf_load_marks(const char *path, const char *json, struct tf_arena *a,
                   struct tf_mark_spec **v, size_t *n, size_t *cap, struct tf_diag *d)
{
    struct ctx c = {tf_diag_name(path), a, d};
    json_t *root;
    if (json) {
        json_error_t err;
        root = json_loads(json, JSON_REJECT_DUPLICATES, &err);
        if (!root)
            return tf_diag_error(d, TF_EBADINPUT, "%s:%d:%d: %s", c.file, err.line, err.column,
                                 err.text);
    } else {
        FILE *fp = strcmp(path, "-") == 0 ? NULL : fopen(path, "rb");
        if (!fp)
            return tf_diag_error(d, TF_EIO, "%s: %s", c.file,
                                 strcmp(path, "-") == 0 ? "a marks file is read from a file"
                                                        : strerror(errno));
        root = tf_parse_file(fp, path, d);
        fclose(fp);
        if (!root)
            return false;
    }
    bool ok = true;
    if (!json_is_array(root)) {
        ok = tf_diag_error(d, TF_EBADINPUT, "%s: expected an array of marks, got %s", c.file,
                           tf_jtype(root));
    }
    for (size_t i = 0; ok && i < json_array_size(root); i++) {
        struct tf_mark_spec m;
        ok = mark_of(&c, json_array_get(root, i), i, &m);
        if (ok && !TF_GROW(*v, *n, *cap))
            ok = tf_diag_oom(d, c.file);
        if (ok)
            (*v)[(*n)++] = m;
    }
    json_decref(root);
    return ok;
}
