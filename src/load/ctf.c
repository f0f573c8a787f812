/* ctf.c - CTF traces (LTTng, perf's CTF, barectf), read through
 * libbabeltrace2; see ctf.h.  This file finds a trace (by its metadata's
 * content), loads the library, and reads the events tracefig draws into
 * an array in time order; ctf_conv.c turns them into records.
 *
 * IMPLEMENTATION NOTES
 *
 * One iterator per stream.  A graph of the ctf plugin's fs source and one
 * simple sink per output port (per data stream, its rotated files
 * included), run to the end: each sink pulls its stream's messages in its
 * own order and keeps what it knows (ctf_int.h's events).  No muxer: old
 * LTTng packets that overlap make babeltrace2's muxer stop ("timestamps
 * go backwards"); tracefig merges the streams itself, a stable sort by
 * time, so a trace reads whole as Trace Compass reads it.
 *
 * One clock.  Times are ns from the clock's origin
 * (bt_clock_snapshot_get_ns_from_origin), so the kernel and user-space
 * traces of one LTTng session, found under one folder by the source, are
 * on one clock.
 *
 * Errors.  libbabeltrace2 reports through the current thread's error: its
 * oldest cause (the most precise: the reader's own words) is said in one
 * line naming the trace.
 */
#include "load/ctf.h"

#include "load/ctf_int.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "load/kind.h"

/* --- finding a trace ---------------------------------------------------------- */

static bool ends_with_name(const char *path, const char *name)
{
    size_t n = strlen(path), k = strlen(name);
    return n >= k && strcmp(path + n - k, name) == 0 && (n == k || path[n - k - 1] == '/');
}

/* Whether the file at path begins as a CTF metadata file does. */
static bool metadata_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    unsigned char head[512];
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    return tf_kind_is_ctf_metadata(head, n);
}

/* Whether the folder holds a CTF trace, itself or below (an LTTng session:
 * kernel/, ust/uid/1000/64-bit/), at most `depth` levels down. */
static bool folder_has_trace(const char *dir, int depth)
{
    char sub[4096];
    snprintf(sub, sizeof sub, "%s/metadata", dir);
    if (metadata_file(sub))
        return true;
    if (depth == 0)
        return false;
    DIR *dh = opendir(dir);
    if (!dh)
        return false;
    bool found = false;
    struct dirent *e;
    while (!found && (e = readdir(dh))) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "index") == 0)
            continue;
        if ((size_t)snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name) >= sizeof sub)
            continue;
        struct stat st;
        if (stat(sub, &st) == 0 && S_ISDIR(st.st_mode))
            found = folder_has_trace(sub, depth - 1);
    }
    closedir(dh);
    return found;
}

bool tf_ctf_is_trace(const char *path)
{
    struct stat st;
    if (strcmp(path, "-") == 0 || stat(path, &st) != 0)
        return false;
    if (S_ISDIR(st.st_mode))
        return folder_has_trace(path, 6);
    return S_ISREG(st.st_mode) && ends_with_name(path, "metadata") && metadata_file(path);
}

/* The folders of the traces under dir (itself, or those below it, in name
 * order), each ended by a NUL in b. */
static bool collect_dirs(const char *dir, int depth, struct tf_buf *b, size_t *n)
{
    char sub[4096];
    snprintf(sub, sizeof sub, "%s/metadata", dir);
    if (metadata_file(sub)) {
        tf_buf_puts(b, dir);
        tf_buf_putc(b, 0);
        ++*n;
        return !b->oom;
    }
    if (depth == 0)
        return true;
    struct dirent **names;
    int k = scandir(dir, &names, NULL, alphasort);
    if (k < 0)
        return true;
    bool ok = true;
    for (int i = 0; i < k; i++) {
        const char *nm = names[i]->d_name;
        struct stat st;
        if (ok && nm[0] != '.' && strcmp(nm, "index") != 0 &&
            (size_t)snprintf(sub, sizeof sub, "%s/%s", dir, nm) < sizeof sub &&
            stat(sub, &st) == 0 && S_ISDIR(st.st_mode))
            ok = collect_dirs(sub, depth - 1, b, n);
        free(names[i]);
    }
    free(names);
    return ok;
}

/* The folders to read: those of the traces at the path (a folder), or the
 * folder of its metadata file. */
static bool trace_dirs(const char *path, struct tf_buf *b, size_t *n)
{
    struct stat st;
    *n = 0;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return collect_dirs(path, 6, b, n);
    size_t len = strlen(path) - strlen("metadata");
    if (len == 0)
        tf_buf_puts(b, ".");
    else
        tf_buf_putn(b, path, len);
    tf_buf_putc(b, 0);
    *n = 1;
    return !b->oom;
}

uint32_t tf_ctf_str(struct ctf *x, const char *s)
{
    uint32_t id = 0;
    if (s && *s && !tf_strtab_id(&x->strs, s, &id))
        return 0;
    return id;
}

#ifndef TF_HAVE_BT2

bool tf_ctf_read(struct ctf *x, const char *dirs, size_t n_dirs)
{
    (void)dirs;
    (void)n_dirs;
    return tf_diag_error(x->d, TF_EIO,
                         "%s: a CTF trace (LTTng, perf), but this tracefig was built without "
                         "CTF support: install Debian's libbabeltrace2-dev and build again",
                         x->file);
}

#else

#include <pthread.h>

#include <babeltrace2/babeltrace.h>

#include "base/dl.h"

/* --- the library ----------------------------------------------------------------- */

#define TF_BT_FUNCS(X)                                                                          \
    X(0, bt_plugin_find_status, bt_plugin_find,                                                 \
      (const char *, bt_bool, bt_bool, bt_bool, bt_bool, bt_bool, const bt_plugin **))          \
    X(0, const bt_component_class_source *, bt_plugin_borrow_source_component_class_by_name_const, \
      (const bt_plugin *, const char *))                                                        \
    X(0, void, bt_plugin_put_ref, (const bt_plugin *))                                          \
    X(0, bt_graph *, bt_graph_create, (uint64_t))                                               \
    X(0, void, bt_graph_put_ref, (const bt_graph *))                                            \
    X(0, bt_graph_add_component_status, bt_graph_add_source_component,                         \
      (bt_graph *, const bt_component_class_source *, const char *, const bt_value *,           \
       bt_logging_level, const bt_component_source **))                                         \
    X(0, bt_graph_add_component_status, bt_graph_add_simple_sink_component,                    \
      (bt_graph *, const char *, bt_graph_simple_sink_component_initialize_func,                \
       bt_graph_simple_sink_component_consume_func,                                             \
       bt_graph_simple_sink_component_finalize_func, void *, const bt_component_sink **))       \
    X(0, bt_graph_connect_ports_status, bt_graph_connect_ports,                                 \
      (bt_graph *, const bt_port_output *, const bt_port_input *, const bt_connection **))      \
    X(0, bt_graph_run_status, bt_graph_run, (bt_graph *))                                       \
    X(0, uint64_t, bt_component_source_get_output_port_count, (const bt_component_source *))    \
    X(0, const bt_port_output *, bt_component_source_borrow_output_port_by_index_const,         \
      (const bt_component_source *, uint64_t))                                                  \
    X(0, const bt_port_input *, bt_component_sink_borrow_input_port_by_index_const,             \
      (const bt_component_sink *, uint64_t))                                                    \
    X(0, bt_value *, bt_value_map_create, (void))                                               \
    X(0, bt_value *, bt_value_array_create, (void))                                             \
    X(0, void, bt_value_put_ref, (const bt_value *))                                            \
    X(0, bt_value_array_append_element_status, bt_value_array_append_string_element,            \
      (bt_value *, const char *))                                                               \
    X(0, bt_value_map_insert_entry_status, bt_value_map_insert_entry,                           \
      (bt_value *, const char *, bt_value *))                                                   \
    X(0, bt_value_type, bt_value_get_type, (const bt_value *))                                  \
    X(0, const char *, bt_value_string_get, (const bt_value *))                                 \
    X(0, bt_message_iterator_next_status, bt_message_iterator_next,                             \
      (bt_message_iterator *, bt_message_array_const *, uint64_t *))                            \
    X(0, void, bt_message_put_ref, (const bt_message *))                                        \
    X(0, bt_message_type, bt_message_get_type, (const bt_message *))                            \
    X(0, const bt_stream *, bt_message_stream_beginning_borrow_stream_const,                    \
      (const bt_message *))                                                                     \
    X(0, const bt_packet *, bt_message_packet_beginning_borrow_packet_const,                    \
      (const bt_message *))                                                                     \
    X(0, const bt_event *, bt_message_event_borrow_event_const, (const bt_message *))           \
    X(0, const bt_clock_class *, bt_message_event_borrow_stream_class_default_clock_class_const, \
      (const bt_message *))                                                                     \
    X(0, const bt_clock_snapshot *, bt_message_event_borrow_default_clock_snapshot_const,       \
      (const bt_message *))                                                                     \
    X(0, bt_property_availability, bt_message_discarded_events_get_count,                       \
      (const bt_message *, uint64_t *))                                                         \
    X(0, const bt_stream *, bt_message_discarded_events_borrow_stream_const,                    \
      (const bt_message *))                                                                     \
    X(0, const bt_clock_snapshot *,                                                             \
      bt_message_discarded_events_borrow_beginning_default_clock_snapshot_const,                \
      (const bt_message *))                                                                     \
    X(0, const bt_clock_snapshot *,                                                             \
      bt_message_discarded_events_borrow_end_default_clock_snapshot_const,                      \
      (const bt_message *))                                                                     \
    X(0, const bt_stream *, bt_message_discarded_packets_borrow_stream_const,                   \
      (const bt_message *))                                                                     \
    X(0, bt_property_availability, bt_message_discarded_packets_get_count,                      \
      (const bt_message *, uint64_t *))                                                         \
    X(0, const bt_clock_snapshot *,                                                             \
      bt_message_discarded_packets_borrow_beginning_default_clock_snapshot_const,               \
      (const bt_message *))                                                                     \
    X(0, const bt_clock_snapshot *,                                                             \
      bt_message_discarded_packets_borrow_end_default_clock_snapshot_const,                     \
      (const bt_message *))                                                                     \
    X(0, const bt_stream_class *, bt_stream_borrow_class_const, (const bt_stream *))            \
    X(0, bt_bool, bt_stream_class_discarded_events_have_default_clock_snapshots,                \
      (const bt_stream_class *))                                                                \
    X(0, bt_bool, bt_stream_class_discarded_packets_have_default_clock_snapshots,               \
      (const bt_stream_class *))                                                                \
    X(0, bt_clock_snapshot_get_ns_from_origin_status, bt_clock_snapshot_get_ns_from_origin,     \
      (const bt_clock_snapshot *, int64_t *))                                                   \
    X(0, const bt_event_class *, bt_event_borrow_class_const, (const bt_event *))               \
    X(0, const char *, bt_event_class_get_name, (const bt_event_class *))                       \
    X(0, const bt_field *, bt_event_borrow_payload_field_const, (const bt_event *))             \
    X(0, const bt_field *, bt_event_borrow_common_context_field_const, (const bt_event *))      \
    X(0, const bt_field *, bt_event_borrow_specific_context_field_const, (const bt_event *))    \
    X(0, const bt_stream *, bt_event_borrow_stream_const, (const bt_event *))                   \
    X(0, const bt_field *, bt_packet_borrow_context_field_const, (const bt_packet *))           \
    X(0, const bt_stream *, bt_packet_borrow_stream_const, (const bt_packet *))                 \
    X(0, const char *, bt_stream_get_name, (const bt_stream *))                                 \
    X(0, uint64_t, bt_stream_get_id, (const bt_stream *))                                       \
    X(0, const bt_trace *, bt_stream_borrow_trace_const, (const bt_stream *))                   \
    X(0, const char *, bt_trace_get_name, (const bt_trace *))                                   \
    X(0, const bt_value *, bt_trace_borrow_environment_entry_value_by_name_const,               \
      (const bt_trace *, const char *))                                                         \
    X(0, bt_field_class_type, bt_field_get_class_type, (const bt_field *))                      \
    X(0, const bt_field *, bt_field_structure_borrow_member_field_by_name_const,                \
      (const bt_field *, const char *))                                                         \
    X(0, uint64_t, bt_field_integer_unsigned_get_value, (const bt_field *))                     \
    X(0, int64_t, bt_field_integer_signed_get_value, (const bt_field *))                        \
    X(0, const char *, bt_field_string_get_value, (const bt_field *))                           \
    X(0, const bt_error *, bt_current_thread_take_error, (void))                                \
    X(0, void, bt_current_thread_clear_error, (void))                                           \
    X(0, uint64_t, bt_error_get_cause_count, (const bt_error *))                                \
    X(0, const bt_error_cause *, bt_error_borrow_cause_by_index, (const bt_error *, uint64_t))  \
    X(0, const char *, bt_error_cause_get_message, (const bt_error_cause *))                    \
    X(0, void, bt_error_release, (const bt_error *))
TF_BT_FUNCS(TF_DL_TYPEDEF)
TF_BT_FUNCS(TF_DL_CHECK)
static struct bt_api {
    TF_BT_FUNCS(TF_DL_MEMBER)
} bt;

static pthread_once_t bt_once = PTHREAD_ONCE_INIT;
static struct tf_diag bt_outcome;

#define TF_DL_API struct bt_api
static const struct tf_dl_sym bt_syms[] = {TF_BT_FUNCS(TF_DL_SYM)};
#undef TF_DL_API
static const struct tf_dl_lib bt_lib = {"libbabeltrace2.so.0", "libbabeltrace2-0"};

static void bt_load_once(void)
{
    tf_diag_init(&bt_outcome);
    tf_dl_load("Reading a CTF trace (LTTng, perf)", &bt_lib, 1, bt_syms,
               sizeof bt_syms / sizeof bt_syms[0], &bt, sizeof bt, &bt_outcome);
}

/* --- errors ---------------------------------------------------------------------- */

/* Where a stream file goes wrong, by its packets' own account as LTTng
 * and barectf lay them out (the magic 0xC1FC1FC1 first; packet_size, in
 * bits, the fourth 64-bit member of the packet context after a header of
 * magic, uuid, stream_id and stream_instance_id, or without the last):
 * the byte of the first packet without its magic, or of the packet the
 * file ends in; -1 when they look whole.  *want_at: where packet `want`
 * (0 first) begins, when the walk gets there. */
static long long bad_byte(const char *path, bool *cut, long long want, long long *want_at)
{
    FILE *f = fopen(path, "rb");
    *cut = false;
    if (!f)
        return -1;
    long long at = -1;
    unsigned char h[72];
    fseek(f, 0, SEEK_END);
    long long size = ftell(f);
    long long k = 0;
    for (long long p = 0; p < size; k++) {
        if (k == want)
            *want_at = p;
        if (fseek(f, p, SEEK_SET) != 0 || fread(h, 1, sizeof h, f) < 4) {
            at = p;
            break;
        }
        bool le = h[0] == 0xC1 && h[1] == 0x1F && h[2] == 0xFC && h[3] == 0xC1;
        bool be = h[0] == 0xC1 && h[1] == 0xFC && h[2] == 0x1F && h[3] == 0xC1;
        if (!le && !be) {
            at = p;
            break;
        }
        uint64_t ps = 0;
        for (int off = 56; off >= 48 && !ps; off -= 8) {
            uint64_t v = 0;
            for (int i = 0; i < 8; i++)
                v |= (uint64_t)h[off + (le ? i : 7 - i)] << (8 * i);
            uint64_t cs = 0;
            for (int i = 0; i < 8; i++)
                cs |= (uint64_t)h[off - 8 + (le ? i : 7 - i)] << (8 * i);
            if (v && v % 8 == 0 && cs <= v && v / 8 < ((uint64_t)1 << 40))
                ps = v / 8;
        }
        if (!ps)
            break; /* not a layout this walk knows */
        if (p + (long long)ps > size) {
            *cut = true;
            at = p;
            break;
        }
        p += (long long)ps;
    }
    fclose(f);
    return at;
}

/* libbabeltrace2's error of this thread, in one line naming the trace, or
 * the stream file it names and where that file goes wrong. */
static bool bt_fail_at(struct ctf *x, const char *what, const char *stream, long long packet);

static bool bt_fail(struct ctf *x, const char *what)
{
    return bt_fail_at(x, what, NULL, -1);
}

/* ... or, when a stream's iterator failed (stream: its file, packet: the
 * packet it was in), that file and the byte of that packet. */
static bool bt_fail_at(struct ctf *x, const char *what, const char *stream, long long packet)
{
    if (tf_diag_failed(x->d))
        return false;
    const bt_error *err = bt.bt_current_thread_take_error();
    char msg[600] = "", path[1024] = "";
    if (err) {
        uint64_t n = bt.bt_error_get_cause_count(err);
        /* cause 0 is the deepest: the reader's own account */
        for (uint64_t i = 0; i < n; i++) {
            const char *m = bt.bt_error_cause_get_message(bt.bt_error_borrow_cause_by_index(err, i));
            if (!m || !*m)
                continue;
            if (!msg[0])
                snprintf(msg, sizeof msg, "%s", m);
            /* the stream file a cause names: `PATH` or 'PATH' */
            const char *q = strstr(m, "stream file");
            const char *o = q ? strchr(q, '`') : NULL;
            if (q && !o && (o = strstr(q, "file '")) != NULL)
                o += 5;
            const char *c = o ? strchr(o + 1, *o) : NULL;
            if (!path[0] && c && (size_t)(c - o - 1) < sizeof path)
                snprintf(path, sizeof path, "%.*s", (int)(c - o - 1), o + 1);
        }
        bt.bt_error_release(err);
    }
    /* the message without its addresses and states */
    char *cut_at = strstr(msg, ": msg-it-addr=");
    if (!cut_at)
        cut_at = strstr(msg, ": status=");
    if (cut_at)
        *cut_at = 0;
    for (char *p = msg; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
    if (!path[0] && stream && strlen(stream) < sizeof path)
        snprintf(path, sizeof path, "%s", stream);
    if (path[0]) {
        bool cut;
        long long want_at = -1;
        long long at = bad_byte(path, &cut, packet, &want_at);
        if (at < 0 && want_at >= 0)
            at = want_at;
        const char *base = strrchr(path, '/');
        if (at >= 0 && (cut || strstr(msg, "returned EOF")))
            return tf_diag_error(x->d, TF_EBADINPUT,
                                 "%s/%s: byte %lld: a packet cut short by the file's end (a "
                                 "stream file copied in part?)",
                                 x->file, base ? base + 1 : path, at);
        if (at >= 0)
            return tf_diag_error(x->d, TF_EBADINPUT, "%s/%s: byte %lld: %s", x->file,
                                 base ? base + 1 : path, at, msg);
        return tf_diag_error(x->d, TF_EBADINPUT, "%s/%s: %s", x->file, base ? base + 1 : path,
                             msg);
    }
    char meta[1040];
    snprintf(meta, sizeof meta, "%.1000s/metadata", x->dir0 ? x->dir0 : ".");
    FILE *mf = fopen(meta, "rb");
    int first = mf ? fgetc(mf) : EOF;
    if (mf)
        fclose(mf);
    if (strncmp(msg, "Cannot create trace for", 23) == 0 && first == 0x1E)
        return tf_diag_error(x->d, TF_EBADINPUT,
                             "%s/metadata: a CTF 2 trace, which this babeltrace2 cannot read "
                             "(babeltrace2: %s)",
                             x->file, msg);
    if (strncmp(msg, "Cannot create trace for", 23) == 0)
        return tf_diag_error(x->d, TF_EBADINPUT,
                             "%s/metadata: the trace's metadata does not parse (babeltrace2: "
                             "%s)",
                             x->file, msg);
    return tf_diag_error(x->d, TF_EBADINPUT, "%s: %s%s%s", x->file, what, msg[0] ? ": " : "",
                         msg);
}

/* --- fields ---------------------------------------------------------------------- */

/* Member `name` of the event: its payload's, else its contexts'. */
static const bt_field *member(const bt_event *e, const char *name)
{
    const bt_field *s[3] = {bt.bt_event_borrow_payload_field_const(e),
                            bt.bt_event_borrow_common_context_field_const(e),
                            bt.bt_event_borrow_specific_context_field_const(e)};
    for (int i = 0; i < 3; i++) {
        const bt_field *f =
            s[i] ? bt.bt_field_structure_borrow_member_field_by_name_const(s[i], name) : NULL;
        if (f)
            return f;
    }
    return NULL;
}

static bool int_of(const bt_field *f, int64_t *v)
{
    if (!f)
        return false;
    bt_field_class_type t = bt.bt_field_get_class_type(f);
    if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
        *v = (int64_t)bt.bt_field_integer_unsigned_get_value(f);
    else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
        *v = bt.bt_field_integer_signed_get_value(f);
    else
        return false;
    return true;
}

static bool int_field(const bt_event *e, const char *name, int64_t *v)
{
    return int_of(member(e, name), v);
}

static const char *str_field(const bt_event *e, const char *name)
{
    const bt_field *f = member(e, name);
    if (!f || !bt_field_class_type_is(bt.bt_field_get_class_type(f), BT_FIELD_CLASS_TYPE_STRING))
        return NULL;
    return bt.bt_field_string_get_value(f);
}

static const char *env_str(const bt_trace *t, const char *name)
{
    const bt_value *v = t ? bt.bt_trace_borrow_environment_entry_value_by_name_const(t, name) : NULL;
    return v && bt.bt_value_get_type(v) == BT_VALUE_TYPE_STRING ? bt.bt_value_string_get(v) : NULL;
}

/* --- the sinks ------------------------------------------------------------------- */

/* One stream's sink: its streams (a port has one; kept as a short list). */
struct port {
    struct ctf *x;
    const bt_stream *bs[4];
    uint32_t idx[4];
    size_t n;
    int64_t last_tid; /* the thread last named from this stream's contexts */
    bool failed;
    bool iter_failed;  /* its iterator reported an error */
    char path[1024];   /* its (first) stream's file */
    long long n_begun; /* packets begun */
    bool in_packet;
};

static bool push(struct ctf *x, const struct ctf_ev *e)
{
    if (!TF_GROW(x->ev, x->n_ev, x->cap_ev))
        return tf_diag_oom(x->d, x->file);
    x->ev[x->n_ev++] = *e;
    return true;
}

static struct ctf_stream *stream_of(struct port *p, const bt_stream *s, uint32_t *idx)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->bs[i] == s) {
            *idx = p->idx[i];
            return &p->x->streams[p->idx[i]];
        }
    struct ctf *x = p->x;
    if (!TF_GROW(x->streams, x->n_streams, x->cap_streams))
        return NULL;
    struct ctf_stream *st = &x->streams[x->n_streams];
    memset(st, 0, sizeof *st);
    st->cpu = -1;
    const char *name = bt.bt_stream_get_name(s);
    char alt[40];
    if (!name || !*name) {
        snprintf(alt, sizeof alt, "stream %llu", (unsigned long long)bt.bt_stream_get_id(s));
        name = alt;
    }
    const char *slash = strrchr(name, '/');
    st->name = tf_ctf_str(x, slash ? slash + 1 : name);
    if (!p->path[0] && strlen(name) < sizeof p->path)
        snprintf(p->path, sizeof p->path, "%s", name);
    const bt_trace *t = bt.bt_stream_borrow_trace_const(s);
    const char *tn = t ? bt.bt_trace_get_name(t) : NULL;
    st->trace = tf_ctf_str(x, tn);
    const char *dom = env_str(t, "domain");
    st->kernel = dom && strcmp(dom, "kernel") == 0;
    *idx = (uint32_t)x->n_streams++;
    if (p->n < 4) {
        p->bs[p->n] = s;
        p->idx[p->n++] = *idx;
    }
    return st;
}

static const char *const softirq_names[] = {"HI",    "TIMER",   "NET_TX", "NET_RX",  "BLOCK",
                                            "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU"};

static bool prefixed(const char *s, const char *pre, const char **rest)
{
    size_t n = strlen(pre);
    if (strncmp(s, pre, n) != 0)
        return false;
    *rest = s + n;
    return true;
}

/* A kernel event (its name without perf's "subsystem:"), into e. */
static bool kernel_event(struct port *p, const bt_event *ev, const char *name, struct ctf_ev *e)
{
    struct ctf *x = p->x;
    const char *colon = strchr(name, ':'), *rest;
    if (colon)
        name = colon + 1;
    int64_t v;
    char buf[160];
    if (strcmp(name, "sched_switch") == 0) {
        int64_t prev = 0, next = 0;
        if (!int_field(ev, "prev_tid", &prev))
            int_field(ev, "prev_pid", &prev);
        if (!int_field(ev, "next_tid", &next))
            int_field(ev, "next_pid", &next);
        if (int_field(ev, "perf_cpu", &v)) /* perf's CPU, in the payload */
            e->cpu = (int32_t)v;
        e->kind = CTF_SWITCH;
        e->a = prev;
        e->b = next;
        e->name = tf_ctf_str(x, str_field(ev, "next_comm"));
        e->c = tf_ctf_str(x, str_field(ev, "prev_comm"));
        return true;
    }
    if (strcmp(name, "lttng_statedump_process_state") == 0 ||
        strcmp(name, "sched_process_fork") == 0) {
        bool fork = name[0] == 's';
        int64_t tid = -1, pid = -1;
        int_field(ev, fork ? "child_tid" : "tid", &tid);
        if (!int_field(ev, fork ? "child_pid" : "pid", &pid))
            pid = -1;
        e->kind = CTF_NAME;
        e->a = tid;
        e->b = pid;
        e->name = tf_ctf_str(x, str_field(ev, fork ? "child_comm" : "name"));
        return tid >= 0;
    }
    bool irq = x->kernel_detail & TF_KDETAIL_IRQ, sys = x->kernel_detail & TF_KDETAIL_SYSCALLS;
    if (irq && strcmp(name, "irq_handler_entry") == 0) {
        const char *h = str_field(ev, "name");
        if (!int_field(ev, "irq", &v))
            v = -1;
        if (h && *h)
            snprintf(buf, sizeof buf, "irq %lld %s", (long long)v, h);
        else
            snprintf(buf, sizeof buf, "irq %lld", (long long)v);
        e->kind = CTF_IRQ_IN;
        e->name = tf_ctf_str(x, buf);
        return true;
    }
    if (irq && strcmp(name, "irq_handler_exit") == 0) {
        e->kind = CTF_IRQ_OUT;
        return true;
    }
    if (irq && (strcmp(name, "softirq_entry") == 0 || strcmp(name, "softirq_exit") == 0)) {
        if (!int_field(ev, "vec", &v))
            v = -1;
        if (v >= 0 && v < (int64_t)(sizeof softirq_names / sizeof softirq_names[0]))
            snprintf(buf, sizeof buf, "softirq %s", softirq_names[v]);
        else
            snprintf(buf, sizeof buf, "softirq %lld", (long long)v);
        e->kind = name[8] == 'e' && name[9] == 'n' ? CTF_SOFT_IN : CTF_SOFT_OUT;
        e->name = tf_ctf_str(x, buf);
        return true;
    }
    if (!sys)
        return false;
    if (prefixed(name, "syscall_entry_", &rest) || prefixed(name, "compat_syscall_entry_", &rest) ||
        prefixed(name, "sys_enter_", &rest)) {
        e->kind = CTF_SYS_IN;
        e->name = tf_ctf_str(x, rest);
        return true;
    }
    if (prefixed(name, "syscall_exit_", &rest) || prefixed(name, "compat_syscall_exit_", &rest) ||
        prefixed(name, "sys_exit", &rest) || strcmp(name, "exit_syscall") == 0) {
        e->kind = CTF_SYS_OUT;
        return true;
    }
    if (strcmp(name, "sys_enter") == 0) { /* raw_syscalls */
        snprintf(buf, sizeof buf, "syscall %lld", int_field(ev, "id", &v) ? (long long)v : -1LL);
        e->kind = CTF_SYS_IN;
        e->name = tf_ctf_str(x, buf);
        return true;
    }
    if (prefixed(name, "sys_", &rest) && *rest) { /* LTTng before 2.7 */
        e->kind = CTF_SYS_IN;
        e->name = tf_ctf_str(x, rest);
        return true;
    }
    return false;
}

/* The end of a name that pairs with another: 1 begins, 2 ends, 0 neither;
 * *base_len the length of the name without it. */
static int pair_suffix(const char *name, size_t *base_len)
{
    static const struct {
        const char *s;
        int kind;
    } sfx[] = {{"_entry", 1}, {"_begin", 1}, {".begin", 1}, {"_start", 1},
               {"_exit", 2},  {"_end", 2},   {".end", 2}};
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++) {
        size_t k = strlen(sfx[i].s);
        if (n > k && strcmp(name + n - k, sfx[i].s) == 0) {
            *base_len = n - k;
            return sfx[i].kind;
        }
    }
    return 0;
}

/* A user-space event, into e (false: not kept). */
static bool user_event(struct port *p, const bt_event *ev, const char *name, struct ctf_ev *e)
{
    struct ctf *x = p->x;
    const char *colon = strchr(name, ':');
    char buf[256];
    if (strncmp(name, "lttng_ust_statedump:", 20) == 0 || strncmp(name, "lttng_ust_lib:", 14) == 0)
        return false; /* what the loader's own statedump says, no work */
    if (colon && strncmp(name, "lttng_ust_cyg_profile", 21) == 0) {
        if (strcmp(colon + 1, "func_entry") == 0) {
            int64_t addr = 0;
            int_field(ev, "addr", &addr);
            snprintf(buf, sizeof buf, "0x%llX", (unsigned long long)addr);
            e->kind = CTF_BEGIN;
            e->func = 1;
            e->name = tf_ctf_str(x, buf);
            return true;
        }
        if (strcmp(colon + 1, "func_exit") == 0) {
            e->kind = CTF_END;
            e->func = 1;
            return true;
        }
    }
    size_t base;
    int pk = pair_suffix(name, &base);
    if (pk) {
        snprintf(buf, sizeof buf, "%.*s", (int)(base < 200 ? base : 200), name);
        e->kind = pk == 1 ? CTF_BEGIN : CTF_END;
        e->name = tf_ctf_str(x, buf);
        return true;
    }
    e->kind = CTF_INSTANT;
    e->name = tf_ctf_str(x, name);
    return true;
}

/* The thread of an event from its contexts (vtid, vpid, procname: LTTng-UST;
 * tid, pid; perf_tid, perf_pid: perf), named once per change. */
static bool event_thread(struct port *p, const bt_event *ev, struct ctf_ev *e, bool *named)
{
    int64_t tid, pid = -1;
    *named = false;
    if (!int_field(ev, "vtid", &tid) && !int_field(ev, "perf_tid", &tid))
        return false;
    if (!int_field(ev, "vpid", &pid) && !int_field(ev, "perf_pid", &pid))
        pid = -1;
    e->tid = tid;
    e->pid = pid;
    if (tid != p->last_tid) {
        p->last_tid = tid;
        *named = true;
    }
    return true;
}

static bool on_event(struct port *p, const bt_message *m)
{
    struct ctf *x = p->x;
    const bt_event *ev = bt.bt_message_event_borrow_event_const(m);
    uint32_t si;
    struct ctf_stream *st = stream_of(p, bt.bt_event_borrow_stream_const(ev), &si);
    if (!st)
        return tf_diag_oom(x->d, x->file);
    if (!bt.bt_message_event_borrow_stream_class_default_clock_class_const(m))
        return true; /* no time: nothing to draw it at */
    struct ctf_ev e;
    memset(&e, 0, sizeof e);
    if (bt.bt_clock_snapshot_get_ns_from_origin(
            bt.bt_message_event_borrow_default_clock_snapshot_const(m), &e.ts) !=
        BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK)
        return true;
    e.stream = si;
    e.cpu = st->cpu;
    e.tid = e.pid = -1;
    const char *name = bt.bt_event_class_get_name(bt.bt_event_borrow_class_const(ev));
    if (!name)
        name = "";
    bool named = false;
    if (event_thread(p, ev, &e, &named))
        st->threads = true;
    if (named) {
        const char *comm = str_field(ev, "procname");
        if ((comm && *comm) || e.pid >= 0) {
            struct ctf_ev n = e;
            n.kind = CTF_NAME;
            n.a = e.tid;
            n.b = e.pid;
            n.name = tf_ctf_str(x, comm);
            if (!push(x, &n))
                return false;
        }
    }
    bool keep = st->kernel || strstr(name, "sched_switch") ? kernel_event(p, ev, name, &e)
                                                           : user_event(p, ev, name, &e);
    if (!st->kernel && keep && e.kind == CTF_SWITCH)
        st->kernel = true;
    return keep ? push(x, &e) : true;
}

static bool on_lost(struct port *p, const bt_message *m, bool packets)
{
    struct ctf *x = p->x;
    const bt_stream *s = packets ? bt.bt_message_discarded_packets_borrow_stream_const(m)
                                 : bt.bt_message_discarded_events_borrow_stream_const(m);
    uint32_t si;
    struct ctf_stream *st = stream_of(p, s, &si);
    if (!st)
        return tf_diag_oom(x->d, x->file);
    uint64_t count = 0;
    if (packets)
        bt.bt_message_discarded_packets_get_count(m, &count);
    else
        bt.bt_message_discarded_events_get_count(m, &count);
    x->n_lost += count;
    const bt_stream_class *sc = bt.bt_stream_borrow_class_const(s);
    bool times = packets ? bt.bt_stream_class_discarded_packets_have_default_clock_snapshots(sc)
                         : bt.bt_stream_class_discarded_events_have_default_clock_snapshots(sc);
    if (!times)
        return true;
    struct ctf_ev e;
    memset(&e, 0, sizeof e);
    const bt_clock_snapshot *b =
        packets ? bt.bt_message_discarded_packets_borrow_beginning_default_clock_snapshot_const(m)
                : bt.bt_message_discarded_events_borrow_beginning_default_clock_snapshot_const(m);
    const bt_clock_snapshot *en =
        packets ? bt.bt_message_discarded_packets_borrow_end_default_clock_snapshot_const(m)
                : bt.bt_message_discarded_events_borrow_end_default_clock_snapshot_const(m);
    if (bt.bt_clock_snapshot_get_ns_from_origin(b, &e.ts) != BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK ||
        bt.bt_clock_snapshot_get_ns_from_origin(en, &e.b) != BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK)
        return true;
    e.kind = CTF_LOST;
    e.a = (int64_t)count;
    e.stream = si;
    e.cpu = st->cpu;
    e.tid = e.pid = -1;
    return push(x, &e);
}

static bool on_message(struct port *p, const bt_message *m)
{
    uint32_t si;
    switch (bt.bt_message_get_type(m)) {
    case BT_MESSAGE_TYPE_STREAM_BEGINNING:
        return stream_of(p, bt.bt_message_stream_beginning_borrow_stream_const(m), &si)
                   ? true
                   : tf_diag_oom(p->x->d, p->x->file);
    case BT_MESSAGE_TYPE_PACKET_END:
        p->in_packet = false;
        return true;
    case BT_MESSAGE_TYPE_PACKET_BEGINNING: {
        p->n_begun++;
        p->in_packet = true;
        const bt_packet *pk = bt.bt_message_packet_beginning_borrow_packet_const(m);
        struct ctf_stream *st = stream_of(p, bt.bt_packet_borrow_stream_const(pk), &si);
        if (!st)
            return tf_diag_oom(p->x->d, p->x->file);
        const bt_field *ctx = bt.bt_packet_borrow_context_field_const(pk);
        const bt_field *f =
            ctx ? bt.bt_field_structure_borrow_member_field_by_name_const(ctx, "cpu_id") : NULL;
        int64_t cpu;
        if (int_of(f, &cpu))
            st->cpu = (int32_t)cpu;
        return true;
    }
    case BT_MESSAGE_TYPE_EVENT: return on_event(p, m);
    case BT_MESSAGE_TYPE_DISCARDED_EVENTS: return on_lost(p, m, false);
    case BT_MESSAGE_TYPE_DISCARDED_PACKETS: return on_lost(p, m, true);
    default: return true;
    }
}

static bt_graph_simple_sink_component_consume_func_status consume(bt_message_iterator *it,
                                                                  void *data)
{
    struct port *p = data;
    bt_message_array_const msgs;
    uint64_t n;
    switch (bt.bt_message_iterator_next(it, &msgs, &n)) {
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
        return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_END;
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
        return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_AGAIN;
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK: break;
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
        return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_MEMORY_ERROR;
    default:
        p->iter_failed = true;
        return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
    }
    bool ok = true;
    for (uint64_t i = 0; i < n; i++) {
        if (ok && !on_message(p, msgs[i]))
            ok = false;
        bt.bt_message_put_ref(msgs[i]);
    }
    if (!ok) {
        p->failed = true;
        return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
    }
    return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK;
}

/* --- the graph ------------------------------------------------------------------- */

/* A stable merge sort by time: each stream's events keep their order. */
static void sort_events(struct ctf_ev *v, struct ctf_ev *tmp, size_t n)
{
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = v[j].ts < v[i].ts ? v[j++] : v[i++];
            while (i < mid)
                tmp[k++] = v[i++];
            while (j < hi)
                tmp[k++] = v[j++];
        }
        memcpy(v, tmp, n * sizeof *v);
    }
}

/* One fs source per trace folder, one simple sink per output port. */
static bool run_graph(struct ctf *x, const char *dirs, size_t n_dirs, bt_graph *g,
                      const bt_plugin *plugin, struct port **ports_out)
{
    const bt_component_class_source *fs =
        bt.bt_plugin_borrow_source_component_class_by_name_const(plugin, "fs");
    if (!fs)
        return bt_fail(x, "babeltrace2's ctf plugin has no fs source");
    const bt_component_source **src = calloc(n_dirs ? n_dirs : 1, sizeof *src);
    if (!src)
        return tf_diag_oom(x->d, x->file);
    bool ok = true;
    uint64_t np = 0;
    const char *dir = dirs;
    for (size_t i = 0; ok && i < n_dirs; i++, dir += strlen(dir) + 1) {
        bt_value *params = bt.bt_value_map_create(), *inputs = bt.bt_value_array_create();
        char name[32];
        snprintf(name, sizeof name, "source-%zu", i);
        if (!params || !inputs ||
            bt.bt_value_array_append_string_element(inputs, dir) !=
                BT_VALUE_ARRAY_APPEND_ELEMENT_STATUS_OK ||
            bt.bt_value_map_insert_entry(params, "inputs", inputs) !=
                BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK)
            ok = tf_diag_oom(x->d, x->file);
        else if (bt.bt_graph_add_source_component(g, fs, name, params, BT_LOGGING_LEVEL_NONE,
                                                  &src[i]) != BT_GRAPH_ADD_COMPONENT_STATUS_OK)
            ok = bt_fail(x, "babeltrace2 cannot read it");
        else
            np += bt.bt_component_source_get_output_port_count(src[i]);
        bt.bt_value_put_ref(inputs);
        bt.bt_value_put_ref(params);
    }
    struct port *ports = ok ? calloc(np ? np : 1, sizeof *ports) : NULL;
    if (ok && !ports)
        ok = tf_diag_oom(x->d, x->file);
    *ports_out = ports;
    size_t at = 0;
    for (size_t i = 0; ok && i < n_dirs; i++) {
        uint64_t k = bt.bt_component_source_get_output_port_count(src[i]);
        for (uint64_t j = 0; ok && j < k; j++, at++) {
            char name[48];
            snprintf(name, sizeof name, "sink-%zu", at);
            ports[at].x = x;
            ports[at].last_tid = INT64_MIN;
            const bt_component_sink *sink;
            if (bt.bt_graph_add_simple_sink_component(g, name, NULL, consume, NULL, &ports[at],
                                                      &sink) != BT_GRAPH_ADD_COMPONENT_STATUS_OK ||
                bt.bt_graph_connect_ports(
                    g, bt.bt_component_source_borrow_output_port_by_index_const(src[i], j),
                    bt.bt_component_sink_borrow_input_port_by_index_const(sink, 0), NULL) !=
                    BT_GRAPH_CONNECT_PORTS_STATUS_OK)
                ok = bt_fail(x, "babeltrace2 cannot read it");
        }
    }
    free(src);
    if (ok) {
        bt_graph_run_status rs;
        while ((rs = bt.bt_graph_run(g)) == BT_GRAPH_RUN_STATUS_AGAIN)
            ;
        const struct port *bad = NULL;
        for (size_t i = 0; i < at && !bad; i++)
            bad = ports[i].iter_failed ? &ports[i] : NULL;
        if (rs != BT_GRAPH_RUN_STATUS_OK)
            ok = tf_diag_failed(x->d)
                     ? false
                     : bt_fail_at(x, "babeltrace2 stops reading it", bad ? bad->path : NULL,
                                  bad ? bad->n_begun - (bad->in_packet ? 1 : 0) : -1);
    }
    return ok;
}

bool tf_ctf_read(struct ctf *x, const char *dirs, size_t n_dirs)
{
    pthread_once(&bt_once, bt_load_once);
    if (!tf_dl_outcome(&bt_outcome, x->d)) {
        tf_diag_prefix(x->d, x->file);
        return false;
    }
    bt.bt_current_thread_clear_error();
    const bt_plugin *plugin = NULL;
    if (bt.bt_plugin_find("ctf", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_FALSE, &plugin) !=
            BT_PLUGIN_FIND_STATUS_OK ||
        !plugin) {
        bt.bt_current_thread_clear_error();
        return tf_diag_error(x->d, TF_EIO,
                             "%s: reading a CTF trace needs babeltrace2's ctf plugin, which "
                             "cannot be found (install Debian's libbabeltrace2-0)",
                             x->file);
    }
    bt_graph *g = bt.bt_graph_create(0);
    struct port *ports = NULL;
    bool ok = g ? run_graph(x, dirs, n_dirs, g, plugin, &ports) : tf_diag_oom(x->d, x->file);
    bt.bt_graph_put_ref(g); /* the sinks are finalized here: ports outlive it */
    free(ports);
    bt.bt_plugin_put_ref(plugin);
    bt.bt_current_thread_clear_error();
    if (!ok)
        return false;
    struct ctf_ev *tmp = malloc((x->n_ev ? x->n_ev : 1) * sizeof *tmp);
    if (!tmp)
        return tf_diag_oom(x->d, x->file);
    sort_events(x->ev, tmp, x->n_ev);
    free(tmp);
    return true;
}

#endif

bool tf_load_ctf(const char *path, const char *file, const struct tf_keep *keep,
                 struct tf_trace *out, struct tf_diag *d)
{
    out->kind = TF_TRACE_CHROME;
    out->generic = true;
    if (!keep->tef.index && !keep->tef.collect)
        return true;
    if (keep->tef.columns)
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: --stats-compat hta: HTA reads the Chrome traces of PyTorch's "
                             "profiler, not CTF traces",
                             file);
    struct ctf x;
    memset(&x, 0, sizeof x);
    x.file = file;
    x.d = d;
    x.kernel_detail = keep->tef.kernel_detail;
    tf_strtab_init(&x.strs);
    struct tf_buf dir;
    tf_buf_init(&dir);
    uint32_t empty;
    size_t n_dirs = 0;
    bool ok = tf_strtab_id(&x.strs, "", &empty) && trace_dirs(path, &dir, &n_dirs);
    if (!ok)
        tf_diag_oom(d, file);
    x.dir0 = dir.data;
    ok = ok && tf_ctf_read(&x, dir.data, n_dirs) && tf_ctf_convert(&x, &keep->tef);
    tf_buf_fini(&dir);
    free(x.ev);
    free(x.streams);
    tf_strtab_fini(&x.strs);
    return ok;
}
