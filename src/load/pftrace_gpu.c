/* pftrace_gpu.c - a Perfetto trace's GPUs: GPU counters
 * (gpu_counter_event, its descriptor inline or interned), the ftrace
 * gpu_frequency event, and render stages (gpu_render_stage_event) as
 * slices on lanes "GPU N / QUEUE"; see pftrace.h.
 */
#include "load/pftrace_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEY_COUNTER (3ULL << 62) /* GPU counter names, by counter id */
#define KEY_QUEUE (1ULL << 61)   /* deprecated specifications: queue names by index */
#define KEY_STAGE (1ULL << 60)   /* ... stage names by index */

/* A name kept with the tracks under a key of their own. */
static bool keep_name(struct pf *p, uint64_t key, uint32_t name)
{
    struct pf_track *t = NULL;
    uint64_t idx;
    if (pf_map_get(&p->track_of, key, &idx))
        t = &p->tracks[idx - 1];
    else if (TF_GROW(p->tracks, p->n_tracks, p->cap_tracks) &&
             pf_map_put(&p->track_of, key, p->n_tracks + 1)) {
        t = &p->tracks[p->n_tracks++];
        memset(t, 0, sizeof *t);
        t->uuid = key;
        t->unit_mult = 1;
    }
    if (!t)
        return tf_diag_oom(p->d, p->file);
    t->name = name;
    return true;
}

static uint32_t kept_name(const struct pf *p, uint64_t key)
{
    uint64_t idx;
    return pf_map_get(&p->track_of, key, &idx) ? p->tracks[idx - 1].name : 0;
}

/* --- counters ---------------------------------------------------------------------- */

/* A GpuCounterDescriptor's specs (counter_id 1, name 2): the counters'
 * names, kept with the tracks under a key of their own. */
bool pf_gpu_specs(struct pf *p, const struct tf_pb *desc)
{
    struct tf_pb sub = *desc, spec;
    struct tf_pb_field g, h;
    int j, i;
    while ((j = tf_pb_next(&sub, &g)) > 0) {
        if (g.num != 1 || g.wt != TF_PB_LEN)
            continue;
        tf_pb_sub(&spec, &sub, &g);
        uint64_t id = 0;
        uint32_t name = 0;
        while ((i = tf_pb_next(&spec, &h)) > 0) {
            if (h.num == 1 && h.wt == TF_PB_VARINT)
                id = h.v;
            else if (h.num == 2 && h.wt == TF_PB_LEN)
                name = pf_str(p, h.data, h.len);
        }
        if (i < 0)
            return pf_pb_fail(p, &spec);
        if (!keep_name(p, KEY_COUNTER | id, name))
            return false;
    }
    return j < 0 ? pf_pb_fail(p, &sub) : true;
}

bool pf_gpu_counter(struct pf *p, const struct tf_pb *msg, int64_t ts)
{
    /* GpuCounterEvent: counter_descriptor 1 (or counter_descriptor_iid 4,
     * interned), counters 2 {counter_id 1, int_value 2, double_value 3},
     * gpu_id 3 */
    struct tf_pb r = *msg, sub;
    struct tf_pb_field f, g;
    int k, j;
    int64_t gpu = 0;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if (f.num == 3 && f.wt == TF_PB_VARINT)
            gpu = (int32_t)f.v;
        if (f.num != 1 || f.wt != TF_PB_LEN)
            continue;
        tf_pb_sub(&sub, &r, &f);
        if (!pf_gpu_specs(p, &sub))
            return false;
    }
    if (k < 0)
        return pf_pb_fail(p, &r);
    if (ts == INT64_MIN)
        return true;
    char lab[32];
    snprintf(lab, sizeof lab, "GPU %lld", (long long)gpu);
    struct tf_id lane = {TF_ID_STR, 0, lab};
    r = *msg;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if (f.num != 2 || f.wt != TF_PB_LEN)
            continue;
        tf_pb_sub(&sub, &r, &f);
        uint64_t id = 0;
        double v = 0;
        bool has = false;
        while ((j = tf_pb_next(&sub, &g)) > 0) {
            if (g.num == 1 && g.wt == TF_PB_VARINT)
                id = g.v;
            else if (g.num == 2 && g.wt == TF_PB_VARINT) {
                v = (double)(int64_t)g.v;
                has = true;
            } else if (g.num == 3 && g.wt == TF_PB_I64) {
                v = tf_pb_double(g.v);
                has = true;
            }
        }
        if (j < 0)
            return pf_pb_fail(p, &sub);
        char name[48];
        const char *nm = name;
        uint32_t kept = kept_name(p, KEY_COUNTER | id);
        if (kept)
            nm = pf_s(p, kept);
        else
            snprintf(name, sizeof name, "counter %llu", (unsigned long long)id);
        if (has && !pf_counter(p, &lane, nm, NULL, ts, v))
            return false;
    }
    return k < 0 ? pf_pb_fail(p, &r) : true;
}

bool pf_gpu_frequency(struct pf *p, int64_t gpu, int64_t ts, double v)
{
    char lab[32];
    snprintf(lab, sizeof lab, "GPU %lld", (long long)gpu);
    struct tf_id lane = {TF_ID_STR, 0, lab};
    return pf_counter(p, &lane, "gpufreq", NULL, ts, v);
}

/* --- render stages ------------------------------------------------------------------ */

/* Deprecated specifications (7): hw_queue 2 and stage 3, lists of
 * Description {name 1}, their index the id events give. */
static bool specifications(struct pf *p, const struct tf_pb *msg)
{
    struct tf_pb r = *msg, d;
    struct tf_pb_field f, g;
    int k, j;
    uint64_t n_queue = 0, n_stage = 0;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if ((f.num != 2 && f.num != 3) || f.wt != TF_PB_LEN)
            continue;
        tf_pb_sub(&d, &r, &f);
        uint32_t name = 0;
        while ((j = tf_pb_next(&d, &g)) > 0)
            if (g.num == 1 && g.wt == TF_PB_LEN)
                name = pf_str(p, g.data, g.len);
        if (j < 0)
            return pf_pb_fail(p, &d);
        uint64_t key = f.num == 2 ? KEY_QUEUE | n_queue++ : KEY_STAGE | n_stage++;
        if (!keep_name(p, key, name))
            return false;
    }
    return k < 0 ? pf_pb_fail(p, &r) : true;
}

bool pf_gpu_render_stage(struct pf *p, const struct tf_pb *msg, int64_t ts)
{
    /* duration 2, hw_queue_id 3, stage_id 4, specifications 7, gpu_id 11,
     * hw_queue_iid 13, stage_iid 14, name 17 */
    struct tf_pb r = *msg, sub;
    struct tf_pb_field f;
    int k;
    uint64_t dur = 0, queue = 0, stage = 0, queue_iid = 0, stage_iid = 0;
    bool has_queue_iid = false, has_stage_iid = false;
    int64_t gpu = 0;
    uint32_t name = 0;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if (f.wt == TF_PB_LEN) {
            tf_pb_sub(&sub, &r, &f);
            if (f.num == 7 && !specifications(p, &sub))
                return false;
            if (f.num == 17)
                name = pf_str(p, f.data, f.len);
            continue;
        }
        switch (f.num) {
        case 2: dur = f.v; break;
        case 3: queue = f.v; break;
        case 4: stage = f.v; break;
        case 11: gpu = (int32_t)f.v; break;
        case 13: queue_iid = f.v; has_queue_iid = true; break;
        case 14: stage_iid = f.v; has_stage_iid = true; break;
        default: break;
        }
    }
    if (k < 0)
        return pf_pb_fail(p, &r);
    if (ts == INT64_MIN)
        return true;
    uint64_t v;
    uint32_t qname = has_queue_iid ? (pf_map_get(&p->seq->gpuspecs, queue_iid, &v) ? (uint32_t)v : 0)
                                   : kept_name(p, KEY_QUEUE | queue);
    uint32_t sname = has_stage_iid ? (pf_map_get(&p->seq->gpuspecs, stage_iid, &v) ? (uint32_t)v : 0)
                                   : kept_name(p, KEY_STAGE | stage);
    char lab[32], qbuf[48], sbuf[48];
    snprintf(lab, sizeof lab, "GPU %lld", (long long)gpu);
    const char *qn = pf_s(p, qname), *sn = name ? pf_s(p, name) : pf_s(p, sname);
    if (!*qn) {
        snprintf(qbuf, sizeof qbuf, "queue %llu",
                 (unsigned long long)(has_queue_iid ? queue_iid : queue));
        qn = qbuf;
    }
    if (!*sn) {
        snprintf(sbuf, sizeof sbuf, "stage %llu",
                 (unsigned long long)(has_stage_iid ? stage_iid : stage));
        sn = sbuf;
    }
    struct tf_tef_rec rec;
    memset(&rec, 0, sizeof rec);
    rec.kind = TF_TEF_SLICE;
    rec.ph = 'X';
    rec.pid = (struct tf_id){TF_ID_STR, 0, lab};
    rec.tid = (struct tf_id){TF_ID_STR, 0, qn};
    rec.name = sn;
    rec.cat = "gpu render stage";
    rec.ts = ts;
    rec.dur = dur > (uint64_t)INT64_MAX / 2 ? 0 : (int64_t)dur;
    rec.has_dur = true;
    return pf_emit(p, &rec);
}
