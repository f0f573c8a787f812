/* load_chrome.c - legacy PyTorch Chrome traces (Trace Event Format) into
 * struct tf_pytorch: the Candidate_Eval_N window event and the I/O and
 * compute blocks plot_pytorch_trace draws.
 *
 * Accepted forms: an object with "traceEvents" (other keys ignored, among
 * them "displayTimeUnit", which per the format only changes how viewers
 * display times: ts and dur stay microseconds), or a bare top-level array
 * of events.  Complete events ("ph": "X", ts + dur) and B/E pairs (an E
 * closes the innermost open B of the same pid/tid; pids and tids may be
 * numbers or strings) make blocks; metadata ("M") and every other phase are
 * ignored.  A B/E pair counts at the position of its B.  Timestamps may be
 * fractional.
 *
 * Blocks: names containing POSIX_Lustre_Read, or exactly IO_Wait_For_GPU,
 * are I/O; names containing Math_Operations or H2D_Transfer are compute.
 * The window is the first (in file order) complete event named exactly
 * Candidate_Eval_N, N from --start_candidate (default 0); a trace without
 * one may mark it with a B/E pair (the first counts).  Events without ts
 * or dur are skipped, as the reference does; a wrong type is an error.
 *
 * Memory: once the window is known, blocks far from it are dropped as they
 * come; before that every block is kept (they are small).
 */
#include "load_stream.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const tf_chrome_field_names[TF_CHROME_N_FIELDS] = {"ph", "name"};

struct rec {
    size_t idx;
    double ts, dur;
    unsigned char kind;
};

struct frame {
    size_t idx;
    double ts;
    uint32_t name_hash;
    unsigned char kind; /* 0: not a block */
    bool win;
};

struct thread {
    char *key;
    struct frame *st;
    size_t n, cap;
};

struct tf_chrome {
    const char *file;
    char win_name[40];
    bool found;
    bool win_x;   /* the window is a complete (X) event: final, prune by it */
    long long n;  /* the N of Candidate_Eval_N */
    size_t win_idx;
    double win_ts, win_dur;
    struct rec *recs;
    size_t n_recs, cap_recs;
    struct thread *th;
    size_t n_th, cap_th;
    size_t n_open_win; /* open B events named like the window */
    size_t n_unmatched_end, n_name_mismatch;
};

struct tf_chrome *tf_chrome_new(const char *file, const struct tf_load_opts *opts)
{
    struct tf_chrome *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->file = file;
    c->n = opts && opts->start_candidate.set ? opts->start_candidate.v : 0;
    snprintf(c->win_name, sizeof c->win_name, "Candidate_Eval_%lld", c->n);
    return c;
}

void tf_chrome_free(struct tf_chrome *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n_th; i++) {
        free(c->th[i].key);
        free(c->th[i].st);
    }
    free(c->th);
    free(c->recs);
    free(c);
}

/* --- names -------------------------------------------------------------- */

static bool contains(const char *p, size_t n, const char *lit)
{
    size_t m = strlen(lit);
    for (size_t i = 0; i + m <= n; i++)
        if (p[i] == lit[0] && memcmp(p + i, lit, m) == 0)
            return true;
    return false;
}

static bool equals(const char *p, size_t n, const char *lit)
{
    return strlen(lit) == n && memcmp(p, lit, n) == 0;
}

/* The block kind of an event name, or 0. */
static unsigned char classify(const char *p, size_t n)
{
    if (contains(p, n, "POSIX_Lustre_Read") || equals(p, n, "IO_Wait_For_GPU"))
        return TF_PT_IO;
    if (contains(p, n, "Math_Operations") || contains(p, n, "H2D_Transfer"))
        return TF_PT_COMPUTE;
    return 0;
}

static uint32_t name_hash(const char *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 16777619u;
    return h;
}

/* --- blocks and the window ---------------------------------------------- */

/* Whether a block may be drawn with the current window: a superset of the
 * rule in pytorch.c (a little slack keeps rounding on the safe side). */
static bool near_window(const struct tf_chrome *c, double ts, double dur)
{
    double w0 = c->win_ts - c->win_dur * 0.02, w1 = c->win_ts + c->win_dur * 1.05;
    double lo = w0 < w1 ? w0 : w1, hi = w0 < w1 ? w1 : w0;
    double slack = 1.0 + 1e-3 * (hi - lo);
    return ts + dur >= lo - slack && ts <= hi + slack;
}

static void prune(struct tf_chrome *c)
{
    if (!c->win_x || c->n_open_win > 0)
        return;
    size_t k = 0;
    for (size_t i = 0; i < c->n_recs; i++)
        if (near_window(c, c->recs[i].ts, c->recs[i].dur))
            c->recs[k++] = c->recs[i];
    c->n_recs = k;
}

/* The window is the first complete (X) event named Candidate_Eval_N, as in
 * the reference; only when there is none does the first B/E pair of that
 * name count.  Blocks are pruned only by an X window, which is final. */
static bool record(struct tf_chrome *c, size_t idx, double ts, double dur, unsigned char kind,
                   bool win, bool is_x, struct tf_diag *d)
{
    bool better = !c->found || (is_x && !c->win_x) || (is_x == c->win_x && idx < c->win_idx);
    if (win && better) {
        c->found = true;
        c->win_x = is_x;
        c->win_idx = idx;
        c->win_ts = ts;
        c->win_dur = dur;
        prune(c);
    }
    if (!kind)
        return true;
    if (c->win_x && c->n_open_win == 0 && !near_window(c, ts, dur))
        return true;
    if (c->n_recs == c->cap_recs) {
        size_t cap = c->cap_recs ? c->cap_recs * 2 : 256;
        struct rec *p = realloc(c->recs, cap * sizeof *p);
        if (!p)
            return tf_diag_error(d, TF_EIO, "%s: out of memory", c->file);
        c->recs = p;
        c->cap_recs = cap;
    }
    c->recs[c->n_recs++] = (struct rec){idx, ts, dur, kind};
    return true;
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
    if (c->n_th == c->cap_th) {
        size_t cap = c->cap_th ? c->cap_th * 2 : 16;
        struct thread *p = realloc(c->th, cap * sizeof *p);
        if (!p) {
            tf_diag_error(d, TF_EIO, "%s: out of memory", c->file);
            return NULL;
        }
        c->th = p;
        c->cap_th = cap;
    }
    struct thread *t = &c->th[c->n_th];
    memset(t, 0, sizeof *t);
    t->key = malloc(strlen(key) + 1);
    if (!t->key) {
        tf_diag_error(d, TF_EIO, "%s: out of memory", c->file);
        return NULL;
    }
    strcpy(t->key, key);
    c->n_th++;
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

bool tf_chrome_add_json(struct tf_chrome *c, const json_t *e, size_t idx, struct tf_diag *d)
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
    unsigned char kind = nm ? classify(nm, nlen) : 0;
    bool win = nm && equals(nm, nlen, c->win_name);

    if (p == 'X') {
        if (!kind && !win)
            return true;
        if (!present(e, "ts") || !present(e, "dur")) {
            if (!win)
                return true; /* the reference skips these */
            return tf_diag_error(d, TF_EBADINPUT, "%s: traceEvents[%zu].%s: missing (%s)",
                                 c->file, idx, present(e, "ts") ? "dur" : "ts", c->win_name);
        }
        double ts, dur;
        if (!get_time(e, "ts", idx, c->file, &ts, d) ||
            !get_time(e, "dur", idx, c->file, &dur, d))
            return false;
        return record(c, idx, ts, dur, kind, win, true, d);
    }
    if (p == 'B') {
        struct thread *t = thread_of(c, e, true, d);
        if (!t)
            return false;
        struct frame fr = {idx, 0.0, nm ? name_hash(nm, nlen) : 0, kind, win};
        if ((kind || win) && !get_time(e, "ts", idx, c->file, &fr.ts, d))
            return false;
        if (t->n == t->cap) {
            size_t cap = t->cap ? t->cap * 2 : 8;
            struct frame *q = realloc(t->st, cap * sizeof *q);
            if (!q)
                return tf_diag_error(d, TF_EIO, "%s: out of memory", c->file);
            t->st = q;
            t->cap = cap;
        }
        t->st[t->n++] = fr;
        if (win)
            c->n_open_win++;
        return true;
    }
    if (p == 'E') {
        struct thread *t = thread_of(c, e, false, d);
        if (!t || t->n == 0) {
            c->n_unmatched_end++;
            return true;
        }
        struct frame fr = t->st[--t->n];
        if (nm && name_hash(nm, nlen) != fr.name_hash)
            c->n_name_mismatch++;
        if (fr.win)
            c->n_open_win--;
        if (!fr.kind && !fr.win)
            return true;
        double ts;
        if (!get_time(e, "ts", idx, c->file, &ts, d))
            return false;
        if (!record(c, fr.idx, fr.ts, ts - fr.ts, fr.kind, fr.win, false, d))
            return false;
        if (fr.win)
            prune(c);
        return true;
    }
    return true;
}

bool tf_chrome_add_scanned(struct tf_chrome *c, const unsigned char *data, size_t len,
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
                if (!nm->escaped) {
                    const char *s = (const char *)data + nm->off;
                    if (!classify(s, nm->len) && !equals(s, nm->len, c->win_name))
                        return true;
                }
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
    bool ok = tf_chrome_add_json(c, e, idx, d);
    json_decref(e);
    return ok;
}

static int by_idx(const void *a, const void *b)
{
    const struct rec *x = a, *y = b;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

bool tf_chrome_finish(struct tf_chrome *c, struct tf_pytorch *out, struct tf_diag *d)
{
    if (!c->found)
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: no complete event named %s: it marks the window to plot "
                             "(choose another with --start-candidate)",
                             c->file, c->win_name);
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
    prune(c);
    /* B/E pairs complete late: put every block at the place of its start. */
    if (c->n_recs > 1)
        qsort(c->recs, c->n_recs, sizeof *c->recs, by_idx);
    out->found = true;
    out->candidate = c->n;
    out->win_ts_us = c->win_ts;
    out->win_dur_us = c->win_dur;
    for (size_t i = 0; i < c->n_recs; i++) {
        struct tf_pt_block b = {c->recs[i].ts, c->recs[i].dur, c->recs[i].kind};
        if (!tf_pytorch_push(out, &b))
            return tf_diag_error(d, TF_EIO, "%s: out of memory", c->file);
    }
    return true;
}

bool tf_chrome_from_json(const json_t *root, const char *file, const struct tf_load_opts *opts,
                         struct tf_pytorch *out, struct tf_diag *d)
{
    const json_t *events = root;
    if (json_is_object(root)) {
        events = json_object_get(root, "traceEvents");
        if (!events)
            return tf_diag_error(d, TF_EBADINPUT, "%s: traceEvents: missing", file);
        if (!json_is_array(events))
            return tf_diag_error(d, TF_EBADINPUT, "%s: traceEvents: expected an array, got %s",
                                 file, tf_jtype(events));
    }
    struct tf_chrome *c = tf_chrome_new(file, opts);
    if (!c)
        return tf_diag_error(d, TF_EIO, "%s: out of memory", file);
    bool ok = true;
    size_t i;
    const json_t *e;
    json_array_foreach(events, i, e) {
        if (!(ok = tf_chrome_add_json(c, e, i, d)))
            break;
    }
    ok = ok && tf_chrome_finish(c, out, d);
    tf_chrome_free(c);
    return ok;
}

bool tf_load_chrome(FILE *f, const char *path, const struct tf_load_opts *opts,
                    struct tf_pytorch *out, struct tf_diag *d)
{
    json_t *root = tf_parse_file(f, path, d);
    if (!root)
        return false;
    bool ok = tf_chrome_from_json(root, tf_diag_name(path), opts, out, d);
    json_decref(root);
    return ok;
}
