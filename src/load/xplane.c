/* xplane.c - XPlane profiles; see xplane.h.
 *
 * IMPLEMENTATION NOTES
 *
 * Streaming.  An XSpace is `repeated XPlane planes = 1` (and strings), a
 * plane is its id, name, `repeated XLine lines = 3` and the maps of its
 * metadata, a line its header and `repeated XEvent events = 4`.  A plane,
 * or one line, may hold most of a large profile, so neither is read whole:
 * the walk descends into them on the stream itself, a field at a time,
 * each bounded by the end of the message around it, and reads whole only
 * what is small (an event, a metadata entry, a name).  Memory depends on
 * the metadata and the window's events, not on the file's length.
 *
 * Passes.  Protobuf writers put a plane's metadata (fields 4, 5) after its
 * lines, and a line's display_name (11) after its events, so pass 0 reads
 * the planes' names, the lines' headers (their events counted, not read)
 * and the metadata; pass 1 hands the sink every event (index), pass 2 the
 * window's (collect).  Planes and lines are known by their place in the
 * file: their ids repeat.  A damaged file is refused in pass 0 or 1, so
 * nothing is drawn of it.
 */
#include "load/xplane.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/nsys_rows.h"
#include "load/xplane_int.h"

#define MSG_MAX ((uint64_t)64 << 20) /* the largest message read whole */
#define END UINT64_MAX               /* the bound of the top level: the file's end */

/* --- messages ---------------------------------------------------------------------- */

static bool cut(struct xp *x, uint64_t at)
{
    return xp_bad(x, at, "the file is cut (a message runs past its end)");
}

static int by_id(const void *a, const void *b)
{
    int64_t x = ((const struct xp_meta *)a)->id, y = ((const struct xp_meta *)b)->id;
    return (x > y) - (x < y);
}

/* --- the byte stream --------------------------------------------------------------- */

/* n bytes of the stream: *out points at them (in the read buffer when
 * they are there whole, else copied to mbuf); NULL out: skipped. */
static bool rd_bytes(struct xp *x, uint64_t n, const uint8_t **out)
{
    if (!out)
        return tf_pb_stream_bytes(&x->rd, NULL, n);
    if ((*out = tf_pb_stream_peek(&x->rd, n)) != NULL)
        return true;
    if (n > x->cap_mbuf) {
        size_t cap = x->cap_mbuf ? x->cap_mbuf : 4096;
        while (cap < n)
            cap *= 2;
        uint8_t *b = realloc(x->mbuf, cap);
        if (!b)
            return tf_diag_oom(x->d, x->file);
        x->mbuf = b;
        x->cap_mbuf = cap;
    }
    *out = x->mbuf;
    return tf_pb_stream_bytes(&x->rd, x->mbuf, n);
}

struct xp_f {
    uint32_t num;
    int wt;
    uint64_t v;   /* varint, fixed; LEN: the length */
    uint64_t at;  /* the tag's offset */
};

/* The next field of the message that ends at `end`: 1, 0 at its end, -1
 * damaged (reported).  A LEN field's bytes are the caller's to read or
 * skip. */
static int rd_field(struct xp *x, uint64_t end, struct xp_f *f)
{
    if (end != END && x->rd.off >= end)
        return 0;
    f->at = x->rd.off;
    uint64_t tag;
    int k = tf_pb_stream_varint(&x->rd, &tag);
    if (k == 0 && end == END)
        return tf_diag_failed(x->d) ? -1 : 0;
    if (k == 0 || k == -1)
        return cut(x, f->at), -1;
    if (k == -2)
        return xp_bad(x, f->at, "a field tag is longer than ten bytes"), -1;
    f->num = (uint32_t)(tag >> 3);
    f->wt = (int)(tag & 7);
    if (f->num == 0 || tag >> 3 > 0x1fffffff)
        return xp_bad(x, f->at, "a field number 0"), -1;
    switch (f->wt) {
    case TF_PB_VARINT:
    case TF_PB_LEN:
        k = tf_pb_stream_varint(&x->rd, &f->v);
        if (k == -2)
            return xp_bad(x, f->at, "a varint is longer than ten bytes"), -1;
        if (k != 1)
            return cut(x, f->at), -1;
        break;
    case TF_PB_I64:
    case TF_PB_I32:
        f->v = 0;
        if (!rd_bytes(x, f->wt == TF_PB_I64 ? 8 : 4, NULL))
            return cut(x, f->at), -1;
        break;
    default:
        return xp_bad(x, f->at, "wire type 3, 4, 6 or 7 (no protobuf message)"), -1;
    }
    if (end != END && x->rd.off > end)
        return xp_bad(x, f->at, "a field runs past the end of its message"), -1;
    if (f->wt == TF_PB_LEN && end != END && f->v > end - x->rd.off)
        return xp_bad(x, f->at, "a length runs past the end of its message"), -1;
    return 1;
}

/* A LEN field's bytes, skipped or read whole (at most MSG_MAX). */
static bool skip(struct xp *x, const struct xp_f *f)
{
    return rd_bytes(x, f->v, NULL) || cut(x, f->at);
}

static bool whole(struct xp *x, const struct xp_f *f, const uint8_t **out)
{
    if (f->v > MSG_MAX)
        return xp_bad(x, f->at, "a metadata entry or event of more than 64 MB");
    return rd_bytes(x, f->v, out) || (!tf_diag_failed(x->d) && cut(x, f->at));
}

static bool pb_fail(struct xp *x, const struct tf_pb *r)
{
    const char *why = r->err ? r->err : "damaged protobuf";
    if (strncmp(why, "damaged protobuf: ", 18) == 0)
        why += 18;
    return xp_bad(x, r->err_at, why);
}

/* --- pass 0: names, line headers, metadata ---------------------------------------- */

/* A map entry of event_metadata (4) or stat_metadata (5): key 1, value 2. */
static bool meta_entry(struct xp *x, const struct xp_f *e, bool stat)
{
    const uint8_t *data;
    uint64_t base = x->rd.off;
    if (!whole(x, e, &data))
        return false;
    struct tf_pb r, v;
    struct tf_pb_field f, g;
    tf_pb_init(&r, data, (size_t)e->v, base);
    struct xp_meta m = {0, 0, 0, 0};
    int64_t key = 0;
    bool has_val = false;
    int k;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if (f.num == 1 && f.wt == TF_PB_VARINT)
            key = (int64_t)f.v;
        if (f.num != 2 || f.wt != TF_PB_LEN)
            continue;
        has_val = true;
        tf_pb_sub(&v, &r, &f);
        while ((k = tf_pb_next(&v, &g)) > 0) {
            if (g.num == 1 && g.wt == TF_PB_VARINT)
                m.id = (int64_t)g.v;
            else if (g.num == 2 && g.wt == TF_PB_LEN)
                m.name = xp_str(x, g.data, g.len);
            else if (g.num == 4 && g.wt == TF_PB_LEN && !stat)
                m.dname = xp_str(x, g.data, g.len);
        }
        if (k < 0)
            return pb_fail(x, &v);
    }
    if (k < 0)
        return pb_fail(x, &r);
    if (!has_val)
        m.id = key;
    m.id = key; /* the map's key is what events name */
    struct xp_meta **arr = stat ? &x->smetas : &x->metas;
    size_t *n = stat ? &x->n_smetas : &x->n_metas, *cap = stat ? &x->cap_smetas : &x->cap_metas;
    if (!TF_GROW(*arr, *n, *cap))
        return tf_diag_oom(x->d, x->file);
    (*arr)[(*n)++] = m;
    return true;
}

/* A plane's stats (field 6), kept until its stat metadata is known. */
static bool plane_stat(struct xp *x, const struct xp_f *e)
{
    const uint8_t *data;
    if (!whole(x, e, &data))
        return false;
    char len[24];
    snprintf(len, sizeof len, "%llu:", (unsigned long long)e->v);
    tf_buf_puts(&x->pstats, len);
    tf_buf_putn(&x->pstats, (const char *)data, (size_t)e->v);
    return !x->pstats.oom || tf_diag_oom(x->d, x->file);
}

/* device_type_string, device_vendor: strings, or refs to stat metadata. */
static void plane_stats(struct xp *x, struct xp_plane *p)
{
    const char *s = x->pstats.data, *end = s + x->pstats.len;
    const struct xp_meta *sm = x->smetas ? x->smetas + p->smeta0 : NULL;
    while (s && s < end) {
        char *colon;
        unsigned long long n = strtoull(s, &colon, 10);
        const uint8_t *data = (const uint8_t *)colon + 1;
        s = colon + 1 + n;
        struct tf_pb r;
        struct tf_pb_field f;
        tf_pb_init(&r, data, (size_t)n, 0);
        int64_t mid = 0;
        uint32_t val = 0;
        while (tf_pb_next(&r, &f) > 0) {
            if (f.num == 1 && f.wt == TF_PB_VARINT)
                mid = (int64_t)f.v;
            else if (f.num == 5 && f.wt == TF_PB_LEN)
                val = xp_str(x, f.data, f.len);
            else if (f.num == 7 && f.wt == TF_PB_VARINT) {
                const struct xp_meta *m = xp_meta_of(x, sm, p->n_smeta, (int64_t)f.v);
                val = m ? m->name : 0;
            }
        }
        const struct xp_meta *m = xp_meta_of(x, sm, p->n_smeta, mid);
        const char *name = m ? xp_s(x, m->name) : "";
        if (strcmp(name, "device_type_string") == 0)
            p->dev_type = val;
        else if (strcmp(name, "device_vendor") == 0)
            p->vendor = val;
    }
    tf_buf_clear(&x->pstats);
}

/* --- the walk ---------------------------------------------------------------------- */

static bool line(struct xp *x, uint64_t end)
{
    struct xp_line *l = &x->lines[x->line];
    l->busy_ps = l->end_ps = l->last_ps = 0;
    l->any = false;
    l->sorted = true;
    struct xp_f f;
    int k;
    while ((k = rd_field(x, end, &f)) > 0) {
        if (f.wt != TF_PB_LEN) {
            if (x->pass == 0 && f.wt == TF_PB_VARINT) {
                if (f.num == 1)
                    l->id = (int64_t)f.v;
                else if (f.num == 3)
                    l->ts_ns = (int64_t)f.v;
            }
            continue;
        }
        if (f.num == 4) {
            if (x->pass == 0) {
                l->n_events++;
                if (!skip(x, &f))
                    return false;
                continue;
            }
            const uint8_t *data;
            uint64_t base = x->rd.off;
            if (!whole(x, &f, &data) || !xp_event(x, data, (size_t)f.v, base))
                return false;
            continue;
        }
        if (x->pass == 0 && (f.num == 2 || f.num == 11)) {
            const uint8_t *data;
            if (!whole(x, &f, &data))
                return false;
            uint32_t s = xp_str(x, data, (size_t)f.v);
            if (f.num == 2)
                l->name = s;
            else
                l->dname = s;
            continue;
        }
        if (!skip(x, &f))
            return false;
    }
    return k == 0 && (x->pass != 2 || !l->n_agg || xp_line_untimed(x));
}

static bool plane(struct xp *x, uint64_t end)
{
    struct xp_plane *p;
    if (x->pass == 0) {
        if (!TF_GROW(x->planes, x->n_planes, x->cap_planes))
            return tf_diag_oom(x->d, x->file);
        p = &x->planes[x->n_planes++];
        memset(p, 0, sizeof *p);
        p->meta0 = x->n_metas;
        p->smeta0 = x->n_smetas;
        p->line0 = x->n_lines;
        p->dev = -1;
    } else {
        p = &x->planes[x->plane];
    }
    size_t li = p->line0;
    struct xp_f f;
    int k;
    while ((k = rd_field(x, end, &f)) > 0) {
        if (f.wt != TF_PB_LEN)
            continue;
        bool ok = true;
        if (f.num == 3) {
            if (x->pass == 0) {
                if (!TF_GROW(x->lines, x->n_lines, x->cap_lines))
                    return tf_diag_oom(x->d, x->file);
                memset(&x->lines[x->n_lines], 0, sizeof x->lines[0]);
                x->n_lines++;
                p->n_lines++;
            }
            x->line = li++;
            ok = line(x, x->rd.off + f.v);
        } else if (x->pass == 0 && f.num == 2) {
            const uint8_t *data;
            ok = whole(x, &f, &data);
            if (ok)
                p->name = xp_str(x, data, (size_t)f.v);
        } else if (x->pass == 0 && (f.num == 4 || f.num == 5)) {
            ok = meta_entry(x, &f, f.num == 5);
        } else if (x->pass == 0 && f.num == 6) {
            ok = plane_stat(x, &f);
        } else {
            ok = skip(x, &f);
        }
        if (!ok)
            return false;
    }
    if (k < 0)
        return false;
    if (x->pass == 0) {
        p->n_meta = x->n_metas - p->meta0;
        p->n_smeta = x->n_smetas - p->smeta0;
        if (p->n_meta > 1)
            qsort(x->metas + p->meta0, p->n_meta, sizeof *x->metas, by_id);
        if (p->n_smeta > 1)
            qsort(x->smetas + p->smeta0, p->n_smeta, sizeof *x->smetas, by_id);
        plane_stats(x, p);
        if (!xp_plane_kind(x, p))
            return false;
        xp_line_roles(x, p);
    }
    return true;
}

static bool space(struct xp *x)
{
    struct xp_f f;
    int k;
    x->plane = 0;
    while ((k = rd_field(x, END, &f)) > 0) {
        if (f.wt != TF_PB_LEN)
            continue;
        if (f.num == 1) {
            if (!plane(x, x->rd.off + f.v))
                return false;
            x->plane++;
            continue;
        }
        if (f.num == 4 && x->pass == 0 && !x->host) {
            const uint8_t *data;
            if (!whole(x, &f, &data))
                return false;
            x->host = xp_str(x, data, (size_t)f.v);
            continue;
        }
        if (!skip(x, &f))
            return false;
    }
    return k == 0 && !tf_diag_failed(x->d);
}

/* --- the passes -------------------------------------------------------------------- */

static bool run_pass(struct xp *x, int pass)
{
    x->pass = pass;
    tf_pb_stream_rewind(&x->rd);
    x->idx = 0;
    if (pass > 0 && !tf_input_seek(x->in, 0))
        return false;
    return space(x);
}

static bool find(const unsigned char *h, size_t n, const char *s)
{
    size_t k = strlen(s);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(h + i, s, k) == 0)
            return true;
    return false;
}

static bool mangled(const unsigned char *h, size_t n)
{
    return find(h, n, "\xef\xbf\xbd");
}

/* A text conversion of line ends made each 0a byte 0d 0a: the XSpace's
 * first tag (0a) is then 0d 0a, which no XSpace begins with. */
static bool crlf(const unsigned char *h, size_t n)
{
    return n >= 3 && h[0] == 0x0d && h[1] == 0x0a;
}

bool tf_xplane_looks(const unsigned char *h, size_t n)
{
    if (crlf(h, n) && (find(h, n, "/device:") || find(h, n, "/host:")))
        return true;
    if (n < 2 || h[0] != 0x0a)
        return false;
    /* a text round trip made the plane's length (and more) ef bf bd */
    if (n >= 4 && mangled(h, n) && (find(h, n, "/device:") || find(h, n, "/host:")))
        return true;
    const uint8_t *q = h + 1, *end = h + n;
    uint64_t len, tag, v;
    if (!tf_pb_varint(&q, end, &len))
        return false;
    const uint8_t *pend = (size_t)(end - q) < len ? end : q + len;
    if (len == 0 || !tf_pb_varint(&q, pend, &tag))
        return false;
    if (tag == 0x08) /* the plane's id: no TracePacket starts with a varint field 1 */
        return true;
    if (tag == 0x1a) /* lines (a TracePacket's field 3 is a varint) */
        return true;
    if (tag != 0x12 || !tf_pb_varint(&q, pend, &v) || v == 0)
        return false;
    /* the name: text ("/device:GPU:0", "/host:CPU", "Task Environment");
     * a process_tree (TracePacket 2) begins with a tag, no text */
    size_t k = (size_t)(end - q) < v ? (size_t)(end - q) : (size_t)v;
    if (k == 0)
        return false;
    for (size_t i = 0; i < k; i++)
        if (q[i] < 0x20 || q[i] == 0x7f)
            return false;
    return true;
}

static void xp_free(struct xp *x)
{
    tf_pb_stream_fini(&x->rd);
    free(x->mbuf);
    free(x->planes);
    free(x->lines);
    free(x->metas);
    free(x->smetas);
    tf_buf_fini(&x->pstats);
    tf_buf_fini(&x->args);
    tf_buf_fini(&x->tmp);
    tf_buf_fini(&x->tmp2);
    tf_strtab_fini(&x->strs);
}

bool tf_load_xplane(struct tf_input *in, const char *file, const struct tf_keep *keep,
                    struct tf_trace *out, struct tf_diag *d)
{
    out->kind = TF_TRACE_CHROME;
    out->generic = true;
    if (!keep->tef.index && !keep->tef.collect)
        return true; /* another mode's: nothing of it is read */
    if (keep->tef.columns)
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: --stats-compat hta: HTA reads the Chrome traces of PyTorch's "
                             "profiler, not XPlane profiles",
                             file);
    struct xp x;
    memset(&x, 0, sizeof x);
    x.file = file;
    x.sink = &keep->tef;
    x.d = d;
    x.in = in;
    tf_strtab_init(&x.strs);
    tf_buf_init(&x.pstats);
    tf_buf_init(&x.args);
    tf_buf_init(&x.tmp);
    tf_buf_init(&x.tmp2);
    uint32_t empty;
    bool ok = tf_pb_stream_init(&x.rd, in) && tf_strtab_id(&x.strs, "", &empty);
    if (!ok)
        tf_diag_oom(d, file);
    if (ok) {
        unsigned char head[4096];
        ssize_t n = tf_input_read(in, head, sizeof head);
        x.mangled = n > 0 && mangled(head, (size_t)n);
        ok = tf_input_seek(in, 0);
        if (ok && n > 0 && crlf(head, (size_t)n))
            ok = xp_bad(&x, 0, "the file went through a text conversion of its line ends "
                               "(the bytes 0d 0a in place of each 0a); use the original "
                               "binary file");
    }
    ok = ok && run_pass(&x, 0) && run_pass(&x, 1) && xp_lane_names(&x);
    if (ok && x.n_events == 0)
        ok = tf_diag_error(d, TF_EBADINPUT,
                           "%s: an XPlane profile with no event to draw (%zu plane%s, every "
                           "line empty)",
                           file, x.n_planes, x.n_planes == 1 ? "" : "s");
    if (ok) {
        x.lo = INT64_MIN;
        x.hi = INT64_MAX;
        if (x.sink->window && !x.sink->window(x.sink->ctx, &x.lo, &x.hi, d)) {
            tf_diag_prefix(d, file);
            ok = false;
        }
    }
    ok = ok && run_pass(&x, 2);
    if (ok && x.sink->finish && !x.sink->finish(x.sink->ctx, d)) {
        tf_diag_prefix(d, file);
        ok = false;
    }
    if (ok && x.n_skipped)
        tf_diag_warn(d, "%s: %zu event%s with num_occurrences (no time) not drawn", file,
                     x.n_skipped, x.n_skipped == 1 ? "" : "s");
    xp_free(&x);
    return ok;
}
