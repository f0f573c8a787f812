/* stream.c - the streaming load path: the scanner (scan.h) validates the
 * file in chunks and hands only the elements that can matter to the event
 * converters (timeline.c, chrome.c), which parse just those.
 *
 * One pass: the top-level keys are read in file order; the metadata values
 * (format, start_candidate, ...) are kept as small jansson values;
 * "traceEvents" elements go to the Chrome converters (chrome.c for the
 * legacy PyTorch mode, tef.c's first pass for the generic mode; both when
 * either may read the trace), "events" elements to the timeline converter
 * with the mode's filter.  The kind is decided after the pass by kind.c, as
 * on the whole-document path.  A Chrome trace the generic mode reads then
 * gets its second pass: tef.c's blocks that reach into the window.
 *
 * A timeline's events are filtered to the candidates the mode's filter
 * allows.  When that is not known yet because the metadata deciding it
 * comes after "events" (as the profiler writes it), the pass only validates
 * the events and notes where each block of them starts and which
 * candidates it holds; a second pass over just the blocks the window needs
 * converts them.  A pipe cannot be read twice: then every usable event is
 * converted.
 *
 * Error order: a syntax error anywhere wins (as jansson parses everything
 * first); then the kind and metadata errors, in the whole-document order;
 * then the first event error.  Event errors found during the pass are held
 * back until the end for that reason.
 */
#include "load/stream.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/jsonlite.h"
#include "load/chrome.h"
#include "load/kind.h"
#include "load/pipe.h"
#include "load/tef.h"
#include "load/timeline.h"

static const char *const meta_keys[] = {
    "format", "start_candidate", "timeline_record_from", "focus_candidate", "num_candidates",
};
enum { META_FORMAT, META_START, META_RECORD_FROM, META_FOCUS, META_NUM, N_META };

/* A Chrome events array goes through a pipe (pipe.h) once the scan is this
 * far into the file, so a small trace keeps one thread. */
#define TF_PIPE_AFTER ((uint64_t)16 << 20)

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
    const struct tf_keep *keep;
    struct tf_scan scan;
    struct tf_diag pending; /* the first event error, held back */
    json_t *meta;           /* the metadata values read so far */
    struct tf_timeline view; /* the same, as the mode's filter reads them */
    bool has_trace_events, has_events;
    bool has_system; /* "systemTraceEvents" read (a trace without traceEvents too) */
    enum tf_jtok trace_events_type, events_type;
    struct tf_chrome *chrome; /* the legacy PyTorch mode's converter, or NULL */
    struct tf_tef *tef;       /* the generic mode's, or NULL */
    struct tf_diag tef_pending; /* its first error, held back like `pending` */
    bool events_done;     /* events converted in the pass */
    struct block *blocks; /* else: the index of the events, for a second pass */
    size_t n_blocks, cap_blocks;
    size_t n_null_indexed; /* null candidates counted while indexing */
    bool second;           /* the generic mode's second pass is left */
};

/* Records a metadata value for the filter: read (seen), and its value when
 * it is a usable integer (errors wait for the end of the pass). */
static void view_meta(struct stream *st, int key, const json_t *v)
{
    static const unsigned bits[N_META] = {0, TF_META_START, TF_META_RECORD_FROM, TF_META_FOCUS,
                                          TF_META_NUM};
    struct tf_opt_int *slot[N_META] = {NULL, &st->view.start_candidate,
                                       &st->view.timeline_record_from,
                                       &st->view.focus_candidate, &st->view.num_candidates};
    st->view.seen |= bits[key];
    if (!slot[key])
        return;
    struct tf_diag quiet;
    tf_diag_init(&quiet);
    slot[key]->set = v && !json_is_null(v) && tf_jint(v, st->file, meta_keys[key],
                                                      &slot[key]->v, &quiet);
}

/* The candidates to keep, from what is known now (final: after the pass).
 * False when the window is not known yet. */
static bool cands_now(const struct stream *st, bool final, struct tf_cand_filter *c)
{
    const struct tf_timeline_filter *flt = &st->keep->timeline;
    c->all = !flt->range;
    c->lo = 1;
    c->hi = 0;
    return !flt->range || flt->range(flt->ctx, &st->view, final, &c->lo, &c->hi);
}

/* Elements of the events array from the scanner's position (inside the
 * array): all of them, or (limit) at most that many.  With `index`, the
 * blocks of the index are recorded as well. */
static bool scan_timeline_events(struct stream *st, const struct tf_cand_filter *cands,
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
            if (!TF_GROW(st->blocks, st->n_blocks, st->cap_blocks))
                return tf_diag_oom(s->d, st->file);
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
        tf_load_timeline_scanned(data, len, f, idx, st->file, &st->keep->timeline, cands, t,
                                 b ? &b->cands : NULL, &st->pending);
    }
    return true;
}

/* The second pass: only the blocks that hold candidates of the window. */
static bool rescan_blocks(struct stream *st, const struct tf_cand_filter *cands,
                          struct tf_timeline *t)
{
    for (size_t i = 0; i < st->n_blocks; i++) {
        const struct block *b = &st->blocks[i];
        if (!b->cands.any || b->cands.hi < cands->lo || b->cands.lo > cands->hi)
            continue;
        if (!tf_scan_seek(&st->scan, &b->mark) ||
            !scan_timeline_events(st, cands, t, b->first_idx, TF_INDEX_BLOCK, true, false))
            return false;
    }
    /* Null candidates were counted by the first pass. */
    t->n_null_candidate = st->n_null_indexed;
    return true;
}

/* The elements of a Chrome events array (the scanner inside it), to the
 * converters: "traceEvents" (system false) to both, with the index blocks
 * of tef.c; "systemTraceEvents" (system true) only to tef.c, for names. */
static bool scan_chrome_array(struct stream *st, bool system);

/* Chrome events are scanned in lenient mode (scan.h): other tools write
 * \u0000, huge integers, deep args, repeated keys, an array never
 * closed; the rest of the document keeps jansson's rules.  System events
 * are lenient only after "traceEvents": before it the document may still
 * turn out to be no trace, which jansson's rules then judge whole. */
static bool scan_chrome_events(struct stream *st, bool system)
{
    if (!system || st->has_trace_events)
        tf_scan_set_flags(&st->scan, TF_SCAN_LENIENT);
    bool ok = scan_chrome_array(st, system);
    /* The rest of a trace's document: jansson's rules, but for a trailing
     * comma (the events array may be followed by one before the '}'). */
    tf_scan_set_flags(&st->scan, TF_SCAN_STRICT | (!system || st->has_trace_events
                                                       ? TF_SCAN_TRAILING_COMMAS
                                                       : 0));
    return ok;
}

/* The members of a Chrome event to locate: tef.c's, none located yet. */
static void tef_fields(struct tf_scan_field f[TF_TEF_N_FIELDS])
{
    memset(f, 0, TF_TEF_N_FIELDS * sizeof *f);
    for (size_t i = 0; i < TF_TEF_N_FIELDS; i++)
        f[i].name = tf_tef_field_names[i];
}

/* An element of a Chrome events array, scanned, to the converters that
 * still read (mark: where it starts, at the first of a block of tef.c's
 * index). */
static void chrome_element(struct stream *st, bool system, const unsigned char *data,
                           size_t len, const struct tf_scan_field *f, size_t idx,
                           const struct tf_scan_mark *mark)
{
    bool to_chrome = st->chrome && !system && !tf_diag_failed(&st->pending);
    bool to_tef = st->tef && !tf_diag_failed(&st->tef_pending);
    if (to_tef && mark)
        tf_tef_block(st->tef, mark, idx, &st->tef_pending);
    /* tf_chrome_field_names are the first two of tef's. */
    if (to_chrome)
        tf_load_chrome_scanned(st->chrome, data, len, f, idx, &st->pending);
    if (to_tef && !tf_diag_failed(&st->tef_pending))
        tf_tef_index(st->tef, data, len, f, idx, system, &st->tef_pending);
}

/* The rest of a Chrome events array, from element idx, scanned on the
 * pipe's thread (pipe.h). */
struct chrome_src {
    struct stream *st;
    bool marks; /* tef.c's blocks are marked */
    size_t idx;
};

static bool produce_chrome(void *ctx, struct tf_pipe *p)
{
    struct chrome_src *c = ctx;
    struct tf_scan *s = &c->st->scan;
    struct tf_scan_field f[TF_TEF_N_FIELDS];
    tef_fields(f);
    for (size_t idx = c->idx;; idx++) {
        bool more;
        if (!tf_scan_next(s, &more))
            return false;
        if (!more)
            return true;
        struct tf_scan_mark m;
        bool marked = c->marks && idx % TF_TEF_BLOCK == 0;
        if (marked && !tf_scan_mark(s, &m))
            return false;
        const unsigned char *data;
        size_t len;
        if (!tf_scan_value(s, &data, &len, f, TF_TEF_N_FIELDS) ||
            !tf_pipe_put(p, data, len, f, idx, marked ? &m : NULL))
            return false;
    }
}

/* Scans the rest of the array through a pipe; false with *started false
 * when no pipe could be had (nothing was read: the caller goes on). */
static bool chrome_piped(struct stream *st, bool system, size_t idx, bool *started)
{
    struct chrome_src src = {st, st->tef && !system, idx};
    struct tf_pipe *p = tf_pipe_start(&st->scan, TF_TEF_N_FIELDS, produce_chrome, &src);
    *started = p != NULL;
    if (!p)
        return false;
    struct tf_scan_field f[TF_TEF_N_FIELDS];
    tef_fields(f);
    struct tf_pipe_elem e;
    while (tf_pipe_get(p, &e, f))
        chrome_element(st, system, e.data, e.len, f, e.idx, e.has_mark ? &e.mark : NULL);
    return tf_pipe_finish(p, false);
}

static bool scan_chrome_array(struct stream *st, bool system)
{
    struct tf_scan *s = &st->scan;
    struct tf_scan_field f[TF_TEF_N_FIELDS];
    tef_fields(f);
    enum tf_pipe_mode pipe = tf_pipe_mode(s->in);
    for (size_t idx = 0;; idx++) {
        if (pipe == TF_PIPE_ON || (pipe == TF_PIPE_AUTO && s->base + s->pos >= TF_PIPE_AFTER)) {
            bool started;
            bool ok = chrome_piped(st, system, idx, &started);
            if (started)
                return ok;
            pipe = TF_PIPE_OFF;
        }
        bool more;
        if (!tf_scan_next(s, &more))
            return false;
        if (!more)
            return true;
        bool to_chrome = st->chrome && !system && !tf_diag_failed(&st->pending);
        bool to_tef = st->tef && !tf_diag_failed(&st->tef_pending);
        if (!to_chrome && !to_tef) {
            if (!tf_scan_skip(s))
                return false;
            continue;
        }
        struct tf_scan_mark m;
        bool marked = to_tef && !system && idx % TF_TEF_BLOCK == 0;
        if (marked && !tf_scan_mark(s, &m))
            return false;
        const unsigned char *data;
        size_t len;
        if (!tf_scan_value(s, &data, &len, f, TF_TEF_N_FIELDS))
            return false;
        chrome_element(st, system, data, len, f, idx, marked ? &m : NULL);
    }
}

/* The second pass of the generic mode on the pipe's thread: the blocks
 * listed, from their marks. */
struct tef_block {
    struct tf_scan_mark mark;
    size_t first; /* the index of its first element */
};

struct tef_src {
    struct stream *st;
    const struct tef_block *blocks;
    size_t n;
};

/* Where the elements of a block of the second pass go (tf_tef_collect, or
 * the pipe); false stops the pass. */
typedef bool (*take_fn)(void *ctx, const unsigned char *data, size_t len,
                        const struct tf_scan_field *f, size_t idx);

/* The elements of the block at mark m (the first has index `first`), to
 * take(ctx, ...); false at a scan error or when take says so. */
static bool scan_block(struct tf_scan *s, const struct tf_scan_mark *m, size_t first,
                       struct tf_scan_field *f, take_fn take, void *ctx)
{
    if (!tf_scan_seek(s, m))
        return false;
    for (size_t n = 0; n < TF_TEF_BLOCK; n++) {
        bool more = true;
        if (n > 0 && !tf_scan_next(s, &more))
            return false;
        if (!more)
            break;
        const unsigned char *data;
        size_t len;
        if (!tf_scan_value(s, &data, &len, f, TF_TEF_N_FIELDS) ||
            !take(ctx, data, len, f, first + n))
            return false;
    }
    return true;
}

static bool take_pipe(void *ctx, const unsigned char *data, size_t len,
                      const struct tf_scan_field *f, size_t idx)
{
    return tf_pipe_put(ctx, data, len, f, idx, NULL);
}

struct collect {
    struct tf_tef *tef;
    struct tf_diag *d;
};

static bool take_collect(void *ctx, const unsigned char *data, size_t len,
                         const struct tf_scan_field *f, size_t idx)
{
    struct collect *c = ctx;
    return tf_tef_collect(c->tef, data, len, f, idx, c->d);
}

static bool produce_tef(void *ctx, struct tf_pipe *p)
{
    struct tef_src *c = ctx;
    struct tf_scan_field f[TF_TEF_N_FIELDS];
    tef_fields(f);
    for (size_t b = 0; b < c->n; b++)
        if (!scan_block(&c->st->scan, &c->blocks[b].mark, c->blocks[b].first, f, take_pipe, p))
            return false;
    return true;
}

/* Blocks to revisit from which a pipe pays (each holds TF_TEF_BLOCK
 * elements). */
#define TF_PIPE_BLOCKS 16

/* The second pass through a pipe when it has at least min_blocks blocks;
 * *started false when it had fewer or no pipe could be had (nothing read:
 * the caller scans itself). */
static bool tef_piped(struct stream *st, struct tf_diag *d, size_t min_blocks, bool *started)
{
    *started = false;
    struct {
        struct tef_block *v;
        size_t n, cap;
    } list = {NULL, 0, 0};
    struct tef_block blk;
    for (size_t b = 0; tf_tef_next_block(st->tef, &b, &blk.mark, &blk.first);) {
        if (!TF_GROW(list.v, list.n, list.cap)) {
            free(list.v);
            return false;
        }
        list.v[list.n++] = blk;
    }
    struct tef_src src = {st, list.v, list.n};
    struct tf_pipe *p = list.n >= min_blocks
                            ? tf_pipe_start(&st->scan, TF_TEF_N_FIELDS, produce_tef, &src)
                            : NULL;
    bool ok = false;
    if (p) {
        *started = true;
        struct tf_scan_field f[TF_TEF_N_FIELDS];
        tef_fields(f);
        struct tf_pipe_elem e;
        bool early = false;
        while (!early && tf_pipe_get(p, &e, f))
            early = !tf_tef_collect(st->tef, e.data, e.len, f, e.idx, d);
        ok = tf_pipe_finish(p, early) && !early;
    }
    free(list.v);
    return ok;
}

/* The blocks tf_tef_next_block names, each element to tf_tef_collect, on
 * this thread. */
static bool collect_blocks(struct stream *st, struct tf_diag *d)
{
    struct tf_scan_field f[TF_TEF_N_FIELDS];
    tef_fields(f);
    struct tf_scan_mark m;
    size_t first;
    struct collect into = {st->tef, d};
    for (size_t b = 0; tf_tef_next_block(st->tef, &b, &m, &first);)
        if (!scan_block(&st->scan, &m, first, f, take_collect, &into))
            return false;
    return true;
}

/* Before the second pass, the sink's look at its window's X events
 * (tf_tef_sink's prepass): their blocks, read here (no pipe: a window's
 * blocks are few). */
static bool tef_prepass(struct stream *st, struct tf_diag *d)
{
    bool on;
    if (!tf_tef_prepass_begin(st->tef, &on))
        return false;
    if (!on)
        return true;
    tf_scan_set_flags(&st->scan, TF_SCAN_LENIENT); /* as in the first pass */
    return collect_blocks(st, d) && tf_tef_prepass_end(st->tef, d);
}

/* The second pass of the generic mode: its window's blocks. */
static bool scan_tef_blocks(struct stream *st, struct tf_diag *d)
{
    struct tf_scan *s = &st->scan;
    tf_scan_set_flags(s, TF_SCAN_LENIENT); /* as in the first pass */
    enum tf_pipe_mode pipe = tf_pipe_mode(s->in);
    if (pipe != TF_PIPE_OFF) {
        bool started;
        bool ok = tef_piped(st, d, pipe == TF_PIPE_ON ? 1 : TF_PIPE_BLOCKS, &started);
        if (started)
            return ok;
    }
    return collect_blocks(st, d);
}

/* A fact of a Chrome trace's top level (model/trace.h): the integer
 * members of "distributedInfo", "baseTimeNanoseconds".  A value of another
 * shape is no error: the facts are optional, and nothing else reads them. */
static bool scan_fact(struct stream *st, const char *key, struct tf_trace *out)
{
    const unsigned char *data;
    size_t len;
    if (!tf_scan_value(&st->scan, &data, &len, NULL, 0))
        return false;
    /* The generic mode may read it too (--stats-compat hta). */
    const struct tf_tef_sink *sink = &st->keep->tef;
    if (st->tef && sink->top && sink->top_key && strcmp(key, sink->top_key) == 0)
        sink->top(sink->top_ctx, data, len);
    /* Read in place (distributedInfo can hold kilobytes of NCCL facts
     * that a tree would cost more to build than the rest of a small
     * trace): integers only, as they are written. */
    struct tf_trace_facts *f = &out->facts;
    int64_t x;
    if (key[0] == 'd' && len && data[0] == '{') {
        size_t pos = 0, kn, vn;
        const unsigned char *k, *v;
        while (tf_jl_member(data, len, &pos, &k, &kn, &v, &vn)) {
            bool is_rank = kn == 4 && memcmp(k, "rank", 4) == 0;
            bool is_ws = kn == 10 && memcmp(k, "world_size", 10) == 0;
            if ((!is_rank && !is_ws) || !tf_jl_is_int(v, vn) || !tf_jl_fixed(v, vn, 0, &x))
                continue;
            if (is_rank) {
                f->has_rank = true;
                f->rank = (long long)x;
            } else {
                f->has_world_size = true;
                f->world_size = (long long)x;
            }
        }
    } else if (key[0] == 'b' && tf_jl_is_int(data, len) && tf_jl_fixed(data, len, 0, &x)) {
        f->has_base_time = true;
        f->base_time_ns = x;
    }
    return true;
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
        return tf_scan_enter(s) && scan_chrome_events(st, false);
    }
    if (strcmp(key, "systemTraceEvents") == 0 && st->tef) {
        enum tf_jtok k = tf_scan_peek(s);
        st->has_system = true;
        if (k == TF_JT_ARRAY)
            return tf_scan_enter(s) && scan_chrome_events(st, true);
        if (k == TF_JT_STRING) { /* Chrome's ftrace text (load/ftrace.h) */
            const unsigned char *data;
            size_t len;
            return tf_scan_value(s, &data, &len, NULL, 0) &&
                   tf_tef_system_text(st->tef, data, len, s->d);
        }
        if (k != TF_JT_OBJECT)
            return tf_scan_skip(s);
        /* Fuchsia's form: {"type": "fuchsia", "events": [...]}. */
        if (!tf_scan_enter(s))
            return false;
        for (;;) {
            char sub[16];
            size_t sub_len;
            bool more;
            if (!tf_scan_key(s, sub, sizeof sub, &sub_len, &more))
                return false;
            if (!more)
                return true;
            bool events = sub_len == 6 && memcmp(sub, "events", 6) == 0;
            if (events && tf_scan_peek(s) == TF_JT_ARRAY) {
                if (!tf_scan_enter(s) || !scan_chrome_events(st, true))
                    return false;
            } else if (!tf_scan_skip(s)) {
                return false;
            }
        }
    }
    if ((st->tef || st->chrome) &&
        (strcmp(key, "distributedInfo") == 0 || strcmp(key, "baseTimeNanoseconds") == 0))
        return scan_fact(st, key, out);
    if (strcmp(key, "events") == 0) {
        st->has_events = true;
        st->events_type = tf_scan_peek(s);
        if (st->events_type != TF_JT_ARRAY)
            return tf_scan_skip(s);
        struct tf_cand_filter cands;
        bool known = cands_now(st, false, &cands);
        if (!tf_scan_enter(s))
            return false;
        if (!known && tf_input_can_seek(s->in)) {
            /* Check every event and index them now; convert the window's
             * in a second pass over its blocks, once the window is known. */
            struct tf_cand_filter none = {false, 1, 0};
            struct tf_timeline counts;
            tf_timeline_init(&counts);
            bool ok = scan_timeline_events(st, &none, &counts, 0, 0, false, true);
            st->n_null_indexed = counts.n_null_candidate;
            tf_timeline_fini(&counts);
            return ok;
        }
        if (!known)
            cands.all = true;
        st->events_done = true;
        return scan_timeline_events(st, &cands, &out->timeline, 0, 0, false, false);
    }
    const struct tf_tef_sink *sink = &st->keep->tef;
    if (st->tef && sink->top && sink->top_key && strcmp(key, sink->top_key) == 0) {
        const unsigned char *data;
        size_t len;
        if (!tf_scan_value(s, &data, &len, NULL, 0))
            return false;
        sink->top(sink->top_ctx, data, len);
        return true;
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
            view_meta(st, i, v);
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
    struct tf_doc doc = {
        .top_array = top_array,
        .meta = st->meta,
        .has_events = st->has_events,
        .has_trace_events = st->has_trace_events || st->has_system,
        .type = "an object",
    };
    if (!tf_load_kind(&doc, file, &out->kind, d))
        return false;
    if (out->kind == TF_TRACE_TIMELINE) {
        struct tf_timeline *t = &out->timeline;
        if (!tf_load_timeline_meta(st->meta, file, t, d))
            return false;
        if (!st->has_events)
            return tf_diag_error(d, TF_EBADINPUT, "%s: events: missing", file);
        if (st->events_type != TF_JT_ARRAY)
            return tf_diag_error(d, TF_EBADINPUT, "%s: events: expected an array, got %s", file,
                                 tf_jtok_name(st->events_type));
        if (!st->events_done && !tf_diag_failed(&st->pending)) {
            struct tf_cand_filter cands;
            cands_now(st, true, &cands);
            if (!rescan_blocks(st, &cands, t))
                return false;
        }
        if (tf_diag_failed(&st->pending))
            return tf_diag_error(d, st->pending.code, "%s", st->pending.msg);
        return true;
    }
    if (!top_array && (st->has_trace_events || !st->has_system) &&
        st->trace_events_type != TF_JT_ARRAY)
        return tf_diag_error(d, TF_EBADINPUT, "%s: traceEvents: expected an array, got %s", file,
                             tf_jtok_name(st->trace_events_type));
    const struct tf_chrome_sink *legacy = &st->keep->chrome;
    bool generic = st->tef && (!st->chrome || (legacy->claims && !legacy->claims(legacy->ctx)));
    if (!generic) {
        if (tf_diag_failed(&st->pending))
            return tf_diag_error(d, st->pending.code, "%s", st->pending.msg);
        return tf_load_chrome_finish(st->chrome, d);
    }
    out->generic = true;
    if (tf_diag_failed(&st->tef_pending))
        return tf_diag_error(d, st->tef_pending.code, "%s", st->tef_pending.msg);
    if (!tf_input_can_seek(st->scan.in))
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: a Chrome trace is read twice, and this input cannot be: "
                             "give it as a file",
                             file);
    st->second = true;
    return true;
}

/* The generic mode's second pass: its window, the window's blocks, the
 * end.  The scanner is set up again when the first pass's was let go. */
static bool stream_second(struct stream *st, struct tf_input *in, struct tf_diag *d)
{
    st->second = false;
    if (!st->scan.buf) {
        const char *chunk_env = getenv("TRACEFIG_CHUNK");
        size_t chunk = chunk_env ? (size_t)strtoul(chunk_env, NULL, 10) : 0;
        if (!tf_scan_init(&st->scan, in, st->file, chunk, TF_SCAN_LENIENT, d))
            return false;
    }
    return tf_tef_window(st->tef, d) && tef_prepass(st, d) && scan_tef_blocks(st, d) &&
           tf_tef_finish(st->tef, d);
}

static void stream_free(struct stream *st)
{
    if (!st)
        return;
    if (st->scan.buf)
        tf_scan_fini(&st->scan);
    tf_timeline_fini(&st->view);
    free(st->blocks);
    tf_load_chrome_free(st->chrome);
    tf_tef_free(st->tef);
    json_decref(st->meta);
    free(st);
}

/* The first pass, and every pass a trace needs but the generic mode's
 * second; *out_st is what a second pass needs, or NULL. */
static bool stream_first(struct tf_input *in, const char *path, const struct tf_keep *keep,
                         struct tf_trace *out, struct stream **out_st, struct tf_diag *d)
{
    *out_st = NULL;
    struct stream *st = calloc(1, sizeof *st);
    if (!st)
        return tf_diag_oom(d, tf_diag_name(path));
    st->file = tf_diag_name(path);
    st->keep = keep;
    tf_diag_init(&st->pending);
    tf_diag_init(&st->tef_pending);
    tf_timeline_init(&st->view);
    st->meta = json_object();
    bool ok = st->meta != NULL;
    if (keep->chrome.wants) {
        st->chrome = tf_load_chrome_new(st->file, &keep->chrome);
        ok = ok && st->chrome;
    }
    if (keep->tef.index || keep->tef.collect) {
        st->tef = tf_tef_new(st->file, &keep->tef);
        ok = ok && st->tef;
    }
    if (!ok)
        tf_diag_oom(d, st->file);
    /* TRACEFIG_CHUNK=N reads N bytes at a time (tests vary it). */
    const char *chunk_env = getenv("TRACEFIG_CHUNK");
    size_t chunk = chunk_env ? (size_t)strtoul(chunk_env, NULL, 10) : 0;
    ok = ok && tf_scan_init(&st->scan, in, st->file, chunk, TF_SCAN_STRICT, d);
    enum tf_jtok top = TF_JT_NONE;
    ok = ok && tf_scan_begin(&st->scan, &top);
    if (ok && top == TF_JT_ARRAY) {
        /* tf_scan_begin entered the array: its elements are the events. */
        ok = scan_chrome_events(st, false);
    } else {
        for (bool more = ok; ok && more;) {
            char key[32];
            size_t key_len;
            ok = tf_scan_key(&st->scan, key, sizeof key, &key_len, &more);
            if (ok && more)
                ok = scan_member(st, key_len < sizeof key ? key : "", out);
        }
    }
    ok = ok && tf_scan_finish(&st->scan);
    ok = ok && stream_decide(st, top == TF_JT_ARRAY, out, d);
    if (ok && st->second)
        *out_st = st;
    else
        stream_free(st);
    return ok;
}

bool tf_load_stream(struct tf_input *in, const char *path, const struct tf_keep *keep,
                    struct tf_trace *out, struct tf_diag *d)
{
    struct stream *st;
    if (!stream_first(in, path, keep, out, &st, d))
        return false;
    bool ok = !st || stream_second(st, in, d);
    stream_free(st);
    return ok;
}

/* --- in two steps --------------------------------------------------------------- */

struct tf_stream {
    struct stream *st;
};

bool tf_stream_first(struct tf_input *in, const char *path, const struct tf_keep *keep,
                     struct tf_trace *out, struct tf_stream **rest, struct tf_diag *d)
{
    *rest = NULL;
    struct stream *st;
    if (!stream_first(in, path, keep, out, &st, d))
        return false;
    if (!st)
        return true;
    /* Let the input go: the scanner's buffers are freed now, and the
     * second pass sets up its own on the input it is given. */
    tf_scan_fini(&st->scan);
    struct tf_stream *r = malloc(sizeof *r);
    if (!r) {
        stream_free(st);
        return tf_diag_oom(d, tf_diag_name(path));
    }
    r->st = st;
    *rest = r;
    return true;
}

bool tf_stream_second(struct tf_stream *rest, struct tf_input *in, struct tf_diag *d)
{
    return stream_second(rest->st, in, d);
}

void tf_stream_free(struct tf_stream *rest)
{
    if (!rest)
        return;
    stream_free(rest->st);
    free(rest);
}
