/* chrome.c - Chrome trace events into the mode's sink; see chrome.h. */
#include "load/chrome.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/hash.h"

const char *const tf_chrome_field_names[TF_CHROME_N_FIELDS] = {"ph", "name"};

struct frame {
    size_t idx;
    double ts;
    uint32_t name_hash;
    unsigned tag; /* what the mode wants of it; 0: nothing */
};

struct thread {
    char *key;
    struct frame *st;
    size_t n, cap;
};

struct tf_chrome {
    const char *file;
    const struct tf_chrome_sink *sink;
    struct thread *th;
    size_t n_th, cap_th;
    size_t n_unmatched_end, n_name_mismatch;
};

struct tf_chrome *tf_load_chrome_new(const char *file, const struct tf_chrome_sink *sink)
{
    struct tf_chrome *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->file = file;
    c->sink = sink;
    return c;
}

void tf_load_chrome_free(struct tf_chrome *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n_th; i++) {
        free(c->th[i].key);
        free(c->th[i].st);
    }
    free(c->th);
    free(c);
}

static unsigned wants(const struct tf_chrome *c, const char *name, size_t len)
{
    return c->sink->wants ? c->sink->wants(c->sink->ctx, name, len) : 0;
}

/* The sink's errors name the file. */
static bool sink_slice(struct tf_chrome *c, unsigned tag, size_t idx, double ts, double dur,
                       bool is_x, struct tf_diag *d)
{
    if (!c->sink->slice || c->sink->slice(c->sink->ctx, tag, idx, ts, dur, is_x, d))
        return true;
    tf_diag_prefix(d, c->file);
    return false;
}

/* --- threads (for B/E) -------------------------------------------------- */

/* "pid|tid" with each id typed, so 1 and "1" differ. */
static void id_text(const json_t *v, char *out, size_t n)
{
    if (json_is_integer(v))
        snprintf(out, n, "i%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        snprintf(out, n, "r%.17g", json_real_value(v));
    else if (json_is_string(v))
        snprintf(out, n, "s%s", json_string_value(v));
    else
        snprintf(out, n, "-");
}

static struct thread *thread_of(struct tf_chrome *c, const json_t *e, bool create,
                                struct tf_diag *d)
{
    char pid[200], tid[200], key[402];
    id_text(json_object_get(e, "pid"), pid, sizeof pid);
    id_text(json_object_get(e, "tid"), tid, sizeof tid);
    snprintf(key, sizeof key, "%s|%s", pid, tid);
    for (size_t i = 0; i < c->n_th; i++)
        if (strcmp(c->th[i].key, key) == 0)
            return &c->th[i];
    if (!create)
        return NULL;
    char *k = strdup(key);
    if (!k || !TF_GROW(c->th, c->n_th, c->cap_th)) {
        free(k);
        tf_diag_oom(d, c->file);
        return NULL;
    }
    struct thread *t = &c->th[c->n_th++];
    memset(t, 0, sizeof *t);
    t->key = k;
    return t;
}

/* --- one event ---------------------------------------------------------- */

static bool get_time(const json_t *e, const char *key, size_t idx, const char *file,
                     double *out, struct tf_diag *d)
{
    char where[64];
    snprintf(where, sizeof where, "traceEvents[%zu].%s", idx, key);
    return tf_jtime(json_object_get(e, key), file, where, out, d);
}

static bool present(const json_t *e, const char *key)
{
    const json_t *v = json_object_get(e, key);
    return v && !json_is_null(v);
}

bool tf_load_chrome_json(struct tf_chrome *c, const json_t *e, size_t idx, struct tf_diag *d)
{
    if (!json_is_object(e))
        return tf_diag_error(d, TF_EBADINPUT, "%s: traceEvents[%zu]: expected an object, got %s",
                             c->file, idx, tf_jtype(e));
    const json_t *ph = json_object_get(e, "ph");
    if (!json_is_string(ph) || json_string_length(ph) != 1)
        return true;
    char p = json_string_value(ph)[0];
    const json_t *name = json_object_get(e, "name");
    const char *nm = json_is_string(name) ? json_string_value(name) : NULL;
    size_t nlen = nm ? json_string_length(name) : 0;
    unsigned tag = nm ? wants(c, nm, nlen) : 0;

    if (p == 'X') {
        if (!tag)
            return true;
        if (!present(e, "ts") || !present(e, "dur")) {
            if (!(tag & TF_WANT_REQUIRED))
                return true; /* the reference skips these */
            return tf_diag_error(d, TF_EBADINPUT, "%s: traceEvents[%zu].%s: missing (%s)",
                                 c->file, idx, present(e, "ts") ? "dur" : "ts", nm);
        }
        double ts, dur;
        if (!get_time(e, "ts", idx, c->file, &ts, d) ||
            !get_time(e, "dur", idx, c->file, &dur, d))
            return false;
        return sink_slice(c, tag, idx, ts, dur, true, d);
    }
    if (p == 'B') {
        struct thread *t = thread_of(c, e, true, d);
        if (!t)
            return false;
        struct frame fr = {idx, 0.0, nm ? tf_fnv1a(nm, nlen) : 0, tag};
        if (tag && !get_time(e, "ts", idx, c->file, &fr.ts, d))
            return false;
        if (!TF_GROW(t->st, t->n, t->cap))
            return tf_diag_oom(d, c->file);
        t->st[t->n++] = fr;
        return true;
    }
    if (p == 'E') {
        struct thread *t = thread_of(c, e, false, d);
        if (!t || t->n == 0) {
            c->n_unmatched_end++;
            return true;
        }
        struct frame fr = t->st[--t->n];
        if (nm && tf_fnv1a(nm, nlen) != fr.name_hash)
            c->n_name_mismatch++;
        if (!fr.tag)
            return true;
        double ts;
        if (!get_time(e, "ts", idx, c->file, &ts, d))
            return false;
        return sink_slice(c, fr.tag, fr.idx, fr.ts, ts - fr.ts, false, d);
    }
    return true;
}

bool tf_load_chrome_scanned(struct tf_chrome *c, const unsigned char *data, size_t len,
                            const struct tf_scan_field *f, size_t idx, struct tf_diag *d)
{
    if (data[0] == '{') {
        const struct tf_scan_field *ph = &f[TF_CHROME_F_PH], *nm = &f[TF_CHROME_F_NAME];
        if (ph->type != TF_JT_STRING)
            return true;
        if (!ph->escaped) {
            if (ph->len != 1)
                return true;
            char p = (char)data[ph->off];
            if (p == 'X') {
                if (nm->type != TF_JT_STRING)
                    return true;
                if (!nm->escaped && !wants(c, (const char *)data + nm->off, nm->len))
                    return true;
            } else if (p != 'B' && p != 'E') {
                return true;
            }
        }
    }
    json_error_t err;
    json_t *e = json_loadb((const char *)data, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY,
                           &err);
    if (!e)
        return tf_diag_error(d, TF_EBADINPUT, "%s: traceEvents[%zu]: %s", c->file, idx,
                             err.text);
    bool ok = tf_load_chrome_json(c, e, idx, d);
    json_decref(e);
    return ok;
}

bool tf_load_chrome_finish(struct tf_chrome *c, struct tf_diag *d)
{
    if (c->sink->finish && !c->sink->finish(c->sink->ctx, d)) {
        tf_diag_prefix(d, c->file);
        return false;
    }
    size_t open = 0;
    for (size_t i = 0; i < c->n_th; i++)
        open += c->th[i].n;
    if (open)
        tf_diag_warn(d, "%s: %zu B event%s never closed by an E event; ignored", c->file, open,
                     open == 1 ? "" : "s");
    if (c->n_unmatched_end)
        tf_diag_warn(d, "%s: %zu E event%s without an open B event; ignored", c->file,
                     c->n_unmatched_end, c->n_unmatched_end == 1 ? "" : "s");
    if (c->n_name_mismatch)
        tf_diag_warn(d, "%s: %zu E event%s named unlike the B event they close", c->file,
                     c->n_name_mismatch, c->n_name_mismatch == 1 ? "" : "s");
    return true;
}
