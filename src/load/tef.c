/* tef.c - Chrome trace events for the generic mode; see tef.h.
 *
 * IMPLEMENTATION NOTES
 *
 * Times.  ts and dur are microseconds, often with nanosecond digits
 * ("1682725897226747.123"); they are read as exact integers of nanoseconds
 * (jsonlite.h), so clipping, sorting and the overlap statistics need no
 * floating point and never lose the last digit.  |ts| up to about 9.2e15 us
 * (the year 2262) fits.  A string holding a JSON number ("100", "50.5") is
 * read as that number, as Perfetto's importer does (counted, one warning);
 * any other string is an error.  An X event without dur has no extent and
 * is dropped (counted, one warning).
 *
 * Ids.  A pid or tid is a number or a string; a string that holds an
 * integer as programs print it ("5555", "-1") is that number, so the CPU
 * slices PyTorch 1.9 writes under tid "5555" and its instants under 5555
 * meet on one thread.  An event without tid is on its process's main
 * thread (tid = pid).  An async event needs an id ("id", or "id2" with
 * "local" or "global"); one without is dropped (counted, one warning).
 *
 * Threads.  B/E events pair per (pid, tid), through a hash table of
 * threads; each thread has a stack of open B events.  In pass 1 a frame
 * keeps the B's time and name; in pass 2 also its category, args, colour
 * and v2 flow, for the record of the pair, which also says how deep the B
 * was on its stack (the mode's rows use it: a pair is emitted at its E, so
 * a parent comes after its children).  An E closes the innermost B of its
 * thread whatever its name (a different name is counted and reported
 * once); an E with no open B is dropped; a B never closed becomes a record
 * that runs to the end of the trace (open_end), which the mode cuts at the
 * window's edge.
 *
 * Blocks.  The index holds, per block of TF_TEF_BLOCK elements, where it
 * starts and the interval its timed events cover; a block holding B or E
 * events is always revisited (its pairs may reach into the window from
 * anywhere).  Pass 2 thus reads the window's part of a time-ordered trace
 * and nothing else.
 */
#include "load/tef_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/hash.h"
#include "base/jsonlite.h"
#include "load/ftrace.h"

const char *const tf_tef_field_names[TF_TEF_N_FIELDS] = {
    "ph", "name", "cat", "ts", "dur", "pid", "tid", "args",
    "id", "id2", "cname", "bp", "s", "bind_id", "flow_in", "flow_out",
};
_Static_assert(TF_TEF_N_FIELDS <= TF_SCAN_MAX_FIELDS, "the scanner locates at most 16 members");

void tf_tef_frame_free(struct frame *f)
{
    free(f->name);
    free(f->cat);
    free(f->cname);
    free(f->args);
    free(f->bind_id);
}

/* --- decoding ------------------------------------------------------------ */

/* A string member decoded into b (NUL-terminated); false when absent or
 * not a string. */
static bool get_str(const unsigned char *data, const struct tf_scan_field *f, struct tf_buf *b)
{
    if (f->type != TF_JT_STRING)
        return false;
    if (!f->escaped) {
        tf_buf_clear(b);
        tf_buf_putn(b, (const char *)data + f->off, f->len);
    } else {
        tf_jl_string(data + f->off, f->len, b);
    }
    return !b->oom;
}

/* Whether raw[0 .. n) follows the JSON number grammar. */
static bool json_number(const unsigned char *raw, size_t n)
{
    size_t i = 0;
    if (i < n && raw[i] == '-')
        i++;
    if (i < n && raw[i] == '0')
        i++;
    else if (i < n && raw[i] >= '1' && raw[i] <= '9')
        while (i < n && raw[i] >= '0' && raw[i] <= '9')
            i++;
    else
        return false;
    if (i < n && raw[i] == '.') {
        size_t k = ++i;
        while (i < n && raw[i] >= '0' && raw[i] <= '9')
            i++;
        if (i == k)
            return false;
    }
    if (i < n && (raw[i] == 'e' || raw[i] == 'E')) {
        i++;
        if (i < n && (raw[i] == '+' || raw[i] == '-'))
            i++;
        size_t k = i;
        while (i < n && raw[i] >= '0' && raw[i] <= '9')
            i++;
        if (i == k)
            return false;
    }
    return i == n;
}

/* A time member (us) as nanoseconds: a number, or a string holding one
 * ("100", "50.5": Perfetto reads them; counted for one warning).  *has
 * false when absent or null; false with a message for another type, a
 * string that is no number, or a value out of range. */
static bool get_time(struct tf_tef *t, const unsigned char *data, const struct tf_scan_field *f,
                     const char *key, size_t idx, int64_t *ns, bool *has, struct tf_diag *d)
{
    *has = false;
    if (f->type == TF_JT_NONE || f->type == TF_JT_NULL)
        return true;
    const unsigned char *raw = data + f->off;
    size_t n = f->len;
    if (f->type == TF_JT_STRING) {
        if (f->escaped) {
            if (!get_str(data, f, &t->tmp))
                return tf_diag_oom(d, t->file);
            raw = (const unsigned char *)t->tmp.data;
            n = t->tmp.len;
        }
        if (!json_number(raw, n))
            return tf_diag_error(d, TF_EBADINPUT,
                                 "%s: traceEvents[%zu].%s: expected a number, got a string "
                                 "that is not one",
                                 t->file, idx, key);
        if (t->pass == 1)
            t->n_str_time++;
    } else if (f->type != TF_JT_NUMBER) {
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: traceEvents[%zu].%s: expected a number, got %s", t->file, idx,
                             key, tf_jtok_name(f->type));
    }
    if (!tf_jl_fixed(raw, n, 3, ns) || *ns > TF_TEF_MAX_NS || *ns < -TF_TEF_MAX_NS)
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: traceEvents[%zu].%s: out of range (|value| > 4e15 us)", t->file,
                             idx, key);
    *has = true;
    return true;
}

/* Whether s (n bytes) is an integer as a program would print it: "5555",
 * "-1", "0"; not "05", "+5", "-0", " 5" or beyond 64 bits. */
static bool decimal_int(const char *s, size_t n, long long *v)
{
    size_t i = s[0] == '-';
    if (n == i || n - i > 19 || s[i] < '0' || s[i] > '9' || (s[i] == '0' && n - i > 1) ||
        (i && s[i] == '0'))
        return false;
    for (size_t k = i; k < n; k++)
        if (s[k] < '0' || s[k] > '9')
            return false;
    int64_t x;
    if (!tf_jl_fixed((const unsigned char *)s, n, 0, &x))
        return false;
    *v = (long long)x;
    return true;
}

/* A pid or tid: a number (an integer; other numbers by their text) or a
 * string, decoded into b.  A string holding an integer names what the
 * number names ("5555" is 5555: PyTorch 1.9 writes one thread both ways,
 * and trace viewers take them as one), so it becomes that number. */
static void get_id(const unsigned char *data, const struct tf_scan_field *f, struct tf_buf *b,
                   struct tf_id *id)
{
    memset(id, 0, sizeof *id);
    if (f->type == TF_JT_NUMBER) {
        int64_t v;
        if (f->is_int && tf_jl_fixed(data + f->off, f->len, 0, &v)) {
            id->kind = TF_ID_NUM;
            id->num = (long long)v;
            return;
        }
        tf_buf_clear(b);
        tf_buf_putn(b, (const char *)data + f->off, f->len);
        id->kind = TF_ID_STR;
        id->str = b->data;
    } else if (get_str(data, f, b)) {
        long long v;
        if (b->len && decimal_int(b->data, b->len, &v)) {
            id->kind = TF_ID_NUM;
            id->num = v;
            return;
        }
        id->kind = TF_ID_STR;
        id->str = b->data;
    }
}

/* get_id through the memo of its last call with buffer b (which only get_id
 * writes, so a string id it gave still holds there). */
static void get_id_memo(const unsigned char *data, const struct tf_scan_field *f,
                        struct tf_buf *b, struct id_memo *m, struct tf_id *id)
{
    bool keep = f->type != TF_JT_NONE && f->len <= ID_MEMO_BYTES;
    if (keep && m->valid && m->type == f->type && m->escaped == f->escaped && m->len == f->len &&
        memcmp(m->text, data + f->off, f->len) == 0) {
        *id = m->id;
        if (id->kind == TF_ID_STR)
            id->str = b->data;
        return;
    }
    get_id(data, f, b, id);
    m->valid = keep && !b->oom;
    if (m->valid) {
        m->type = f->type;
        m->escaped = f->escaped;
        m->len = f->len;
        memcpy(m->text, data + f->off, f->len);
        m->id = *id;
    }
}

/* The bytes of a located member's value, strings with their quotes (as
 * tf_jl_get gives them); NULL when absent. */
static const unsigned char *fval(const unsigned char *data, const struct tf_scan_field *f,
                                 size_t *vl)
{
    if (f->type == TF_JT_NONE)
        return NULL;
    if (f->type == TF_JT_STRING) {
        *vl = f->len + 2;
        return data + f->off - 1;
    }
    *vl = f->len;
    return data + f->off;
}

/* A string member, decoded into b; NULL when absent or not a string. */
static const char *field_str(const unsigned char *data, const struct tf_scan_field *f,
                             struct tf_buf *b)
{
    if (f->type != TF_JT_STRING)
        return NULL;
    tf_jl_string(data + f->off, f->len, b);
    return b->oom ? NULL : b->data;
}

/* An async or flow id: "id", or "id2" {"local"|"global"}, as text. */
static const char *get_async_id(const unsigned char *data, const struct tf_scan_field *f,
                                struct tf_buf *b)
{
    size_t vl;
    const unsigned char *v =
        f[TF_TEF_F_ID].type == TF_JT_NULL ? NULL : fval(data, &f[TF_TEF_F_ID], &vl);
    const char *prefix = "";
    if (!v) {
        const unsigned char *id2 = fval(data, &f[TF_TEF_F_ID2], &vl);
        if (id2 && id2[0] == '{') {
            size_t n2 = vl;
            if ((v = tf_jl_get(id2, n2, "local", &vl)))
                prefix = "local:";
            else if ((v = tf_jl_get(id2, n2, "global", &vl)))
                prefix = "global:";
        }
    }
    if (!v)
        return NULL;
    tf_buf_clear(b);
    tf_buf_puts(b, prefix);
    if (v[0] == '"') {
        struct tf_buf s;
        tf_buf_init(&s);
        tf_jl_string(v + 1, vl - 2, &s);
        tf_buf_puts(b, s.data ? s.data : "");
        tf_buf_fini(&s);
    } else {
        tf_buf_putn(b, (const char *)v, vl);
    }
    return b->oom ? NULL : b->data;
}

/* A counter's "id" as text (a string decoded, a number as written); NULL
 * when absent or of another type. */
static const char *get_counter_id(const unsigned char *data, const struct tf_scan_field *f,
                                  struct tf_buf *b)
{
    if (f->type == TF_JT_STRING)
        return field_str(data, f, b);
    if (f->type != TF_JT_NUMBER)
        return NULL;
    tf_buf_clear(b);
    tf_buf_putn(b, (const char *)data + f->off, f->len);
    return b->oom ? NULL : b->data;
}

static bool get_bool(const struct tf_scan_field *f)
{
    return f->type == TF_JT_TRUE;
}

/* --- threads ------------------------------------------------------------- */

static bool rehash(struct tf_tef *t, size_t cap)
{
    size_t *h = calloc(cap, sizeof *h);
    if (!h)
        return false;
    for (size_t i = 0; i < t->n_th; i++) {
        size_t s = tf_fnv1a(t->th[i].key, strlen(t->th[i].key)) & (cap - 1);
        while (h[s])
            s = (s + 1) & (cap - 1);
        h[s] = i + 1;
    }
    free(t->hash);
    t->hash = h;
    t->hash_cap = cap;
    return true;
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* The thread of (pid, tid), created when new; NULL when out of memory
 * (reported). */
static struct thread *thread_of(struct tf_tef *t, const struct tf_id *pid, const struct tf_id *tid,
                                bool create, struct tf_diag *d)
{
    tf_buf_clear(&t->key);
    tf_id_key(&t->key, pid);
    tf_buf_putc(&t->key, '|');
    tf_id_key(&t->key, tid);
    if (t->key.oom) {
        tf_diag_oom(d, t->file);
        return NULL;
    }
    uint32_t h = tf_fnv1a(t->key.data, t->key.len);
    if (t->hash_cap) {
        for (size_t s = h & (t->hash_cap - 1); t->hash[s]; s = (s + 1) & (t->hash_cap - 1))
            if (strcmp(t->th[t->hash[s] - 1].key, t->key.data) == 0)
                return &t->th[t->hash[s] - 1];
    }
    if (!create)
        return NULL;
    if ((t->n_th + 1) * 2 > t->hash_cap && !rehash(t, t->hash_cap ? t->hash_cap * 2 : 64)) {
        tf_diag_oom(d, t->file);
        return NULL;
    }
    if (!TF_GROW(t->th, t->n_th, t->cap_th)) {
        tf_diag_oom(d, t->file);
        return NULL;
    }
    struct thread *th = &t->th[t->n_th];
    memset(th, 0, sizeof *th);
    th->key = strdup(t->key.data);
    th->pid = *pid;
    th->tid = *tid;
    th->pid_str = pid->kind == TF_ID_STR ? dup_or_null(pid->str) : NULL;
    th->tid_str = tid->kind == TF_ID_STR ? dup_or_null(tid->str) : NULL;
    if (!th->key || (pid->kind == TF_ID_STR && !th->pid_str) ||
        (tid->kind == TF_ID_STR && !th->tid_str)) {
        free(th->key);
        free(th->pid_str);
        free(th->tid_str);
        tf_diag_oom(d, t->file);
        return NULL;
    }
    th->pid.str = th->pid_str;
    th->tid.str = th->tid_str;
    size_t s = h & (t->hash_cap - 1);
    while (t->hash[s])
        s = (s + 1) & (t->hash_cap - 1);
    t->hash[s] = ++t->n_th;
    return th;
}

/* --- records ------------------------------------------------------------- */

static void block_time(struct tf_tef *t, int64_t lo, int64_t hi)
{
    if (t->pass != 1 || t->n_blocks == 0)
        return;
    struct block *b = &t->blocks[t->n_blocks - 1];
    if (!b->timed || lo < b->lo)
        b->lo = lo;
    if (!b->timed || hi > b->hi)
        b->hi = hi;
    b->timed = true;
}

/* Hands a record to the sink: all of them in pass 1, those reaching into
 * the window in pass 2. */
static bool emit(struct tf_tef *t, struct tf_tef_rec *r, struct tf_diag *d)
{
    if (t->pass == 1) {
        if (r->kind != TF_TEF_META && !r->open_end)
            block_time(t, r->ts, r->ts + (r->dur > 0 ? r->dur : 0));
        if (!t->sink->index || t->sink->index(t->sink->ctx, r, d))
            return true;
    } else {
        if (r->kind == TF_TEF_META)
            return true; /* the sink had them in pass 1 */
        /* Counters and instants before the window still reach the sink
         * (tf_tef_sink: blocks). */
        if (r->kind == TF_TEF_SLICE) {
            int64_t end = r->ts + (r->dur > 0 ? r->dur : 0);
            if (r->ts > t->hi || (!r->open_end && end < t->lo))
                return true;
        } else if (r->kind == TF_TEF_INSTANT && r->ts > t->hi) {
            return true;
        }
        if (t->pass == 3 ? t->sink->prepass(t->sink->ctx, r, d)
                         : !t->sink->collect || t->sink->collect(t->sink->ctx, r, d))
            return true;
    }
    if (!tf_diag_failed(d))
        tf_diag_oom(d, t->file);
    else
        tf_diag_prefix(d, t->file);
    return false;
}

static bool push_frame(struct tf_tef *t, struct thread *th, const struct tf_tef_rec *r,
                       struct tf_diag *d)
{
    if (!TF_GROW(th->st, th->n, th->cap))
        return tf_diag_oom(d, t->file);
    struct frame *f = &th->st[th->n];
    memset(f, 0, sizeof *f);
    f->idx = r->idx;
    f->ts = r->ts;
    f->name_hash = tf_fnv1a(r->name, strlen(r->name));
    f->name = strdup(r->name);
    bool ok = f->name != NULL;
    if (t->pass == 2) {
        f->cat = strdup(r->cat ? r->cat : "");
        f->cname = dup_or_null(r->cname);
        ok = ok && f->cat && (!r->cname || f->cname);
        if (r->args) {
            f->args = malloc(r->args_len);
            ok = ok && f->args;
            if (f->args) {
                memcpy(f->args, r->args, r->args_len);
                f->args_len = r->args_len;
            }
        }
        if (r->bind_id) {
            f->bind_id = strdup(r->bind_id);
            ok = ok && f->bind_id;
            f->flow_in = r->flow_in;
            f->flow_out = r->flow_out;
        }
    }
    if (!ok) {
        tf_tef_frame_free(f);
        return tf_diag_oom(d, t->file);
    }
    f->pid = th->pid;
    f->tid = th->tid;
    th->n++;
    return true;
}

/* The record of a frame closed at `end` (or left open). */
bool tf_tef_pop_frame(struct tf_tef *t, struct thread *th, int64_t end, bool open,
                      struct tf_diag *d)
{
    struct frame f = th->st[--th->n];
    struct tf_tef_rec r;
    memset(&r, 0, sizeof r);
    r.kind = TF_TEF_SLICE;
    r.ph = 'B';
    r.idx = f.idx;
    r.pid = f.pid;
    r.tid = f.tid;
    if (f.async) {
        /* The async lane of its process and category. */
        r.kind = TF_TEF_ASYNC;
        r.ph = 'b';
        tf_buf_clear(&t->key);
        tf_buf_printf(&t->key, "async %s", f.cat ? f.cat : "");
        r.tid = (struct tf_id){.kind = TF_ID_STR, .str = t->key.data ? t->key.data : "async"};
    }
    r.name = f.name;
    r.cat = f.cat ? f.cat : "";
    r.cname = f.cname;
    r.args = f.args;
    r.args_len = f.args_len;
    r.bind_id = f.bind_id;
    r.flow_in = f.flow_in;
    r.flow_out = f.flow_out;
    r.depth = f.async ? 0 : (unsigned)th->n + 1;
    r.ts = f.ts;
    r.dur = open ? 0 : end - f.ts;
    r.has_dur = !open;
    r.open_end = open;
    bool ok = emit(t, &r, d);
    tf_tef_frame_free(&f);
    return ok;
}

/* A b, e or n event.  b/e pair per (pid, cat, id): the pairs of one key
 * nest, and an e closes the innermost open b of its name (those above it
 * close with it), as trace viewers do.  n is an instant on the async lane. */
static bool async_event(struct tf_tef *t, struct tf_tef_rec *r, struct tf_diag *d)
{
    const char *cat = r->cat ? r->cat : "";
    if (r->ph == 'n') {
        r->kind = TF_TEF_INSTANT;
        r->scope = 't';
        tf_buf_clear(&t->tmp);
        tf_buf_printf(&t->tmp, "async %s", cat);
        r->tid = (struct tf_id){.kind = TF_ID_STR, .str = t->tmp.data ? t->tmp.data : "async"};
        return emit(t, r, d);
    }
    /* The pairing key as a pseudo thread: (pid, "\x01cat\x01id"). */
    tf_buf_clear(&t->tmp);
    tf_buf_printf(&t->tmp, "\x01%s\x01%s", cat, r->id ? r->id : "");
    if (t->tmp.oom)
        return tf_diag_oom(d, t->file);
    struct tf_id key = {.kind = TF_ID_STR, .str = t->tmp.data};
    struct thread *th = thread_of(t, &r->pid, &key, r->ph == 'b', d);
    if (r->ph == 'b') {
        if (!th)
            return false;
        const char *keep_cat = r->cat;
        r->cat = cat;
        bool ok = push_frame(t, th, r, d);
        r->cat = keep_cat;
        if (ok) {
            th->st[th->n - 1].async = true;
            /* pass 1 frames keep no category: the lane needs it */
            if (!th->st[th->n - 1].cat && !(th->st[th->n - 1].cat = strdup(cat)))
                return tf_diag_oom(d, t->file);
            th->st[th->n - 1].pid = r->pid;
            if (r->pid.kind == TF_ID_STR)
                th->st[th->n - 1].pid = th->pid;
        }
        return ok;
    }
    if (!th || th->n == 0) {
        if (t->pass == 2)
            t->n_unmatched_end++;
        return !tf_diag_failed(d);
    }
    uint32_t h = tf_fnv1a(r->name, strlen(r->name));
    size_t k = th->n;
    while (k > 0 && th->st[k - 1].name_hash != h)
        k--;
    if (k == 0)
        k = th->n; /* no b of that name: close the innermost */
    while (th->n >= k)
        if (!tf_tef_pop_frame(t, th, r->ts, false, d))
            return false;
    return true;
}

/* A member's JSON type as a record gives it (model/trace.h). */
static char json_type(enum tf_jtok k)
{
    return k == TF_JT_NONE ? 0 : k == TF_JT_STRING ? 's' : k == TF_JT_NULL ? 'n' : 'o';
}

static void note_columns(struct tf_tef_columns *c, const struct tf_scan_field *f)
{
    const struct tf_scan_field *ts = &f[TF_TEF_F_TS];
    c->ts |= ts->type != TF_JT_NONE;
    c->dur |= f[TF_TEF_F_DUR].type != TF_JT_NONE;
    c->cat |= f[TF_TEF_F_CAT].type != TF_JT_NONE;
    c->args |= f[TF_TEF_F_ARGS].type != TF_JT_NONE;
    if (!c->ts_float)
        c->ts_float = ts->type == TF_JT_NONE || ts->type == TF_JT_NULL ||
                      (ts->type == TF_JT_NUMBER && !ts->is_int);
}

/* The kind of record an element of phase ph is (a system event's "p" or
 * "t": a name, as an M event); false for the phases that pass quietly. */
static inline bool rec_kind(char ph, bool sys_name, enum tf_tef_kind *kind)
{
    if (sys_name) {
        *kind = TF_TEF_META;
        return true;
    }
    switch (ph) {
    case 'X': *kind = TF_TEF_SLICE; return true;
    case 'B': case 'E': *kind = TF_TEF_SLICE; return true;
    case 'i': case 'I': case 'R': *kind = TF_TEF_INSTANT; return true;
    case 'b': case 'e': case 'n': *kind = TF_TEF_ASYNC; return true;
    case 's': case 't': case 'f': *kind = TF_TEF_FLOW; return true;
    case 'M': *kind = TF_TEF_META; return true;
    case 'C': *kind = TF_TEF_COUNTER; return true;
    default: return false;
    }
}

/* The fields a pass reads of an element: the number tokens and JSON types
 * for HTA (pass 1, when the sink asks), the category, the args where the
 * scanner found them. */
static inline void rec_fields(struct tf_tef *t, const unsigned char *data,
                       const struct tf_scan_field *f, char ph, struct tf_tef_rec *r)
{
    bool hta = t->pass == 1 && t->sink->args_pass1 &&
               (ph == 'X' || f[TF_TEF_F_DUR].type == TF_JT_NUMBER);
    if (hta) {
        const struct tf_scan_field *tsf = &f[TF_TEF_F_TS], *df = &f[TF_TEF_F_DUR];
        if (tsf->type == TF_JT_NUMBER)
            r->ts_tok = data + tsf->off, r->ts_tok_len = tsf->len;
        if (df->type == TF_JT_NUMBER)
            r->dur_tok = data + df->off, r->dur_tok_len = df->len;
        r->name_type = json_type(f[TF_TEF_F_NAME].type);
        r->cat_type = json_type(f[TF_TEF_F_CAT].type);
    }
    /* A flow's category in pass 1 too when the sink reads args there: the
     * critical path joins kernels to launches by ac2g flows. */
    bool flow1 = t->pass == 1 && r->kind == TF_TEF_FLOW && t->sink->args_pass1;
    if (t->pass >= 2 || ph == 'M' || r->kind == TF_TEF_ASYNC || hta || flow1) {
        if (get_str(data, &f[TF_TEF_F_CAT], &t->cat))
            r->cat = t->cat.data;
    }
    if (t->pass >= 2 || ph == 'M' || r->kind == TF_TEF_ASYNC || r->kind == TF_TEF_COUNTER ||
        r->kind == TF_TEF_INSTANT || (ph == 'X' && t->sink->args_pass1)) {
        /* The args are where the scanner found them: no cost until read. */
        const struct tf_scan_field *af = &f[TF_TEF_F_ARGS];
        if (af->type == TF_JT_OBJECT) {
            r->args = data + af->off;
            r->args_len = af->len;
        }
    }
}

/* What only pass 2 reads: the colour name, a flow's id and binding
 * point, a slice's bind_id and flow directions. */
static inline void rec_pass2(struct tf_tef *t, const unsigned char *data, const struct tf_scan_field *f,
                      char ph, struct tf_tef_rec *r)
{
    r->cname = field_str(data, &f[TF_TEF_F_CNAME], &t->cname);
    if (r->kind == TF_TEF_FLOW) {
        r->id = get_async_id(data, f, &t->id);
        size_t vl;
        const unsigned char *bp = fval(data, &f[TF_TEF_F_BP], &vl);
        r->bp = bp && vl == 3 && bp[1] == 'e' ? 'e' : 0;
    }
    if (ph == 'X' || ph == 'B') {
        size_t vl;
        const unsigned char *b = fval(data, &f[TF_TEF_F_BIND_ID], &vl);
        if (b) {
            tf_buf_clear(&t->id);
            if (b[0] == '"') {
                tf_jl_string(b + 1, vl - 2, &t->tmp);
                tf_buf_puts(&t->id, t->tmp.data ? t->tmp.data : "");
            } else {
                tf_buf_putn(&t->id, (const char *)b, vl);
            }
            r->bind_id = t->id.data;
            r->flow_in = get_bool(&f[TF_TEF_F_FLOW_IN]);
            r->flow_out = get_bool(&f[TF_TEF_F_FLOW_OUT]);
        }
    }
}

/* Hands the record over: an async event to its track, B and E to their
 * thread's stack, the rest to the sink. */
static inline bool rec_dispatch(struct tf_tef *t, const struct tf_scan_field *f, char ph,
                         struct tf_tef_rec *r, struct tf_diag *d)
{
    if (r->kind == TF_TEF_ASYNC)
        return async_event(t, r, d);
    if (ph == 'B') {
        struct thread *th = thread_of(t, &r->pid, &r->tid, true, d);
        return th && push_frame(t, th, r, d);
    }
    if (ph == 'E') {
        struct thread *th = thread_of(t, &r->pid, &r->tid, false, d);
        if (!th || th->n == 0) {
            if (t->pass == 2)
                t->n_unmatched_end++;
            return !tf_diag_failed(d);
        }
        struct frame *top = &th->st[th->n - 1];
        if (t->pass == 2 && f[TF_TEF_F_NAME].type == TF_JT_STRING &&
            tf_fnv1a(r->name, strlen(r->name)) != top->name_hash)
            t->n_name_mismatch++;
        return tf_tef_pop_frame(t, th, r->ts, false, d);
    }
    return emit(t, r, d);
}

/* One element, in either pass. */
bool tf_tef_element(struct tf_tef *t, const unsigned char *data,
                    const struct tf_scan_field *f, size_t idx, bool system, struct tf_diag *d)
{
    if (data[0] != '{')
        return tf_diag_error(d, TF_EBADINPUT, "%s: %s[%zu]: expected an object, got %s",
                             t->file, system ? "systemTraceEvents" : "traceEvents", idx,
                             data[0] == '[' ? "an array" : data[0] == '"' ? "a string" : "a "
                                                                                        "value");
    const struct tf_scan_field *phf = &f[TF_TEF_F_PH];
    char ph = 0;
    if (phf->type == TF_JT_STRING && phf->len == 1 && !phf->escaped)
        ph = (char)data[phf->off];
    else if (phf->type == TF_JT_STRING && phf->escaped && get_str(data, phf, &t->tmp) &&
             t->tmp.len == 1)
        ph = t->tmp.data[0];
    /* Among system events, "p" and "t" name a process and a thread (the
     * Fuchsia form); the rest are the system's own. */
    if (t->pass == 3 && ph != 'X' && ph != 's' && ph != 'f')
        return true; /* the sink's look before pass 2: X events and flows only */
    bool sys_name = system && (ph == 'p' || ph == 't');
    if (system && ph != 'M' && !sys_name)
        return true;
    if (t->pass == 1 && !system && t->sink->columns)
        note_columns(t->sink->columns, f);
    struct tf_tef_rec r;
    memset(&r, 0, sizeof r);
    r.ph = ph;
    r.idx = idx;
    if (!rec_kind(ph, sys_name, &r.kind))
        return true; /* the other phases pass quietly */
    bool has_ts = false, has_dur = false;
    if (r.kind != TF_TEF_META) {
        if (!get_time(t, data, &f[TF_TEF_F_TS], "ts", idx, &r.ts, &has_ts, d))
            return false;
        if (!has_ts)
            return true;
    }
    if (ph == 'X' && !get_time(t, data, &f[TF_TEF_F_DUR], "dur", idx, &r.dur, &has_dur, d))
        return false;
    if (ph == 'X' && !has_dur) {
        /* No extent: Perfetto drops it, and so does the figure (counted). */
        if (t->pass == 1)
            t->n_no_dur++;
        return true;
    }
    r.has_dur = has_dur;
    if (r.dur < 0)
        r.dur = 0;
    if (t->pass == 1 && (ph == 'B' || ph == 'E') && t->n_blocks)
        t->blocks[t->n_blocks - 1].pairs = true;
    if (!get_str(data, &f[TF_TEF_F_NAME], &t->name))
        tf_buf_clear(&t->name), tf_buf_puts(&t->name, "");
    r.name = t->name.data ? t->name.data : "";
    get_id_memo(data, &f[TF_TEF_F_PID], &t->pid, &t->pid_memo, &r.pid);
    get_id_memo(data, &f[TF_TEF_F_TID], &t->tid, &t->tid_memo, &r.tid);
    /* No tid: the process's main thread, whose tid is the pid. */
    if (r.tid.kind == TF_ID_NONE)
        r.tid = r.pid;
    rec_fields(t, data, f, ph, &r);
    if (sys_name) {
        /* As the M event that would say it: {"name": <its name>}. */
        const struct tf_scan_field *nf = &f[TF_TEF_F_NAME];
        if (nf->type != TF_JT_STRING)
            return true;
        tf_buf_clear(&t->tmp);
        tf_buf_puts(&t->tmp, "{\"name\":\"");
        tf_buf_putn(&t->tmp, (const char *)data + nf->off, nf->len);
        tf_buf_puts(&t->tmp, "\"}");
        if (t->tmp.oom)
            return tf_diag_oom(d, t->file);
        r.name = ph == 'p' ? "process_name" : "thread_name";
        r.args = (const unsigned char *)t->tmp.data;
        r.args_len = t->tmp.len;
    }
    if (r.kind == TF_TEF_ASYNC) {
        /* Without an id (or an id2 with neither "local" nor "global") an
         * async event belongs to nothing: dropped, as Perfetto does. */
        r.id = get_async_id(data, f, &t->id);
        if (!r.id || !*r.id) {
            if (t->pass == 1)
                t->n_no_async_id++;
            return !t->id.oom || tf_diag_oom(d, t->file);
        }
    }
    if (r.kind == TF_TEF_INSTANT) {
        size_t vl;
        const unsigned char *sc = fval(data, &f[TF_TEF_F_S], &vl);
        r.scope = sc && vl == 3 && (sc[1] == 'g' || sc[1] == 'p') ? (char)sc[1] : 't';
    }
    if (r.kind == TF_TEF_COUNTER)
        r.id = get_counter_id(data, &f[TF_TEF_F_ID], &t->id);
    if (t->pass == 1 && (ph == 'b' || ph == 'e') && t->n_blocks)
        t->blocks[t->n_blocks - 1].pairs = true;
    if (t->pass >= 2 || (r.kind == TF_TEF_FLOW && t->sink->args_pass1))
        rec_pass2(t, data, f, ph, &r);
    return rec_dispatch(t, f, ph, &r, d);
}
