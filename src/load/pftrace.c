/* pftrace.c - Perfetto protobuf traces; see pftrace.h.
 *
 * IMPLEMENTATION NOTES
 *
 * Streaming.  A trace is `Trace { repeated TracePacket packet = 1; }`: a
 * series of field-1 length-delimited records.  The reader takes one packet
 * at a time into a buffer of its size (at most PKT_MAX), decodes it with
 * pb.h's cursor and forgets it, so memory depends on the largest packet,
 * the names and the open slices, not on the trace's length.  A packet of
 * compressed_packets (50) is inflated (zlib, deflate) into a second buffer
 * and read as a Trace of its own.
 *
 * Passes.  The generic mode's sink wants every record once (index), its
 * window, then the records that reach into the window (collect): the
 * packets are read twice, from offset 0, after a first read (pass 0) of
 * the track descriptors and process trees only, since an event may come
 * before the descriptor of its track (a pipe is spooled by the input,
 * gzip re-inflated).  Names (process_tree, descriptors, comms) are kept
 * over both passes and given to the sink as name records at the end of
 * pass 1; per-sequence interning, clocks, open slices and scheduling state
 * start again for pass 2, so both passes make the same records.
 *
 * Clocks.  Timestamps are ns of a clock: the packet's timestamp_clock_id,
 * else the sequence's trace_packet_defaults, else the trace clock.  A
 * clock other than the trace clock (BOOTTIME unless a snapshot's
 * primary_trace_clock says otherwise) is converted through the latest
 * ClockSnapshot read so far whose value of that clock is not after the
 * timestamp (else the first), as offset between the two.  Clocks 64..127
 * are the sequence's own; incremental ones add each timestamp to the last.
 */
#include "load/pftrace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "load/pftrace_int.h"

#define PKT_MAX ((size_t)48 << 20)  /* the largest packet read */
#define ZBUF_MAX ((size_t)48 << 20) /* the largest inflated compressed_packets */
#define BOOTTIME 6

/* --- packets ----------------------------------------------------------------------- */

static bool read_trace(struct pf *p, const uint8_t *data, size_t len, uint64_t base);

static bool inflate_packets(struct pf *p, const struct tf_pb_field *f)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK)
        return tf_diag_oom(p->d, p->file);
    z.next_in = (Bytef *)f->data;
    z.avail_in = (uInt)f->len;
    size_t out = 0;
    int rc = Z_OK;
    while (rc == Z_OK) {
        if (out == p->cap_zbuf) {
            size_t cap = p->cap_zbuf ? p->cap_zbuf * 2 : (size_t)1 << 20;
            uint8_t *b = cap <= ZBUF_MAX ? realloc(p->zbuf, cap) : NULL;
            if (!b) {
                inflateEnd(&z);
                return cap > ZBUF_MAX
                           ? pf_bad(p, f->at, "compressed_packets inflate to more than 48 MB")
                           : tf_diag_oom(p->d, p->file);
            }
            p->zbuf = b;
            p->cap_zbuf = cap;
        }
        z.next_out = p->zbuf + out;
        z.avail_out = (uInt)(p->cap_zbuf - out);
        rc = inflate(&z, Z_NO_FLUSH);
        out = p->cap_zbuf - z.avail_out;
        if (rc == Z_BUF_ERROR && z.avail_in == 0)
            break;
        if (rc == Z_BUF_ERROR)
            rc = Z_OK;
    }
    inflateEnd(&z);
    if (rc != Z_STREAM_END)
        return pf_bad(p, f->at, "compressed_packets: not a complete deflate (zlib) stream");
    /* the inflated bytes may be read again recursively: copy them out */
    uint8_t *copy = malloc(out ? out : 1);
    if (!copy)
        return tf_diag_oom(p->d, p->file);
    memcpy(copy, p->zbuf, out);
    bool ok = read_trace(p, copy, out, f->at);
    free(copy);
    return ok;
}

static bool packet(struct pf *p, const uint8_t *data, size_t len, uint64_t base)
{
    struct tf_pb r, sub;
    struct tf_pb_field f;
    tf_pb_init(&r, data, len, base);
    /* one walk: the packet's header (sequence, flags, clock, time) and
     * the payload fields, read after it in this order */
    uint32_t seq = 0, flags = 0, clock = 0;
    bool cleared = false, has_ts = false;
    uint64_t ts = 0;
    struct tf_pb_field defs[2], body[8];
    size_t n_defs = 0, n_body = 0;
    int k;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if (f.wt == TF_PB_VARINT) {
            if (f.num == 10)
                seq = (uint32_t)f.v;
            else if (f.num == 13)
                flags = (uint32_t)f.v;
            else if (f.num == 41)
                cleared = f.v != 0;
            else if (f.num == 58)
                clock = (uint32_t)f.v;
            else if (f.num == 8) {
                ts = f.v;
                has_ts = true;
            }
            continue;
        }
        if (f.wt != TF_PB_LEN)
            continue;
        if (f.num == 50)
            return inflate_packets(p, &f);
        bool wanted = p->pass == 0 ? f.num == 1 || f.num == 2 || f.num == 11 || f.num == 44 ||
                                         f.num == 53 || f.num == 60
                                   : f.num == 1 || f.num == 2 || f.num == 6 || f.num == 11 ||
                                         f.num == 44 || f.num == 52 || f.num == 53 ||
                                         f.num == 60;
        if ((f.num == 59 || f.num == 12) && p->pass > 0 && n_defs < 2)
            defs[n_defs++] = f;
        else if (wanted && n_body < 8)
            body[n_body++] = f;
    }
    if (k < 0)
        return pf_pb_fail(p, &r);
    p->seq = pf_seq_of(p, seq);
    if (!p->seq)
        return tf_diag_oom(p->d, p->file);
    if (p->pass == 0) { /* names only: descriptors and process trees */
        for (size_t i = 0; i < n_body; i++) {
            tf_pb_sub(&sub, &r, &body[i]);
            if (body[i].num == 11 || body[i].num == 53 ||
                (body[i].num == 1 && !p->other_lanes && pf_ftrace_lanes(&sub)))
                p->other_lanes = true;
            if ((body[i].num == 2 && !pf_process_tree(p, &sub)) ||
                (body[i].num == 44 && !pf_thread_descriptor(p, &sub)) ||
                (body[i].num == 60 && !pf_track_descriptor(p, &sub)))
                return false;
        }
        return true;
    }
    if (cleared || (flags & 1))
        pf_seq_clear(p->seq);
    /* defaults and interned data before the event that uses them */
    for (size_t i = 0; i < n_defs; i++) {
        tf_pb_sub(&sub, &r, &defs[i]);
        if (defs[i].num == 59 && !pf_packet_defaults(p, &sub))
            return false;
        if (defs[i].num == 12 && !pf_interned(p, &sub))
            return false;
    }
    if (!clock)
        clock = p->seq->def_clock;
    for (size_t i = 0; i < n_body; i++) {
        tf_pb_sub(&sub, &r, &body[i]);
        bool ok = true;
        switch (body[i].num) {
        case 1: ok = pf_ftrace_bundle(p, &sub); break;
        case 2: ok = pf_process_tree(p, &sub); break;
        case 6: ok = pf_clock_snapshot(p, &sub); break;
        case 11:
            ok = pf_track_event(p, &sub, has_ts ? pf_time(p, clock, ts) : INT64_MIN);
            break;
        case 44: ok = pf_thread_descriptor(p, &sub); break;
        case 52:
            ok = pf_gpu_counter(p, &sub, has_ts ? pf_time(p, clock, ts) : INT64_MIN);
            break;
        case 53:
            ok = pf_gpu_render_stage(p, &sub, has_ts ? pf_time(p, clock, ts) : INT64_MIN);
            break;
        case 60: ok = pf_track_descriptor(p, &sub); break;
        default: break;
        }
        if (!ok)
            return false;
    }
    return true;
}

/* A Trace in memory (the inflated bytes of compressed_packets). */
static bool read_trace(struct pf *p, const uint8_t *data, size_t len, uint64_t base)
{
    struct tf_pb r;
    struct tf_pb_field f;
    tf_pb_init(&r, data, len, base);
    int k;
    while ((k = tf_pb_next(&r, &f)) > 0)
        if (f.num == 1 && f.wt == TF_PB_LEN && !packet(p, f.data, f.len, base))
            return false;
    return k < 0 ? pf_bad(p, base, "compressed_packets: the inflated packets are damaged") : true;
}

/* --- the stream -------------------------------------------------------------------- */

static void cut(struct pf *p, uint64_t at)
{
    p->cut = true;
    p->cut_at = at;
}

/* One pass over the packets of the input. */
static bool stream(struct pf *p)
{
    for (;;) {
        uint64_t at = p->rd.off, tag, len;
        int k = tf_pb_stream_varint(&p->rd, &tag);
        if (k == 0)
            break;
        if (k == -1)
            return cut(p, at), !tf_diag_failed(p->d);
        if (k == -2 || (tag & 7) == 3 || (tag & 7) == 4 || (tag & 7) > 5 || tag >> 3 == 0)
            return pf_bad(p, at, "not a Perfetto trace packet (a damaged field tag)");
        int wt = (int)(tag & 7);
        if (wt == TF_PB_VARINT) {
            if (tf_pb_stream_varint(&p->rd, &len) != 1)
                return cut(p, at), !tf_diag_failed(p->d);
            continue;
        }
        if (wt == TF_PB_I64 || wt == TF_PB_I32) {
            if (!tf_pb_stream_bytes(&p->rd, NULL, wt == TF_PB_I64 ? 8 : 4))
                return cut(p, at), !tf_diag_failed(p->d);
            continue;
        }
        k = tf_pb_stream_varint(&p->rd, &len);
        if (k != 1)
            return k == -2 ? pf_bad(p, at, "a packet's length is longer than ten bytes")
                           : (cut(p, at), !tf_diag_failed(p->d));
        if (tag >> 3 != 1) { /* not a packet: skipped */
            if (!tf_pb_stream_bytes(&p->rd, NULL, len))
                return cut(p, at), !tf_diag_failed(p->d);
            continue;
        }
        if (len > PKT_MAX) {
            char what[96];
            snprintf(what, sizeof what, "a packet of %llu bytes (more than 48 MB: damaged?)",
                     (unsigned long long)len);
            return pf_bad(p, at, what);
        }
        if (len > p->cap_pkt) {
            size_t cap = p->cap_pkt ? p->cap_pkt : 4096;
            while (cap < len)
                cap *= 2;
            uint8_t *b = realloc(p->pkt, cap);
            if (!b)
                return tf_diag_oom(p->d, p->file);
            p->pkt = b;
            p->cap_pkt = cap;
        }
        uint64_t body = p->rd.off;
        if (!tf_pb_stream_bytes(&p->rd, p->pkt, len))
            return cut(p, at), !tf_diag_failed(p->d);
        if (!packet(p, p->pkt, len, body))
            return false;
    }
    return !tf_diag_failed(p->d);
}

/* --- the passes -------------------------------------------------------------------- */

static void pass_reset(struct pf *p)
{
    pf_seqs_free(p);
    for (size_t i = 0; i < p->n_snaps; i++)
        free(p->snaps[i].c);
    p->n_snaps = 0;
    p->n_clockdefs = 0;
    p->trace_clock = BOOTTIME;
    p->seq = NULL;
    pf_map_clear(&p->flows);
    pf_tracks_reset(p);
    pf_ftrace_reset(p);
    tf_pb_stream_rewind(&p->rd);
    p->rd.in = p->in;
    p->idx = p->idx_base;
}

/* The name records of what pass 1 learnt. */
static bool names(struct pf *p)
{
    struct tf_tef_rec r;
    for (size_t i = 0; i < p->n_procs; i++) {
        const struct pf_proc *pr = &p->procs[i];
        struct tf_id pid = {TF_ID_NUM, pr->pid, NULL};
        if (pr->name) {
            if (!tf_tef_name_rec(&r, &p->args, "process_name", &pid, NULL, pf_s(p, pr->name)))
                return tf_diag_oom(p->d, p->file);
        } else if (pr->has_ppid) { /* its parent alone */
            memset(&r, 0, sizeof r);
            r.kind = TF_TEF_META;
            r.ph = 'M';
            r.name = "process_parent";
            r.pid = pid;
        } else {
            continue;
        }
        r.has_ppid = pr->has_ppid;
        r.ppid = pr->ppid;
        if (!pf_emit(p, &r))
            return false;
    }
    for (size_t i = 0; i < p->n_thrs; i++) {
        const struct pf_thread *t = &p->thrs[i];
        if (!t->name)
            continue;
        struct tf_id pid = {TF_ID_NUM, t->tgid >= 0 ? t->tgid : t->tid, NULL};
        struct tf_id tid = {TF_ID_NUM, t->tid, NULL};
        if (!tf_tef_name_rec(&r, &p->args, "thread_name", &pid, &tid, pf_s(p, t->name)))
            return tf_diag_oom(p->d, p->file);
        if (!pf_emit(p, &r))
            return false;
    }
    /* CPU lanes after every thread */
    for (size_t i = 0; i < p->n_cpus; i++) {
        if (!p->has_sched)
            break;
        char lab[32];
        snprintf(lab, sizeof lab, "CPU %zu", i);
        struct tf_id pid = {TF_ID_STR, 0, lab};
        tf_buf_clear(&p->args);
        tf_buf_printf(&p->args, "{\"sort_index\":%zu}", 1000000 + i);
        memset(&r, 0, sizeof r);
        r.kind = TF_TEF_META;
        r.ph = 'M';
        r.name = "process_sort_index";
        r.pid = pid;
        r.args = (const unsigned char *)p->args.data;
        r.args_len = p->args.len;
        if (p->args.oom)
            return tf_diag_oom(p->d, p->file);
        if (!pf_emit(p, &r))
            return false;
    }
    return true;
}

static bool run_pass(struct pf *p, int pass)
{
    pass_reset(p);
    p->pass = pass;
    if (p->read)
        return p->read(p) && pf_tracks_end(p) && pf_ftrace_end(p);
    if (pass > 0 && !tf_input_seek(p->in, 0))
        return false;
    bool ok = stream(p) && pf_tracks_end(p) && pf_ftrace_end(p);
    return ok;
}

bool pf_init(struct pf *p, const char *file, const struct tf_tef_sink *sink, struct tf_diag *d)
{
    memset(p, 0, sizeof *p);
    p->file = file;
    p->sink = sink;
    p->d = d;
    tf_strtab_init(&p->strs);
    tf_buf_init(&p->args);
    tf_buf_init(&p->tmp);
    tf_buf_init(&p->tmp2);
    tf_buf_init(&p->cats);
    uint32_t empty;
    if (tf_pb_stream_init(&p->rd, NULL) && tf_strtab_id(&p->strs, "", &empty))
        return true;
    return tf_diag_oom(d, file);
}

bool pf_first(struct pf *p)
{
    return run_pass(p, 0) && run_pass(p, 1) && names(p);
}

bool pf_second(struct pf *p, int64_t lo, int64_t hi)
{
    p->lo = lo;
    p->hi = hi;
    return run_pass(p, 2);
}

void pf_free(struct pf *p)
{
    pass_reset(p);
    pf_seqs_free(p);
    free(p->snaps);
    free(p->clockdefs);
    pf_map_fini(&p->thr_of);
    pf_map_fini(&p->proc_of);
    pf_map_fini(&p->track_of);
    pf_map_fini(&p->flows);
    pf_map_fini(&p->atrace_of);
    for (size_t i = 0; i < p->n_tracks; i++)
        pf_stack_fini(&p->tracks[i].st);
    free(p->tracks);
    for (size_t i = 0; i < p->n_atr; i++)
        pf_stack_fini(&p->atr[i]);
    free(p->atr);
    free(p->atr_tid);
    free(p->cpus);
    free(p->aev);
    free(p->thrs);
    free(p->procs);
    tf_pb_stream_fini(&p->rd);
    free(p->pkt);
    free(p->zbuf);
    tf_buf_fini(&p->args);
    tf_buf_fini(&p->tmp);
    tf_buf_fini(&p->tmp2);
    tf_buf_fini(&p->cats);
    tf_strtab_fini(&p->strs);
}

bool tf_pftrace_looks(const unsigned char *h, size_t n)
{
    if (n < 2 || h[0] != 0x0a)
        return false;
    /* text (JSON that starts with a newline) is not a trace packet */
    bool text = true;
    for (size_t i = 0; i < n && text; i++)
        text = h[i] >= 0x20 || h[i] == '\n' || h[i] == '\r' || h[i] == '\t';
    if (text)
        return false;
    const uint8_t *q = h + 1, *end = h + n;
    uint64_t len;
    if (!tf_pb_varint(&q, end, &len) || len > PKT_MAX)
        return false;
    if (len == 0)
        return true;
    /* the packet's first field must be a plausible tag */
    uint64_t tag;
    const uint8_t *body_end = (size_t)(end - q) < len ? end : q + len;
    if (!tf_pb_varint(&q, body_end, &tag))
        return q >= body_end; /* cut by the peek */
    int wt = (int)(tag & 7);
    return tag >> 3 != 0 && (wt == 0 || wt == 1 || wt == 2 || wt == 5);
}

bool tf_load_pftrace(struct tf_input *in, const char *file, const struct tf_keep *keep,
                     struct tf_trace *out, struct tf_diag *d)
{
    out->kind = TF_TRACE_CHROME;
    out->generic = true;
    if (!keep->tef.index && !keep->tef.collect)
        return true; /* another mode's: nothing of it is read */
    if (keep->tef.columns)
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: --stats-compat hta: HTA reads the Chrome traces of PyTorch's "
                             "profiler, not Perfetto protobuf traces",
                             file);
    struct pf p;
    bool ok = pf_init(&p, file, &keep->tef, d);
    p.in = in;
    ok = ok && pf_first(&p);
    bool was_cut = p.cut;
    uint64_t cut_at = p.cut_at;
    if (ok && p.n_events == 0) {
        ok = tf_diag_error(d, TF_EBADINPUT,
                           "%s: a Perfetto trace with no event to draw (no track event, "
                           "scheduling, atrace or counter)%s",
                           file, was_cut ? ", and cut short" : "");
    }
    int64_t lo = INT64_MIN, hi = INT64_MAX;
    if (ok && p.sink->window && !p.sink->window(p.sink->ctx, &lo, &hi, d)) {
        tf_diag_prefix(d, file);
        ok = false;
    }
    ok = ok && pf_second(&p, lo, hi);
    if (ok && p.sink->finish && !p.sink->finish(p.sink->ctx, d)) {
        tf_diag_prefix(d, file);
        ok = false;
    }
    if (ok && was_cut)
        tf_diag_warn(d, "%s: byte %llu: the trace is cut in a packet; drawn what was complete",
                     file, (unsigned long long)cut_at);
    else if (ok && p.n_open)
        tf_diag_warn(d, "%s: %zu slice%s never ended: drawn to the window's end", file, p.n_open,
                     p.n_open == 1 ? "" : "s");
    pf_free(&p);
    return ok;
}
