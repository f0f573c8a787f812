/* load.c - opening a trace, choosing the load path, and the whole-document
 * path; see load.h.  The streaming path is stream.c; the kind decision,
 * shared by both, is kind.c.
 *
 * Every trace is streamed (stream.c): the scanner validates all of it and
 * only the events the mode keeps are converted, most of them straight
 * from the scanner's bytes; it is faster than jansson's parse even for a
 * small file, and it reads Chrome traces twice when the generic mode
 * needs to.
 *
 * The whole-document path (TRACEFIG_LOAD=whole, for pipelined timelines):
 * jansson parses the file, the kind is decided from the top level, then
 * the metadata and the events are converted in document order, each event
 * through the mode's filter.  The tests and fuzz_stream compare it with
 * the streaming path.  A file that looks like a Chrome trace (its top
 * level is an array, or it holds the text "traceEvents") is streamed even
 * then.
 */
#include "load/load.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "load/ctf.h"
#include "load/input.h"
#include "load/kind.h"
#include "load/sqlite_load.h"
#include "load/otf2.h"
#include "load/ftrace.h"
#include "load/pftrace.h"
#include "load/sqlite.h"
#include "load/stream.h"
#include "load/timeline.h"
#include "load/xplane.h"

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
    if (ok && out->kind == TF_TRACE_CHROME) {
        /* Not seen by the look first (an escaped key): stream it after all. */
        json_decref(root);
        out->kind = TF_TRACE_NONE;
        return tf_input_seek(in, 0) && tf_load_stream(in, path, keep, out, d);
    }
    if (ok)
        ok = whole_timeline(root, file, keep, &out->timeline, d);
    json_decref(root);
    return ok;
}

/* Whether a small regular file looks like a Chrome trace: its first byte
 * (after white space) opens an array, or it holds the text "traceEvents".
 * The input is rewound. */
static bool looks_chrome(struct tf_input *in)
{
    char buf[1 << 16];
    bool first = true, chrome = false;
    size_t carry = 0;
    ssize_t n;
    while (!chrome && (n = tf_input_read(in, buf + carry, sizeof buf - carry)) > 0) {
        size_t len = carry + (size_t)n, i = 0;
        if (first) {
            while (i < len && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\t'))
                i++;
            if (i < len) {
                chrome = buf[i] == '[';
                first = false;
            }
        }
        static const char key[] = "\"traceEvents\"";
        for (size_t k = 0; !chrome && k + sizeof key - 1 <= len; k++)
            chrome = memcmp(buf + k, key, sizeof key - 1) == 0;
        /* Keep the tail: the key may straddle two reads. */
        carry = len < sizeof key ? len : sizeof key - 1;
        memmove(buf, buf + len - carry, carry);
    }
    tf_input_seek(in, 0); /* an error here is reported, and the load fails */
    return chrome;
}

/* --- Nsight Systems exports ------------------------------------------------ */

/* Up to n of the first bytes of the input; it is rewound. */
static size_t peek(struct tf_input *in, unsigned char *buf, size_t n)
{
    size_t got = 0;
    ssize_t r;
    while (got < n && (r = tf_input_read(in, buf + got, n - got)) > 0)
        got += (size_t)r;
    tf_input_seek(in, 0); /* an error here is reported, and the load fails */
    return got;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && strcmp(s + n - k, tail) == 0;
}

/* Whether the first bytes could begin a JSON document (after white space,
 * an object or an array). */
static bool json_head(const unsigned char *head, size_t n)
{
    size_t i = 0;
    while (i < n && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
        i++;
    return i == n || head[i] == '{' || head[i] == '[';
}

/* An export in memory is read where it is; gzip'd, it is inflated into
 * memory first (never to disk). */
static bool load_export_memory(struct tf_input *in, const char *file, const struct tf_keep *keep,
                               struct tf_trace *out, struct tf_diag *d)
{
    const void *data;
    size_t len;
    if (tf_input_bytes(in, &data, &len) && !tf_input_is_gzip(in))
        return tf_load_sqlite_memory(data, len, file, keep, out, d);
    struct tf_buf db;
    tf_buf_init(&db);
    char buf[1 << 16];
    ssize_t r;
    while (!db.oom && (r = tf_input_read(in, buf, sizeof buf)) > 0)
        tf_buf_putn(&db, buf, (size_t)r);
    bool ok = db.oom ? tf_diag_oom(d, file)
                     : !tf_diag_failed(d) && /* a read error, reported by the input */
                           tf_load_sqlite_memory(db.data ? db.data : "", db.len, file, keep, out, d);
    tf_buf_fini(&db);
    return ok;
}

/* SQLite reads a file by name: a pipe or a gzip'd export is first copied,
 * inflated, to an unlinked temporary file in $TMPDIR; an export in memory
 * is read in memory. */
static bool load_export(struct tf_input *in, const char *path, bool as_is,
                        const struct tf_keep *keep, struct tf_trace *out, struct tf_diag *d)
{
    const char *file = tf_diag_name(path);
    const void *data;
    size_t len;
    if (tf_input_bytes(in, &data, &len))
        return load_export_memory(in, file, keep, out, d);
    if (as_is)
        return tf_load_sqlite(path, file, false, keep, out, d);
    const char *dir = getenv("TMPDIR");
    char tmpl[4096];
    snprintf(tmpl, sizeof tmpl, "%s/tracefig-export-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(tmpl);
    if (fd < 0)
        return tf_diag_error(d, TF_EBADINPUT, "%s: cannot copy to a temporary file: %s: %s",
                             file, tmpl, strerror(errno));
    char buf[1 << 16];
    ssize_t r;
    bool ok = true;
    while (ok && (r = tf_input_read(in, buf, sizeof buf)) > 0) {
        for (ssize_t w, done = 0; ok && done < r; done += w) {
            w = write(fd, buf + done, (size_t)(r - done));
            if (w < 0 && errno == EINTR)
                w = 0;
            else if (w <= 0)
                ok = tf_diag_error(d, TF_EBADINPUT, "%s: cannot copy to a temporary file: %s",
                                   file, strerror(w < 0 ? errno : ENOSPC));
        }
    }
    ok = ok && !tf_diag_failed(d); /* a read error, reported by the input */
    if (close(fd) != 0 && ok)
        ok = tf_diag_error(d, TF_EBADINPUT, "%s: cannot copy to a temporary file: %s", file,
                           strerror(errno));
    if (!ok) {
        unlink(tmpl);
        return false;
    }
    return tf_load_sqlite(tmpl, file, true, keep, out, d);
}

/* How a trace's input is opened: a reader thread reads (and inflates)
 * ahead while this one scans; a pipe is spooled to a temporary file, so
 * that a trace read twice can come from standard input too (see input.h).
 * A regular file under 4 MiB is read without the thread, which would cost
 * more than it saves. */
static struct tf_input *open_trace(const char *path, bool *regular, struct tf_diag *d)
{
    const void *data;
    size_t len;
    struct stat st;
    bool small;
    if (tf_input_memory_find(path, &data, &len)) {
        *regular = true; /* bytes in memory read as a regular file would be */
        small = len < ((size_t)4 << 20);
    } else {
        int rc = strcmp(path, "-") == 0 ? fstat(STDIN_FILENO, &st) : stat(path, &st);
        *regular = rc == 0 && S_ISREG(st.st_mode);
        small = *regular && st.st_size < ((off_t)4 << 20);
    }
    struct tf_input_opts opts = {.thread = !small, .spool = true};
    return tf_input_open(path, &opts, d);
}

/* The first step: every pass but the generic mode's second (*rest). */
static bool load_first(const char *path, const struct tf_keep *keep, struct tf_trace *out,
                       struct tf_input **in_out, struct tf_stream **rest, struct tf_diag *d)
{
    *rest = NULL;
    *in_out = NULL;
    /* A CTF trace (LTTng, perf) is a folder with a metadata file, read
     * through libbabeltrace2. */
    if (tf_ctf_is_trace(path))
        return tf_load_ctf(path, tf_diag_name(path), keep, out, d);
    /* An OTF2 archive is a folder of files, read through libotf2. */
    if (tf_otf2_is_archive(path))
        return tf_load_otf2(path, tf_diag_name(path), keep, out, d);
    bool regular;
    struct tf_input *in = open_trace(path, &regular, d);
    *in_out = in;
    if (!in)
        return false;
    /* An Nsight Systems export is an SQLite database; its report is not. */
    unsigned char head[TF_SQLITE_MAGIC_LEN];
    size_t n_head = peek(in, head, sizeof head);
    const char *file = tf_diag_name(path);
    if (!tf_diag_failed(d) && tf_sq_is_sqlite(head, n_head)) {
        bool as_is = regular && strcmp(path, "-") != 0 && !tf_input_is_gzip(in);
        bool ok = load_export(in, path, as_is, keep, out, d);
        tf_input_close(in);
        *in_out = NULL;
        return ok; /* read whole (its window chosen by the mode as it is read) */
    }
    if (!tf_diag_failed(d) && (ends_with(path, ".nsys-rep") || ends_with(path, ".qdrep"))) {
        tf_input_close(in);
        *in_out = NULL;
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: an Nsight Systems report; export it first: nsys export "
                             "--type sqlite %s",
                             file, file);
    }
    if (!tf_diag_failed(d) && (ends_with(path, ".sqlite") || ends_with(path, ".sqlite3"))) {
        tf_input_close(in);
        *in_out = NULL;
        return tf_diag_error(d, TF_EBADINPUT,
                             n_head == 0 ? "%s: an empty file, not an SQLite database (an "
                                           "Nsight Systems export)"
                                         : "%s: not an SQLite database (it does not begin with "
                                           "\"SQLite format 3\"): not an Nsight Systems export",
                             file);
    }
    /* rocprofv3 and rocprof name their databases results.db: one that is no
     * SQLite database (a damaged copy) is not read as JSON unless it looks
     * like JSON. */
    if (!tf_diag_failed(d) && ends_with(path, ".db") && (n_head == 0 || !json_head(head, n_head))) {
        tf_input_close(in);
        *in_out = NULL;
        return tf_diag_error(d, TF_EBADINPUT,
                             n_head == 0 ? "%s: an empty file, not an SQLite database (a rocpd "
                                           "database)"
                                         : "%s: not an SQLite database (it does not begin with "
                                           "\"SQLite format 3\"): not a rocpd database",
                             file);
    }
    /* An XPlane profile or a Perfetto protobuf trace, by their first
     * bytes (an XSpace's first plane is told from a packet by its
     * structure; a .pftrace holding JSON is read as JSON). */
    if (!tf_diag_failed(d)) {
        unsigned char pf_head[4096];
        size_t n_pf = peek(in, pf_head, sizeof pf_head);
        /* a Git LFS pointer: the text a repository keeps in the trace's place */
        static const char lfs[] = "version https://git-lfs.github.com/spec/";
        if (!tf_diag_failed(d) && n_pf >= sizeof lfs - 1 &&
            memcmp(pf_head, lfs, sizeof lfs - 1) == 0) {
            tf_input_close(in);
            *in_out = NULL;
            return tf_diag_error(d, TF_EBADINPUT,
                                 "%s: a Git LFS pointer (a few lines of text), not the trace "
                                 "itself: fetch it with git lfs pull",
                                 file);
        }
        if (!tf_diag_failed(d) && tf_xplane_looks(pf_head, n_pf))
            return tf_load_xplane(in, file, keep, out, d);
        if (!tf_diag_failed(d) && tf_pftrace_looks(pf_head, n_pf))
            return tf_load_pftrace(in, file, keep, out, d);
        if (!tf_diag_failed(d) && tf_ftrace_looks(pf_head, n_pf))
            return tf_load_ftrace(in, file, keep, out, d);
    }
    /* The streaming path reads every trace; TRACEFIG_LOAD=whole asks for
     * jansson's whole-document parse instead (timelines only: the tests
     * hold the two against each other). */
    const char *mode = getenv("TRACEFIG_LOAD");
    bool stream = !(mode && strcmp(mode, "whole") == 0) || !regular ||
                  !tf_input_can_seek(in) || looks_chrome(in);
    return stream ? tf_stream_first(in, path, keep, out, rest, d)
                  : load_whole(in, path, keep, out, d);
}

static void load_failed(struct tf_trace *out)
{
    tf_trace_fini(out);
    tf_trace_init(out);
}

bool tf_load_trace(const char *path, const struct tf_keep *keep, struct tf_trace *out,
                   struct tf_diag *d)
{
    struct tf_input *in;
    struct tf_stream *rest;
    bool ok = load_first(path, keep, out, &in, &rest, d);
    if (ok && rest)
        ok = tf_stream_second(rest, in, d);
    tf_stream_free(rest);
    tf_input_close(in);
    if (!ok)
        load_failed(out);
    return ok;
}

/* --- in two steps ------------------------------------------------------------------ */

struct tf_load_job {
    const char *path;
    struct tf_stream *rest;
};

bool tf_load_begin(const char *path, const struct tf_keep *keep, struct tf_trace *out,
                   struct tf_load_job **job, struct tf_diag *d)
{
    *job = NULL;
    struct tf_input *in;
    struct tf_stream *rest;
    bool ok = load_first(path, keep, out, &in, &rest, d);
    tf_input_close(in);
    if (ok && rest && !(*job = malloc(sizeof **job)))
        ok = tf_diag_oom(d, tf_diag_name(path));
    if (!ok) {
        tf_stream_free(rest);
        load_failed(out);
        return false;
    }
    if (*job) {
        (*job)->path = path;
        (*job)->rest = rest;
    }
    return true;
}

bool tf_load_finish(struct tf_load_job *job, struct tf_trace *out, struct tf_diag *d)
{
    bool regular;
    struct tf_input *in = open_trace(job->path, &regular, d);
    bool ok = in && tf_stream_second(job->rest, in, d);
    tf_input_close(in);
    tf_load_cancel(job);
    if (!ok)
        load_failed(out);
    return ok;
}

void tf_load_cancel(struct tf_load_job *job)
{
    if (!job)
        return;
    tf_stream_free(job->rest);
    free(job);
}
