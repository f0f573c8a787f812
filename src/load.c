/* load.c - opening inputs, telling trace kinds apart, the jansson helpers
 * every loader shares, and the driver of the large-input path.  Knows
 * nothing of figure rules.
 *
 * Two ways to read a trace, with the same results:
 *   whole document   jansson parses the file (small regular files, below
 *                    TF_STREAM_MIN_BYTES), then the kind is decided and the
 *                    events converted;
 *   streaming        the scanner (scan.h) validates the file in chunks and
 *                    hands only the elements that can matter to jansson
 *                    (larger files, and pipes, whose size is unknown).
 * TRACEFIG_LOAD=whole or =stream in the environment forces one of them
 * (the tests compare the two).
 *
 * Streaming, in one pass: the top-level keys are read in file order; the
 * metadata values (format, start_candidate, ...) are kept as small jansson
 * values; "traceEvents" elements go to the Chrome collector, "events"
 * elements to the timeline filter.  The kind is decided after the pass by
 * the same rules as the whole-document path.  A timeline's events are
 * filtered to the candidates the rules can use, [x-1, x+N+2]; when x (or N)
 * is not known yet because its metadata comes after "events" (as the
 * profiler writes it), the pass only validates the events and notes where
 * they start, and a second pass over just the events array converts them
 * (x known, N not: the filter is widened to N = 1000, the largest N the
 * rules accept).  A pipe cannot be read twice: then every usable event is
 * converted.
 *
 * Error order: a syntax error anywhere wins (as jansson parses everything
 * first); then the kind and metadata errors, in the whole-document order;
 * then the first event error.  Event errors found during the pass are held
 * back until the end for that reason. */
#include "load_internal.h"
#include "load_stream.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "figure.h" /* TF_DEFAULT_NUM_CANDIDATES */

const char *tf_jtype(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER:
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "something else";
}

FILE *tf_open_input(const char *path, struct tf_diag *d)
{
    if (strcmp(path, "-") == 0)
        return stdin;
    FILE *f = fopen(path, "rb");
    if (!f) {
        tf_diag_error(d, TF_EBADINPUT, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        tf_diag_error(d, TF_EBADINPUT, "%s: cannot read: %s", path, strerror(EISDIR));
        return NULL;
    }
    return f;
}

void tf_close_input(FILE *f)
{
    if (f && f != stdin)
        fclose(f);
}

json_t *tf_parse_file(FILE *f, const char *path, struct tf_diag *d)
{
    json_error_t err;
    json_t *root = json_loadf(f, JSON_REJECT_DUPLICATES, &err);
    if (!root) {
        if (ferror(f))
            tf_diag_error(d, TF_EBADINPUT, "%s: cannot read: %s", tf_diag_name(path),
                          strerror(errno ? errno : EIO));
        else
            tf_diag_error(d, TF_EBADINPUT, "%s:%d:%d: %s", tf_diag_name(path), err.line,
                          err.column, err.text);
    }
    return root;
}

bool tf_jtime(const json_t *v, const char *file, const char *where, double *out,
              struct tf_diag *d)
{
    if (!v)
        return tf_diag_error(d, TF_EBADINPUT, "%s: %s: missing", file, where);
    if (!json_is_number(v))
        return tf_diag_error(d, TF_EBADINPUT, "%s: %s: expected a number, got %s", file, where,
                             tf_jtype(v));
    double x = json_number_value(v);
    if (!isfinite(x) || fabs(x) > TF_MAX_ABS_TIME)
        return tf_diag_error(d, TF_EBADINPUT, "%s: %s: out of range (|value| > 1e18)", file,
                             where);
    *out = x;
    return true;
}

bool tf_jint(const json_t *v, const char *file, const char *where, long long *out,
             struct tf_diag *d)
{
    if (json_is_integer(v)) {
        json_int_t i = json_integer_value(v);
        if (i < -1000000000000000LL || i > 1000000000000000LL)
            return tf_diag_error(d, TF_EBADINPUT, "%s: %s: out of range", file, where);
        *out = (long long)i;
        return true;
    }
    if (json_is_real(v)) {
        double x = json_real_value(v);
        if (isfinite(x) && x == floor(x) && fabs(x) <= 1e15) {
            *out = (long long)x;
            return true;
        }
        return tf_diag_error(d, TF_EBADINPUT, "%s: %s: expected an integer, got %g", file, where,
                             x);
    }
    return tf_diag_error(d, TF_EBADINPUT, "%s: %s: expected an integer, got %s", file, where,
                         tf_jtype(v));
}

bool tf_jopt_int(const json_t *obj, const char *key, const char *file, struct tf_opt_int *out,
                 struct tf_diag *d)
{
    const json_t *v = json_object_get(obj, key);
    out->set = false;
    if (!v || json_is_null(v))
        return true;
    if (!tf_jint(v, file, key, &out->v, d))
        return false;
    out->set = true;
    return true;
}


/* Regular files at least this large are streamed. */
#define TF_STREAM_MIN_BYTES (1L << 20)
/* The largest --num-candidates the rules accept (timeline.c). */
#define TF_MAX_NUM_CANDIDATES 1000

static bool is_timeline_format(const json_t *fmt)
{
    return json_is_string(fmt) &&
           (strcmp(json_string_value(fmt), "pipelined_timeline_v1") == 0 ||
            strcmp(json_string_value(fmt), "pipelined_timeline_v2") == 0);
}

static bool format_error(const json_t *fmt, const char *file, struct tf_diag *d)
{
    if (json_is_string(fmt))
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: format: expected pipelined_timeline_v1 or "
                             "pipelined_timeline_v2, got \"%.100s\"",
                             file, json_string_value(fmt));
    return tf_diag_error(d, TF_EBADINPUT, "%s: format: expected a string, got %s", file,
                         tf_jtype(fmt));
}

static bool not_a_trace(const char *file, const char *type, struct tf_diag *d)
{
    return tf_diag_error(d, TF_EBADINPUT,
                         "%s: not a trace: expected an object with \"format\": "
                         "\"pipelined_timeline_v1\"/\"_v2\" or a Chrome trace "
                         "(\"traceEvents\"), got %s",
                         file, type);
}

static bool load_whole(FILE *f, const char *path, const struct tf_load_opts *opts,
                       struct tf_trace *out, struct tf_diag *d)
{
    const char *file = tf_diag_name(path);
    json_t *root = tf_parse_file(f, path, d);
    if (!root)
        return false;
    bool ok;
    const json_t *fmt = json_is_object(root) ? json_object_get(root, "format") : NULL;
    if (json_is_object(root) && is_timeline_format(fmt)) {
        out->kind = TF_TRACE_TIMELINE;
        ok = tf_timeline_from_json(root, file, &out->timeline, d);
    } else if (json_is_object(root) && fmt && !json_object_get(root, "traceEvents")) {
        ok = format_error(fmt, file, d);
    } else if (json_is_array(root) ||
               (json_is_object(root) && json_object_get(root, "traceEvents"))) {
        out->kind = TF_TRACE_PYTORCH;
        ok = tf_chrome_from_json(root, file, opts, &out->pytorch, d);
    } else {
        ok = not_a_trace(file, tf_jtype(root), d);
    }
    json_decref(root);
    return ok;
}

/* --- streaming ---------------------------------------------------------- */

static const char *const meta_keys[] = {
    "format", "start_candidate", "timeline_record_from", "focus_candidate", "num_candidates",
};
enum { META_FORMAT, META_START, META_RECORD_FROM, META_FOCUS, META_NUM, N_META };

/* Elements per block of the events index (see index_events). */
#define TF_INDEX_BLOCK 1024

/* Where a block of elements starts and which candidates it holds. */
struct block {
    struct tf_scan_mark mark;
    size_t first_idx;
    struct tf_cand_range cands;
};

struct stream {
    const char *file;
    const struct tf_load_opts *opts;
    struct tf_scan scan;
    struct tf_diag pending; /* the first event error, held back */
    json_t *meta;           /* the metadata values read so far */
    bool seen[N_META];
    bool has_trace_events, has_events;
    enum tf_jtok trace_events_type, events_type;
    struct tf_chrome *chrome;
    struct tf_timeline scratch;
    bool events_done;     /* events converted in the pass */
    struct block *blocks; /* else: the index of the events, for a second pass */
    size_t n_blocks, cap_blocks;
    size_t n_null_indexed; /* null candidates counted while indexing */
};

static const char *jtok_type(enum tf_jtok k)
{
    switch (k) {
    case TF_JT_OBJECT: return "an object";
    case TF_JT_ARRAY: return "an array";
    case TF_JT_STRING: return "a string";
    case TF_JT_NUMBER: return "a number";
    case TF_JT_TRUE:
    case TF_JT_FALSE: return "a boolean";
    case TF_JT_NULL: return "null";
    case TF_JT_NONE: break;
    }
    return "something else";
}

/* An integer metadata value as the rules would read it; false when absent,
 * null or not a usable integer. */
static bool meta_int(const struct stream *st, int key, long long *v)
{
    const json_t *j = json_object_get(st->meta, meta_keys[key]);
    if (!j || json_is_null(j))
        return false;
    struct tf_diag quiet;
    tf_diag_init(&quiet);
    return tf_jint(j, st->file, meta_keys[key], v, &quiet);
}

/* The candidates to keep, from what is known now (final: after the pass).
 * False when the window start is not known yet. */
static bool timeline_filter(const struct stream *st, bool final, struct tf_tl_filter *f)
{
    long long x = 0, n = TF_MAX_NUM_CANDIDATES;
    bool known = false;
    if (st->opts && st->opts->start_candidate.set) {
        x = st->opts->start_candidate.v;
        known = true;
    } else {
        /* start_candidate, else timeline_record_from, else focus_candidate,
         * else 0: known once every key before the first set one was seen. */
        static const int chain[] = {META_START, META_RECORD_FROM, META_FOCUS};
        known = true;
        for (size_t i = 0; i < 3; i++) {
            if (meta_int(st, chain[i], &x))
                break;
            if (!st->seen[chain[i]] && !final) {
                known = false;
                break;
            }
            x = 0;
        }
    }
    if (st->opts && st->opts->num_candidates.set) {
        n = st->opts->num_candidates.v;
    } else if (st->seen[META_NUM] || final) {
        long long v;
        n = meta_int(st, META_NUM, &v) && v >= 1 && v <= TF_MAX_NUM_CANDIDATES
                ? v
                : TF_DEFAULT_NUM_CANDIDATES;
    }
    f->all = false;
    f->lo = x - 1;
    f->hi = x + n + 2;
    return known;
}

/* Elements of the events array from the scanner's position (inside the
 * array): all of them, or (limit) at most that many.  With `index`, the
 * blocks of the index are recorded as well. */
static bool scan_timeline_events(struct stream *st, const struct tf_tl_filter *filter,
                                 struct tf_timeline *t, size_t first_idx, size_t limit,
                                 bool at_element, bool index)
{
    struct tf_scan *s = &st->scan;
    struct tf_scan_field f[TF_TL_N_FIELDS];
    for (size_t i = 0; i < TF_TL_N_FIELDS; i++)
        f[i].name = tf_tl_field_names[i];
    struct block *b = NULL;
    for (size_t idx = first_idx, n = 0; !limit || n < limit; idx++, n++) {
        bool more = true;
        if (!(n == 0 && at_element) && !tf_scan_next(s, &more))
            return false;
        if (!more)
            return true;
        if (tf_diag_failed(&st->pending)) {
            if (!tf_scan_skip(s))
                return false;
            continue;
        }
        if (index && idx % TF_INDEX_BLOCK == 0) {
            if (st->n_blocks == st->cap_blocks) {
                size_t cap = st->cap_blocks ? st->cap_blocks * 2 : 64;
                struct block *p = realloc(st->blocks, cap * sizeof *p);
                if (!p)
                    return tf_diag_error(s->d, TF_EIO, "%s: out of memory", st->file);
                st->blocks = p;
                st->cap_blocks = cap;
            }
            b = &st->blocks[st->n_blocks++];
            memset(b, 0, sizeof *b);
            b->first_idx = idx;
            if (!tf_scan_mark(s, &b->mark))
                return false;
        }
        const unsigned char *data;
        size_t len;
        if (!tf_scan_value(s, &data, &len, f, TF_TL_N_FIELDS))
            return false;
        tf_timeline_add_scanned(data, len, f, idx, st->file, filter, t, &st->scratch,
                                b ? &b->cands : NULL, &st->pending);
    }
    return true;
}

/* The second pass: only the blocks that hold candidates of the window. */
static bool rescan_blocks(struct stream *st, const struct tf_tl_filter *filter,
                          struct tf_timeline *t)
{
    for (size_t i = 0; i < st->n_blocks; i++) {
        const struct block *b = &st->blocks[i];
        if (!b->cands.any || b->cands.hi < filter->lo || b->cands.lo > filter->hi)
            continue;
        if (!tf_scan_seek(&st->scan, &b->mark) ||
            !scan_timeline_events(st, filter, t, b->first_idx, TF_INDEX_BLOCK, true, false))
            return false;
    }
    /* Null candidates were counted by the first pass. */
    t->n_null_candidate = st->n_null_indexed;
    return true;
}

static bool scan_chrome_events(struct stream *st)
{
    struct tf_scan *s = &st->scan;
    struct tf_scan_field f[TF_CHROME_N_FIELDS];
    for (size_t i = 0; i < TF_CHROME_N_FIELDS; i++)
        f[i].name = tf_chrome_field_names[i];
    for (size_t idx = 0;; idx++) {
        bool more;
        if (!tf_scan_next(s, &more))
            return false;
        if (!more)
            return true;
        if (tf_diag_failed(&st->pending)) {
            if (!tf_scan_skip(s))
                return false;
            continue;
        }
        const unsigned char *data;
        size_t len;
        if (!tf_scan_value(s, &data, &len, f, TF_CHROME_N_FIELDS))
            return false;
        tf_chrome_add_scanned(st->chrome, data, len, f, idx, &st->pending);
    }
}

/* One top-level member, the scanner being at its value. */
static bool scan_member(struct stream *st, const char *key, struct tf_trace *out)
{
    struct tf_scan *s = &st->scan;
    if (strcmp(key, "traceEvents") == 0) {
        st->has_trace_events = true;
        st->trace_events_type = tf_scan_peek(s);
        if (st->trace_events_type != TF_JT_ARRAY)
            return tf_scan_skip(s);
        return tf_scan_enter(s) && scan_chrome_events(st);
    }
    if (strcmp(key, "events") == 0) {
        st->has_events = true;
        st->events_type = tf_scan_peek(s);
        if (st->events_type != TF_JT_ARRAY)
            return tf_scan_skip(s);
        struct tf_tl_filter filter;
        bool known = timeline_filter(st, false, &filter);
        if (!tf_scan_enter(s))
            return false;
        if (!known && lseek(s->fd, 0, SEEK_CUR) != (off_t)-1) {
            /* Check every event and index them now; convert the window's
             * in a second pass over its blocks, once the window is known. */
            struct tf_tl_filter none = {false, 1, 0};
            struct tf_timeline counts;
            tf_timeline_init(&counts);
            bool ok = scan_timeline_events(st, &none, &counts, 0, 0, false, true);
            st->n_null_indexed = counts.n_null_candidate;
            tf_timeline_fini(&counts);
            return ok;
        }
        if (!known)
            filter.all = true;
        st->events_done = true;
        return scan_timeline_events(st, &filter, &out->timeline, 0, 0, false, false);
    }
    for (int i = 0; i < N_META; i++)
        if (strcmp(key, meta_keys[i]) == 0) {
            const unsigned char *data;
            size_t len;
            if (!tf_scan_value(s, &data, &len, NULL, 0))
                return false;
            json_error_t err;
            json_t *v = json_loadb((const char *)data, len,
                                   JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &err);
            if (!v)
                return tf_diag_error(s->d, TF_EBADINPUT, "%s: %s: %s", st->file, key, err.text);
            json_object_set_new(st->meta, key, v);
            st->seen[i] = true;
            return true;
        }
    return tf_scan_skip(s);
}

/* After the pass: the kind, its errors in the whole-document order, and
 * the second pass over a timeline's events when one is needed. */
static bool stream_decide(struct stream *st, bool top_array, struct tf_trace *out,
                          struct tf_diag *d)
{
    const char *file = st->file;
    const json_t *fmt = json_object_get(st->meta, "format");
    if (!top_array && is_timeline_format(fmt)) {
        out->kind = TF_TRACE_TIMELINE;
        struct tf_timeline *t = &out->timeline;
        t->version = strcmp(json_string_value(fmt), "pipelined_timeline_v2") == 0 ? 2 : 1;
        if (!tf_jopt_int(st->meta, "start_candidate", file, &t->start_candidate, d) ||
            !tf_jopt_int(st->meta, "timeline_record_from", file, &t->timeline_record_from, d) ||
            !tf_jopt_int(st->meta, "focus_candidate", file, &t->focus_candidate, d) ||
            !tf_jopt_int(st->meta, "num_candidates", file, &t->num_candidates, d))
            return false;
        if (!st->has_events)
            return tf_diag_error(d, TF_EBADINPUT, "%s: events: missing", file);
        if (st->events_type != TF_JT_ARRAY)
            return tf_diag_error(d, TF_EBADINPUT, "%s: events: expected an array, got %s", file,
                                 jtok_type(st->events_type));
        if (!st->events_done && !tf_diag_failed(&st->pending)) {
            struct tf_tl_filter filter;
            timeline_filter(st, true, &filter);
            if (!rescan_blocks(st, &filter, t))
                return false;
        }
        if (tf_diag_failed(&st->pending))
            return tf_diag_error(d, st->pending.code, "%s", st->pending.msg);
        return true;
    }
    if (!top_array && fmt && !st->has_trace_events)
        return format_error(fmt, file, d);
    if (top_array || st->has_trace_events) {
        out->kind = TF_TRACE_PYTORCH;
        if (!top_array && st->trace_events_type != TF_JT_ARRAY)
            return tf_diag_error(d, TF_EBADINPUT, "%s: traceEvents: expected an array, got %s",
                                 file, jtok_type(st->trace_events_type));
        if (tf_diag_failed(&st->pending))
            return tf_diag_error(d, st->pending.code, "%s", st->pending.msg);
        return tf_chrome_finish(st->chrome, &out->pytorch, d);
    }
    return not_a_trace(file, "an object", d);
}

static bool load_stream(FILE *f, const char *path, const struct tf_load_opts *opts,
                        struct tf_trace *out, struct tf_diag *d)
{
    struct stream st;
    memset(&st, 0, sizeof st);
    st.file = tf_diag_name(path);
    st.opts = opts;
    tf_diag_init(&st.pending);
    tf_timeline_init(&st.scratch);
    st.meta = json_object();
    st.chrome = tf_chrome_new(st.file, opts);
    bool ok = st.meta && st.chrome;
    if (!ok)
        tf_diag_error(d, TF_EIO, "%s: out of memory", st.file);
    ok = ok && tf_scan_init(&st.scan, fileno(f), st.file, 0, d);
    enum tf_jtok top = TF_JT_NONE;
    ok = ok && tf_scan_begin(&st.scan, &top);
    if (ok && top == TF_JT_ARRAY) {
        /* tf_scan_begin entered the array: its elements are the events. */
        ok = scan_chrome_events(&st);
    } else {
        for (bool more = ok; ok && more;) {
            char key[32];
            size_t key_len;
            ok = tf_scan_key(&st.scan, key, sizeof key, &key_len, &more);
            if (ok && more)
                ok = scan_member(&st, key_len < sizeof key ? key : "", out);
        }
    }
    ok = ok && tf_scan_finish(&st.scan);
    ok = ok && stream_decide(&st, top == TF_JT_ARRAY, out, d);
    if (st.scan.buf)
        tf_scan_fini(&st.scan);
    tf_timeline_fini(&st.scratch);
    free(st.blocks);
    tf_chrome_free(st.chrome);
    json_decref(st.meta);
    return ok;
}

bool tf_load_trace(const char *path, const struct tf_load_opts *opts, struct tf_trace *out,
                   struct tf_diag *d)
{
    FILE *f = tf_open_input(path, d);
    if (!f)
        return false;
    const char *mode = getenv("TRACEFIG_LOAD");
    bool stream;
    struct stat st;
    if (mode && strcmp(mode, "whole") == 0)
        stream = false;
    else if (mode && strcmp(mode, "stream") == 0)
        stream = true;
    else
        stream = fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) ||
                 st.st_size >= TF_STREAM_MIN_BYTES;
    bool ok = stream ? load_stream(f, path, opts, out, d) : load_whole(f, path, opts, out, d);
    tf_close_input(f);
    if (!ok) {
        tf_trace_fini(out);
        tf_trace_init(out);
    }
    return ok;
}
