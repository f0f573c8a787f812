/* pftrace_clock.c - the Perfetto loader's clocks and sequences:
 * ClockSnapshots and the conversion of a timestamp to the trace clock
 * (the notes at the top of pftrace.c say how), each
 * trusted_packet_sequence_id's incremental state (interning tables,
 * trace_packet_defaults, incremental clocks) and its legacy
 * thread_descriptor; see pftrace_int.h.
 */
#include "load/pftrace_int.h"

#include <stdlib.h>
#include <string.h>

#define SNAP_MAX 4096

/* --- clocks ------------------------------------------------------------------------ */

static uint64_t clock_key(const struct pf *p, uint32_t id)
{
    return id >= 64 && id < 128 && p->seq ? (uint64_t)id | (uint64_t)p->seq->id << 8 : id;
}

static struct pf_clockdef *clockdef(struct pf *p, uint64_t key)
{
    for (size_t i = 0; i < p->n_clockdefs; i++)
        if (p->clockdefs[i].key == key)
            return &p->clockdefs[i];
    return NULL;
}

bool pf_clock_snapshot(struct pf *p, const struct tf_pb *msg)
{
    struct tf_pb r = *msg, c;
    struct tf_pb_field f, g;
    int k;
    struct pf_snap s = {NULL, 0};
    size_t cap = 0;
    uint32_t primary = 0;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if (f.num == 2 && f.wt == TF_PB_VARINT)
            primary = (uint32_t)f.v;
        if (f.num != 1 || f.wt != TF_PB_LEN)
            continue;
        tf_pb_sub(&c, &r, &f);
        uint32_t id = 0;
        uint64_t ts = 0, mult = 1;
        bool inc = false;
        int j;
        while ((j = tf_pb_next(&c, &g)) > 0) {
            if (g.wt != TF_PB_VARINT)
                continue;
            if (g.num == 1)
                id = (uint32_t)g.v;
            else if (g.num == 2)
                ts = g.v;
            else if (g.num == 3)
                inc = g.v != 0;
            else if (g.num == 4 && g.v)
                mult = g.v;
        }
        if (j < 0) {
            free(s.c);
            return pf_pb_fail(p, &c);
        }
        uint64_t key = clock_key(p, id);
        struct pf_clockdef *cd = clockdef(p, key);
        if (!cd) {
            if (!TF_GROW(p->clockdefs, p->n_clockdefs, p->cap_clockdefs)) {
                free(s.c);
                return tf_diag_oom(p->d, p->file);
            }
            cd = &p->clockdefs[p->n_clockdefs++];
            cd->key = key;
        }
        cd->mult = mult;
        cd->incremental = inc;
        if (inc && id >= 64 && id < 128 && p->seq) {
            p->seq->inc_last[id - 64] = ts;
            p->seq->inc_set[id - 64] = true;
        }
        if (!TF_GROW(s.c, s.n, cap)) {
            free(s.c);
            return tf_diag_oom(p->d, p->file);
        }
        s.c[s.n++] = (struct pf_clk){key, (int64_t)(ts * mult)};
    }
    if (k < 0) {
        free(s.c);
        return pf_pb_fail(p, &r);
    }
    if (primary && p->n_snaps == 0)
        p->trace_clock = primary;
    if (p->n_snaps >= SNAP_MAX) { /* keep the first ones and the latest */
        free(p->snaps[p->n_snaps - 1].c);
        p->n_snaps--;
    }
    if (!TF_GROW(p->snaps, p->n_snaps, p->cap_snaps)) {
        free(s.c);
        return tf_diag_oom(p->d, p->file);
    }
    p->snaps[p->n_snaps++] = s;
    return true;
}

static bool snap_get(const struct pf_snap *s, uint64_t key, int64_t *ns)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->c[i].key == key) {
            *ns = s->c[i].ns;
            return true;
        }
    return false;
}

int64_t pf_time(struct pf *p, uint32_t clock, uint64_t raw)
{
    if (!clock)
        clock = p->trace_clock;
    uint64_t key = clock_key(p, clock);
    const struct pf_clockdef *cd = clockdef(p, key);
    uint64_t v = raw;
    if (cd && cd->incremental && clock >= 64 && clock < 128 && p->seq) {
        v = p->seq->inc_last[clock - 64] + raw;
        p->seq->inc_last[clock - 64] = v;
    }
    int64_t ns = (int64_t)(v * (cd ? cd->mult : 1));
    if (clock == p->trace_clock)
        return ns;
    uint64_t tkey = p->trace_clock;
    const struct pf_snap *best = NULL;
    int64_t best_c = 0, best_t = 0;
    for (size_t i = 0; i < p->n_snaps; i++) {
        int64_t c, t;
        if (!snap_get(&p->snaps[i], key, &c) || !snap_get(&p->snaps[i], tkey, &t))
            continue;
        if (!best || c <= ns) {
            best = &p->snaps[i];
            best_c = c;
            best_t = t;
        }
    }
    if (!best) {
        p->n_bad_clock += p->pass == 1;
        return ns;
    }
    return ns - best_c + best_t;
}

/* --- sequences --------------------------------------------------------------------- */

void pf_seq_clear(struct pf_seq *s)
{
    pf_map_clear(&s->names);
    pf_map_clear(&s->cats);
    pf_map_clear(&s->annots);
    pf_map_clear(&s->strvals);
    pf_map_clear(&s->gpuspecs);
    s->def_clock = 0;
    s->has_def_track = false;
    s->n_def_extra = s->n_def_extra_i = 0;
}

struct pf_seq *pf_seq_of(struct pf *p, uint32_t id)
{
    for (size_t i = 0; i < p->n_seqs; i++)
        if (p->seqs[i].id == id)
            return &p->seqs[i];
    if (!TF_GROW(p->seqs, p->n_seqs, p->cap_seqs))
        return NULL;
    struct pf_seq *s = &p->seqs[p->n_seqs++];
    memset(s, 0, sizeof *s);
    s->id = id;
    return s;
}

void pf_seqs_free(struct pf *p)
{
    for (size_t i = 0; i < p->n_seqs; i++) {
        struct pf_seq *s = &p->seqs[i];
        pf_map_fini(&s->names);
        pf_map_fini(&s->cats);
        pf_map_fini(&s->annots);
        pf_map_fini(&s->strvals);
        pf_map_fini(&s->gpuspecs);
        free(s->def_extra);
    }
    free(p->seqs);
    p->seqs = NULL;
    p->n_seqs = p->cap_seqs = 0;
}

static bool extra_push(struct pf *p, uint64_t v)
{
    struct pf_seq *s = p->seq;
    if (!TF_GROW(s->def_extra, s->n_def_extra, s->cap_def_extra))
        return false;
    s->def_extra[s->n_def_extra++] = v;
    return true;
}

static bool extra_i(void *ctx, uint64_t v)
{
    struct pf *p = ctx;
    p->seq->n_def_extra_i++;
    return extra_push(p, v);
}

static bool extra_d(void *ctx, uint64_t v)
{
    return extra_push(ctx, v);
}

bool pf_packet_defaults(struct pf *p, const struct tf_pb *msg)
{
    struct tf_pb r = *msg, t;
    struct tf_pb_field f, g;
    int k, j;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if (f.num == 58 && f.wt == TF_PB_VARINT)
            p->seq->def_clock = (uint32_t)f.v;
        if (f.num != 11 || f.wt != TF_PB_LEN)
            continue;
        tf_pb_sub(&t, &r, &f);
        p->seq->n_def_extra = p->seq->n_def_extra_i = 0;
        /* int tracks first, then double ones: two walks */
        for (int round = 0; round < 2; round++) {
            struct tf_pb u = t;
            while ((j = tf_pb_next(&u, &g)) > 0) {
                if (g.num == 11 && g.wt == TF_PB_VARINT && round == 0) {
                    p->seq->def_track = g.v;
                    p->seq->has_def_track = true;
                } else if (g.num == 31 && round == 0 && !tf_pb_each(&g, 0, extra_i, p)) {
                    return pf_bad(p, g.at, "extra_counter_track_uuids: damaged");
                } else if (g.num == 45 && round == 1 && !tf_pb_each(&g, 0, extra_d, p)) {
                    return pf_bad(p, g.at, "extra_double_counter_track_uuids: damaged");
                }
            }
            if (j < 0)
                return pf_pb_fail(p, &u);
        }
    }
    return k < 0 ? pf_pb_fail(p, &r) : true;
}

bool pf_thread_descriptor(struct pf *p, const struct tf_pb *msg)
{
    struct tf_pb r = *msg;
    struct tf_pb_field f;
    int k;
    int64_t pid = 0, tid = 0;
    uint32_t name = 0;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if (f.num == 1 && f.wt == TF_PB_VARINT)
            pid = (int32_t)f.v;
        else if (f.num == 2 && f.wt == TF_PB_VARINT)
            tid = (int64_t)f.v;
        else if (f.num == 5 && f.wt == TF_PB_LEN)
            name = pf_str(p, f.data, f.len);
    }
    if (k < 0)
        return pf_pb_fail(p, &r);
    p->seq->td_pid = pid;
    p->seq->td_tid = tid;
    p->seq->has_td = true;
    pf_name_thread(p, tid, pid, name, 2);
    return true;
}

