/* ctf.c - CTF traces (LTTng, perf's CTF, barectf), read through
 * libbabeltrace2; see ctf.h.  This file finds a trace (by its metadata's
 * content), loads the library, runs the graph that reads it and says its
 * errors; ctf_msg.c keeps the events tracefig draws, which this file puts
 * in time order; ctf_conv.c turns them into records.
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
#include <unistd.h>

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

/* Whether a file of the folder other than its metadata begins with a CTF
 * packet's magic (0xC1FC1FC1, either byte order): a trace's stream file,
 * so that a folder whose metadata is damaged (emptied, overwritten) is
 * still taken for the trace it is, and its error said as such. */
static bool has_stream_file(const char *dir)
{
    DIR *dh = opendir(dir);
    if (!dh)
        return false;
    bool found = false;
    struct dirent *e;
    char sub[4096];
    while (!found && (e = readdir(dh))) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "metadata") == 0 ||
            (size_t)snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name) >= sizeof sub)
            continue;
        struct stat st;
        if (stat(sub, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 4)
            continue;
        FILE *f = fopen(sub, "rb");
        unsigned char m[4];
        if (f && fread(m, 1, 4, f) == 4 && m[0] == 0xC1 && m[3] == 0xC1 &&
            ((m[1] == 0x1F && m[2] == 0xFC) || (m[1] == 0xFC && m[2] == 0x1F)))
            found = true;
        if (f)
            fclose(f);
    }
    closedir(dh);
    return found;
}

/* Whether dir is a trace's folder: its metadata file (by its content, or
 * damaged beside stream files). */
static bool trace_folder(const char *dir)
{
    char sub[4096];
    struct stat st;
    if ((size_t)snprintf(sub, sizeof sub, "%s/metadata", dir) >= sizeof sub)
        return false;
    if (metadata_file(sub))
        return true;
    return stat(sub, &st) == 0 && S_ISREG(st.st_mode) && has_stream_file(dir);
}

/* Whether the folder holds a CTF trace, itself or below (an LTTng session:
 * kernel/, ust/uid/1000/64-bit/), at most `depth` levels down. */
static bool folder_has_trace(const char *dir, int depth)
{
    char sub[4096];
    if (trace_folder(dir))
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
    if (!S_ISREG(st.st_mode) || !ends_with_name(path, "metadata"))
        return false;
    if (metadata_file(path))
        return true;
    char dir[4096];
    size_t len = strlen(path) - strlen("metadata");
    if (len >= sizeof dir)
        return false;
    snprintf(dir, sizeof dir, "%.*s", (int)len, path);
    return has_stream_file(len ? dir : ".");
}

/* The folders of the traces under dir (itself, or those below it, in name
 * order), each ended by a NUL in b. */
static bool collect_dirs(const char *dir, int depth, struct tf_buf *b, size_t *n)
{
    char sub[4096];
    if (trace_folder(dir)) {
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

#include "load/ctf_bt.h"

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

/* Where babeltrace2's TSDL parser stopped in a metadata file that does not
 * parse: its error cause says only "Cannot create trace", the line is in
 * its log ("At line N in metadata stream: syntax error, ..."), which its
 * parser writes to stderr at the level BABELTRACE_PLUGIN_CTF_METADATA_LOG_LEVEL
 * said when the plugin was loaded (ctf_lib.c sets it to E unless the user
 * did).  So the source is made once more with stderr sent to a temporary
 * file (on this error path only, before anything of the figure is
 * written; the first attempt's stderr went to /dev/null, quiet_source),
 * and the line read from it into out ("line N: what"; "" when none). */
static void metadata_line(const bt_component_class_source *fs, const char *dir, char *out,
                          size_t n)
{
    out[0] = 0;
    FILE *tmp = tmpfile();
    fflush(stderr);
    int saved = tmp ? dup(2) : -1;
    if (saved < 0) {
        if (tmp)
            fclose(tmp);
        return;
    }
    bool moved = dup2(fileno(tmp), 2) >= 0;
    bt_graph *g = moved ? tf_ctf_bt.bt_graph_create(0) : NULL;
    bt_value *params = g ? tf_ctf_bt.bt_value_map_create() : NULL;
    bt_value *inputs = params ? tf_ctf_bt.bt_value_array_create() : NULL;
    const bt_component_source *src = NULL;
    if (inputs &&
        tf_ctf_bt.bt_value_array_append_string_element(inputs, dir) ==
            BT_VALUE_ARRAY_APPEND_ELEMENT_STATUS_OK &&
        tf_ctf_bt.bt_value_map_insert_entry(params, "inputs", inputs) ==
            BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK)
        (void)tf_ctf_bt.bt_graph_add_source_component(g, fs, "probe", params,
                                                      BT_LOGGING_LEVEL_ERROR, &src);
    tf_ctf_bt.bt_current_thread_clear_error();
    tf_ctf_bt.bt_value_put_ref(inputs);
    tf_ctf_bt.bt_value_put_ref(params);
    tf_ctf_bt.bt_graph_put_ref(g);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    char line[1024];
    while (!out[0] && fgets(line, sizeof line, tmp)) {
        const char *at = strstr(line, "At line ");
        char *end;
        long ln = at ? strtol(at + 8, &end, 10) : 0;
        if (ln <= 0 || strncmp(end, " in metadata stream: ", 21) != 0)
            continue;
        const char *what = end + 21;
        size_t k = strcspn(what, "\r\n");
        snprintf(out, n, "line %ld: %.*s", ln, (int)(k < 300 ? k : 300), what);
    }
    fclose(tmp);
}

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
    const bt_error *err = tf_ctf_bt.bt_current_thread_take_error();
    char msg[600] = "", path[1024] = "";
    if (err) {
        uint64_t n = tf_ctf_bt.bt_error_get_cause_count(err);
        /* cause 0 is the deepest: the reader's own account */
        for (uint64_t i = 0; i < n; i++) {
            const char *m = tf_ctf_bt.bt_error_cause_get_message(tf_ctf_bt.bt_error_borrow_cause_by_index(err, i));
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
        tf_ctf_bt.bt_error_release(err);
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
    /* the trace's folder as the user named it: x->file, or its metadata
     * file's folder when the file was given */
    char folder[1024];
    size_t fl = strlen(x->file);
    struct stat fst;
    if (ends_with_name(x->file, "metadata") && stat(x->file, &fst) == 0 && S_ISREG(fst.st_mode))
        fl -= fl > strlen("metadata") ? strlen("/metadata") : strlen("metadata");
    if (fl)
        snprintf(folder, sizeof folder, "%.*s", (int)(fl < 1000 ? fl : 1000), x->file);
    else
        snprintf(folder, sizeof folder, ".");
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
                                 folder, base ? base + 1 : path, at);
        if (at >= 0)
            return tf_diag_error(x->d, TF_EBADINPUT, "%s/%s: byte %lld: %s", folder,
                                 base ? base + 1 : path, at, msg);
        return tf_diag_error(x->d, TF_EBADINPUT, "%s/%s: %s", folder, base ? base + 1 : path,
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
                             folder, msg);
    char where[400] = "";
    if (strncmp(msg, "Cannot create trace for", 23) == 0 && x->probe_fs && x->probe_dir)
        metadata_line(x->probe_fs, x->probe_dir, where, sizeof where);
    if (where[0])
        return tf_diag_error(x->d, TF_EBADINPUT,
                             "%s/metadata: %s (the trace's metadata does not parse)", folder,
                             where);
    if (strncmp(msg, "Cannot create trace for", 23) == 0)
        return tf_diag_error(x->d, TF_EBADINPUT,
                             "%s/metadata: the trace's metadata does not parse (babeltrace2: "
                             "%s)",
                             folder, msg);
    return tf_diag_error(x->d, TF_EBADINPUT, "%s: %s%s%s", x->file, what, msg[0] ? ": " : "",
                         msg);
}

static bt_graph_simple_sink_component_consume_func_status consume(bt_message_iterator *it,
                                                                  void *data)
{
    struct ctf_port *p = data;
    bt_message_array_const msgs;
    uint64_t n;
    switch (tf_ctf_bt.bt_message_iterator_next(it, &msgs, &n)) {
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
        if (ok && !tf_ctf_message(p, msgs[i]))
            ok = false;
        tf_ctf_bt.bt_message_put_ref(msgs[i]);
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

/* A source made with stderr sent to /dev/null: the metadata parser's log
 * (metadata_line) is no line of tracefig's. */
static bt_graph_add_component_status quiet_source(bt_graph *g, const bt_component_class_source *fs,
                                                  const char *name, const bt_value *params,
                                                  const bt_component_source **src)
{
    fflush(stderr);
    int saved = dup(2);
    FILE *null = saved >= 0 ? fopen("/dev/null", "w") : NULL;
    bool moved = null && dup2(fileno(null), 2) >= 0;
    bt_graph_add_component_status st =
        tf_ctf_bt.bt_graph_add_source_component(g, fs, name, params, BT_LOGGING_LEVEL_NONE, src);
    if (moved)
        dup2(saved, 2);
    if (null)
        fclose(null);
    if (saved >= 0)
        close(saved);
    return st;
}

/* One fs source per trace folder, one simple sink per output port. */
static bool run_graph(struct ctf *x, const char *dirs, size_t n_dirs, bt_graph *g,
                      const bt_plugin *plugin, struct ctf_port **ports_out)
{
    const bt_component_class_source *fs =
        tf_ctf_bt.bt_plugin_borrow_source_component_class_by_name_const(plugin, "fs");
    if (!fs)
        return bt_fail(x, "babeltrace2's ctf plugin has no fs source");
    const bt_component_source **src = calloc(n_dirs ? n_dirs : 1, sizeof *src);
    if (!src)
        return tf_diag_oom(x->d, x->file);
    bool ok = true;
    uint64_t np = 0;
    const char *dir = dirs;
    for (size_t i = 0; ok && i < n_dirs; i++, dir += strlen(dir) + 1) {
        bt_value *params = tf_ctf_bt.bt_value_map_create(), *inputs = tf_ctf_bt.bt_value_array_create();
        char name[32];
        snprintf(name, sizeof name, "source-%zu", i);
        if (!params || !inputs ||
            tf_ctf_bt.bt_value_array_append_string_element(inputs, dir) !=
                BT_VALUE_ARRAY_APPEND_ELEMENT_STATUS_OK ||
            tf_ctf_bt.bt_value_map_insert_entry(params, "inputs", inputs) !=
                BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK)
            ok = tf_diag_oom(x->d, x->file);
        else if (quiet_source(g, fs, name, params, &src[i]) != BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
            x->probe_fs = fs; /* for the metadata's line (metadata_line) */
            x->probe_dir = dir;
            ok = bt_fail(x, "babeltrace2 cannot read it");
            x->probe_fs = NULL;
            x->probe_dir = NULL;
        }
        else
            np += tf_ctf_bt.bt_component_source_get_output_port_count(src[i]);
        tf_ctf_bt.bt_value_put_ref(inputs);
        tf_ctf_bt.bt_value_put_ref(params);
    }
    struct ctf_port *ports = ok ? calloc(np ? np : 1, sizeof *ports) : NULL;
    if (ok && !ports)
        ok = tf_diag_oom(x->d, x->file);
    *ports_out = ports;
    size_t at = 0;
    for (size_t i = 0; ok && i < n_dirs; i++) {
        uint64_t k = tf_ctf_bt.bt_component_source_get_output_port_count(src[i]);
        for (uint64_t j = 0; ok && j < k; j++, at++) {
            char name[48];
            snprintf(name, sizeof name, "sink-%zu", at);
            ports[at].x = x;
            ports[at].last_tid = INT64_MIN;
            const bt_component_sink *sink;
            if (tf_ctf_bt.bt_graph_add_simple_sink_component(g, name, NULL, consume, NULL, &ports[at],
                                                      &sink) != BT_GRAPH_ADD_COMPONENT_STATUS_OK ||
                tf_ctf_bt.bt_graph_connect_ports(
                    g, tf_ctf_bt.bt_component_source_borrow_output_port_by_index_const(src[i], j),
                    tf_ctf_bt.bt_component_sink_borrow_input_port_by_index_const(sink, 0), NULL) !=
                    BT_GRAPH_CONNECT_PORTS_STATUS_OK)
                ok = bt_fail(x, "babeltrace2 cannot read it");
        }
    }
    free(src);
    if (ok) {
        bt_graph_run_status rs;
        while ((rs = tf_ctf_bt.bt_graph_run(g)) == BT_GRAPH_RUN_STATUS_AGAIN)
            ;
        const struct ctf_port *bad = NULL;
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
    const bt_plugin *plugin = tf_ctf_lib_load(x->d);
    if (!plugin) {
        tf_diag_prefix(x->d, x->file);
        return false;
    }
    tf_ctf_bt.bt_current_thread_clear_error();
    bt_graph *g = tf_ctf_bt.bt_graph_create(0);
    struct ctf_port *ports = NULL;
    bool ok = g ? run_graph(x, dirs, n_dirs, g, plugin, &ports)
                : tf_diag_oom(x->d, x->file);
    tf_ctf_bt.bt_graph_put_ref(g); /* the sinks are finalized here: ports outlive it */
    free(ports);
    tf_ctf_bt.bt_current_thread_clear_error();
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
