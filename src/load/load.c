/* load.c - opening a trace, choosing the load path, and the whole-document
 * path; see load.h.  The streaming path is stream.c; the kind decision,
 * shared by both, is kind.c; the events of each kind go through timeline.c
 * and chrome.c on either path.
 *
 * Whole document: jansson parses the file, the kind is decided from the
 * top level, then the metadata and the events are converted in document
 * order, each event through the mode's filter.
 */
#include "load/load.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "load/chrome.h"
#include "load/input.h"
#include "load/kind.h"
#include "load/stream.h"
#include "load/timeline.h"

/* Regular files at least this large are streamed. */
#define TF_STREAM_MIN_BYTES (1L << 20)

static bool whole_timeline(const json_t *root, const char *file, const struct tf_keep *keep,
                           struct tf_timeline *t, struct tf_diag *d)
{
    if (!tf_load_timeline_meta(root, file, t, d))
        return false;
    const json_t *events = json_object_get(root, "events");
    if (!events)
        return tf_diag_error(d, TF_EBADINPUT, "%s: events: missing", file);
    if (!json_is_array(events))
        return tf_diag_error(d, TF_EBADINPUT, "%s: events: expected an array, got %s", file,
                             tf_jtype(events));
    const struct tf_timeline_filter *flt = &keep->timeline;
    struct tf_cand_filter cands = {true, 0, 0};
    if (flt->range && flt->range(flt->ctx, t, true, &cands.lo, &cands.hi))
        cands.all = false;
    size_t i;
    const json_t *e;
    json_array_foreach(events, i, e) {
        if (!tf_load_timeline_event(e, i, file, flt, &cands, t, NULL, d))
            return false;
    }
    return true;
}

static bool whole_chrome(const json_t *root, const char *file, const struct tf_keep *keep,
                         struct tf_diag *d)
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
    struct tf_chrome *c = tf_load_chrome_new(file, &keep->chrome);
    if (!c)
        return tf_diag_oom(d, file);
    bool ok = true;
    size_t i;
    const json_t *e;
    json_array_foreach(events, i, e) {
        if (!(ok = tf_load_chrome_json(c, e, i, d)))
            break;
    }
    ok = ok && tf_load_chrome_finish(c, d);
    tf_load_chrome_free(c);
    return ok;
}

/* jansson reads the document through the input (so gzip'd too). */
static size_t read_input(void *buf, size_t n, void *in)
{
    ssize_t r = tf_input_read(in, buf, n);
    return r < 0 ? (size_t)-1 : (size_t)r;
}

static bool load_whole(struct tf_input *in, const char *path, const struct tf_keep *keep,
                       struct tf_trace *out, struct tf_diag *d)
{
    const char *file = tf_diag_name(path);
    json_error_t err;
    json_t *root = json_load_callback(read_input, in, JSON_REJECT_DUPLICATES, &err);
    if (!root) {
        if (!tf_diag_failed(d)) /* else the input reported a read error */
            tf_diag_error(d, TF_EBADINPUT, "%s:%d:%d: %s", file, err.line, err.column,
                          err.text);
        return false;
    }
    struct tf_doc doc = {
        .top_array = json_is_array(root),
        .meta = json_is_object(root) ? root : NULL,
        .has_events = json_is_object(root) && json_object_get(root, "events"),
        .has_trace_events = json_is_object(root) && json_object_get(root, "traceEvents"),
        .type = tf_jtype(root),
    };
    bool ok = tf_load_kind(&doc, file, &out->kind, d);
    if (ok && out->kind == TF_TRACE_TIMELINE)
        ok = whole_timeline(root, file, keep, &out->timeline, d);
    else if (ok)
        ok = whole_chrome(root, file, keep, d);
    json_decref(root);
    return ok;
}

bool tf_load_trace(const char *path, const struct tf_keep *keep, struct tf_trace *out,
                   struct tf_diag *d)
{
    /* A reader thread reads (and inflates) ahead while this one scans; a
     * pipe is spooled to a temporary file, so that a trace read twice can
     * come from standard input too (see input.h). */
    struct tf_input_opts opts = {.thread = true, .spool = true};
    struct tf_input *in = tf_input_open(path, &opts, d);
    if (!in)
        return false;
    const char *mode = getenv("TRACEFIG_LOAD");
    bool stream;
    struct stat st;
    int rc = strcmp(path, "-") == 0 ? fstat(STDIN_FILENO, &st) : stat(path, &st);
    if (mode && strcmp(mode, "whole") == 0)
        stream = false;
    else if (mode && strcmp(mode, "stream") == 0)
        stream = true;
    else
        stream = rc != 0 || !S_ISREG(st.st_mode) || st.st_size >= TF_STREAM_MIN_BYTES ||
                 tf_input_is_gzip(in);
    bool ok = stream ? tf_load_stream(in, path, keep, out, d)
                     : load_whole(in, path, keep, out, d);
    tf_input_close(in);
    if (!ok) {
        tf_trace_fini(out);
        tf_trace_init(out);
    }
    return ok;
}
