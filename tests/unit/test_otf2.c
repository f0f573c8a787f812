/* OTF2 definitions and events into trace records (load/otf2_conv.h), fed
 * by hand through a sink that records what it is given: lane names and
 * order, clock conversion, nesting and mis-nesting, the MeasurementOnOff
 * gap, messages by channel, collectives, metrics, the paradigm times. */
#include "harness.h"
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "base/diag.h"
#include "load/otf2_conv.h"

struct o2got {
    enum tf_tef_kind kind;
    int pass;
    char ph;
    char pid[32], tid[32], name[128], cat[32], id[32], args[64], unit[16];
    int64_t ts, dur;
    unsigned depth;
    bool open_end;
};

struct o2rec {
    struct o2got g[128];
    int n, pass;
};

static void o2_id(const struct tf_id *id, char *out, size_t n)
{
    if (id->kind == TF_ID_NUM)
        snprintf(out, n, "%lld", id->num);
    else if (id->kind == TF_ID_STR)
        snprintf(out, n, "%s", id->str);
    else
        snprintf(out, n, "-");
}

static bool o2_keep(void *ctx, const struct tf_tef_rec *r, struct tf_diag *d)
{
    (void)d;
    struct o2rec *k = ctx;
    if (k->n == 128)
        return true;
    struct o2got *g = &k->g[k->n++];
    memset(g, 0, sizeof *g);
    g->kind = r->kind;
    g->pass = k->pass;
    g->ph = r->ph;
    o2_id(&r->pid, g->pid, sizeof g->pid);
    o2_id(&r->tid, g->tid, sizeof g->tid);
    snprintf(g->name, sizeof g->name, "%s", r->name ? r->name : "(null)");
    snprintf(g->cat, sizeof g->cat, "%s", r->cat ? r->cat : "(null)");
    snprintf(g->id, sizeof g->id, "%s", r->id ? r->id : "");
    snprintf(g->unit, sizeof g->unit, "%s", r->unit ? r->unit : "");
    if (r->args)
        snprintf(g->args, sizeof g->args, "%.*s", (int)r->args_len, (const char *)r->args);
    g->ts = r->ts;
    g->dur = r->dur;
    g->depth = r->depth;
    g->open_end = r->open_end;
    return true;
}

static bool o2_window(void *ctx, int64_t *lo, int64_t *hi, struct tf_diag *d)
{
    (void)d;
    ((struct o2rec *)ctx)->pass = 2;
    *lo = 0;
    *hi = 1000000000;
    return true;
}

static const struct o2got *o2_find(const struct o2rec *k, enum tf_tef_kind kind,
                                   const char *name, const char *pid, int pass, int nth)
{
    for (int i = 0; i < k->n; i++)
        if (k->g[i].kind == kind && strcmp(k->g[i].name, name) == 0 && k->g[i].pass == pass &&
            (!pid || strcmp(k->g[i].pid, pid) == 0) && nth-- == 0)
            return &k->g[i];
    return NULL;
}

enum { R_MAIN, R_SEND, R_RECV, R_BCAST, R_A, R_B, R_KERNEL };

/* Two ranks ("MPI Rank 7", "MPI Rank 3": numbered by their names), one
 * thread each, and a GPU with a stream; a clock of 1 tick per us from
 * 1000. */
static void o2_defs(struct tf_otf2 *n)
{
    static const char *const strs[] = {"main", "MPI_Send", "MPI_Recv", "MPI_Bcast", "a",
                                       "b",    "kernel",   "MPI Rank 7", "MPI Rank 3",
                                       "GPU",  "power",    "W"};
    for (uint32_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        tf_otf2_def_string(n, i, strs[i]);
    tf_otf2_def_clock(n, 1000000, 1000);
    tf_otf2_def_region(n, R_MAIN, 0, 1, 1);   /* user */
    tf_otf2_def_region(n, R_SEND, 1, 28, 4);  /* MPI point-to-point */
    tf_otf2_def_region(n, R_RECV, 2, 28, 4);
    tf_otf2_def_region(n, R_BCAST, 3, 1, 4);  /* MPI; a collective inside makes it one */
    tf_otf2_def_region(n, R_A, 4, 1, 1);
    tf_otf2_def_region(n, R_B, 5, 1, 1);
    tf_otf2_def_region(n, R_KERNEL, 6, 1, 5); /* CUDA */
    tf_otf2_def_location_group(n, 0, 7, 1);
    tf_otf2_def_location_group(n, 1, 8, 1);
    tf_otf2_def_location_group(n, 2, 9, 2);
    tf_otf2_def_location(n, 100, 0, 1, 10, 0); /* rank 7 */
    tf_otf2_def_location(n, 200, 0, 1, 10, 1); /* rank 3 */
    tf_otf2_def_location(n, 300, 0, 2, 2, 2);  /* GPU stream */
    uint64_t locs[2] = {200, 100}; /* world rank 0 is rank 3's location */
    tf_otf2_def_group(n, 0, 4, 4, 2, locs);
    uint64_t world[2] = {0, 1};
    tf_otf2_def_group(n, 1, 5, 4, 2, world);
    tf_otf2_def_comm(n, 0, 1);
    tf_otf2_def_member(n, 0, 10, 11, 1, 0);
    uint32_t members[1] = {0};
    tf_otf2_def_metric_class(n, 0, 1, members);
}

/* One pass of the events: rank 3 (world 0) sends to world 1 (rank 7). */
static bool o2_events(struct tf_otf2 *n, struct tf_diag *d)
{
    bool ok = tf_otf2_location(n, 200, d) && tf_otf2_enter(n, 1000, R_MAIN, d) &&
              tf_otf2_enter(n, 1010, R_SEND, d) && tf_otf2_send(n, 1012, 1, 0, 9, d) &&
              tf_otf2_leave(n, 1020, R_SEND, d) && tf_otf2_enter(n, 1030, R_A, d) &&
              tf_otf2_enter(n, 1040, R_B, d) && tf_otf2_leave(n, 1050, R_A, d) &&
              tf_otf2_leave(n, 1060, R_B, d) && tf_otf2_onoff(n, 1070, TF_OTF2_MEASUREMENT_OFF, d) &&
              tf_otf2_onoff(n, 1080, TF_OTF2_MEASUREMENT_ON, d) &&
              tf_otf2_leave(n, 1100, R_MAIN, d) && tf_otf2_location_end(n, d);
    union tf_otf2_value v = {.d = 42.5};
    uint8_t type = TF_OTF2_TYPE_DOUBLE;
    ok = ok && tf_otf2_location(n, 100, d) && tf_otf2_enter(n, 1000, R_MAIN, d) &&
         tf_otf2_metric(n, 1001, 0, 1, &type, &v, d) && tf_otf2_enter(n, 1010, R_RECV, d) &&
         tf_otf2_recv(n, 1015, 0, 0, 9, d) && tf_otf2_leave(n, 1016, R_RECV, d) &&
         tf_otf2_enter(n, 1020, R_BCAST, d);
    tf_otf2_coll_begin(n, 1021);
    ok = ok && tf_otf2_coll_end(n, 1029, 1, d) && tf_otf2_leave(n, 1030, R_BCAST, d) &&
         tf_otf2_location_end(n, d); /* main never left */
    return ok && tf_otf2_location(n, 300, d) && tf_otf2_enter(n, 1040, R_KERNEL, d) &&
           tf_otf2_leave(n, 1045, R_KERNEL, d) && tf_otf2_location_end(n, d);
}

TF_TEST(otf2_definitions_and_events_into_records)
{
    struct o2rec k;
    memset(&k, 0, sizeof k);
    k.pass = 1;
    struct tf_tef_sink s;
    memset(&s, 0, sizeof s);
    s.index = s.collect = o2_keep;
    s.window = o2_window;
    s.ctx = &k;
    struct tf_diag d;
    tf_diag_init(&d);
    d.quiet = true;
    struct tf_otf2 *n = tf_otf2_new("t.otf2", &s);
    TF_CHECK(n != NULL);
    if (!n)
        return;
    o2_defs(n);
    TF_CHECK(tf_otf2_plan(n, &d));
    size_t n_sel;
    const uint64_t *sel = tf_otf2_selected(n, &n_sel);
    /* rank order: rank 3, rank 7, then the GPU */
    TF_CHECK(n_sel == 3 && sel[0] == 200 && sel[1] == 100 && sel[2] == 300);
    int64_t lo, hi;
    TF_CHECK(tf_otf2_begin(n, &d) && o2_events(n, &d) && tf_otf2_window(n, &lo, &hi, &d) &&
             o2_events(n, &d) && tf_otf2_finish(n, &d));
    TF_CHECK(o2_find(&k, TF_TEF_META, "process_name", "3", 1, 0) != NULL);
    const struct o2got *g = o2_find(&k, TF_TEF_META, "thread_name", "GPU 0", 1, 0);
    TF_CHECK(g && strstr(g->args, "stream 0"));
    /* ticks of 1 us from the offset 1000 */
    g = o2_find(&k, TF_TEF_SLICE, "MPI_Send", "3", 1, 0);
    TF_CHECK(g && g->ts == 10000 && g->dur == 10000 && strcmp(g->cat, "MPI") == 0 &&
             g->depth == 2);
    /* a's Leave while b is open closes a; b keeps its depth */
    g = o2_find(&k, TF_TEF_SLICE, "a", "3", 1, 0);
    TF_CHECK(g && g->ts == 30000 && g->dur == 20000 && g->depth == 2);
    g = o2_find(&k, TF_TEF_SLICE, "b", "3", 1, 0);
    TF_CHECK(g && g->ts == 40000 && g->dur == 20000 && g->depth == 3);
    /* main around the gap: two pieces */
    g = o2_find(&k, TF_TEF_SLICE, "main", "3", 1, 0);
    const struct o2got *g2 = o2_find(&k, TF_TEF_SLICE, "main", "3", 1, 1);
    TF_CHECK(g && g->ts == 0 && g->dur == 70000 && g2 && g2->ts == 80000 && g2->dur == 20000);
    TF_CHECK(o2_find(&k, TF_TEF_NOTE, "measurement switched off 1 time (on 1 location): the "
                                      "gaps in the lanes are not recorded",
                     NULL, 1, 0) != NULL);
    /* the collective makes its MPI call a collective; main never left */
    g = o2_find(&k, TF_TEF_SLICE, "MPI_Bcast", "7", 1, 0);
    TF_CHECK(g && strcmp(g->cat, "MPI collective") == 0);
    g = o2_find(&k, TF_TEF_SLICE, "main", "7", 1, 0);
    TF_CHECK(g && g->open_end);
    g = o2_find(&k, TF_TEF_SLICE, "kernel", "GPU 0", 1, 0);
    TF_CHECK(g && strcmp(g->cat, "CUDA") == 0 && strcmp(g->tid, "stream 0") == 0);
    /* metrics: a counter of its rank, with its unit */
    g = o2_find(&k, TF_TEF_COUNTER, "power", "7", 1, 0);
    TF_CHECK(g && strcmp(g->unit, "W") == 0 && strcmp(g->args, "{\"\":42.5}") == 0);
    /* the message: pass 2 only, the two ends with one id */
    TF_CHECK(o2_find(&k, TF_TEF_FLOW, "", NULL, 1, 0) == NULL);
    const struct o2got *fs = NULL, *ff = NULL;
    for (int i = 0; i < k.n; i++) {
        if (k.g[i].kind == TF_TEF_FLOW && k.g[i].ph == 's')
            fs = &k.g[i];
        if (k.g[i].kind == TF_TEF_FLOW && k.g[i].ph == 'f')
            ff = &k.g[i];
    }
    TF_CHECK(fs && ff && strcmp(fs->id, ff->id) == 0 && strcmp(fs->pid, "3") == 0 &&
             strcmp(ff->pid, "7") == 0 && fs->ts == 12000 && ff->ts == 15000);
    /* rank 3's MPI: the send, 10 us; rank 7's: recv 6 + bcast 10 */
    int found = 0;
    for (int i = 0; i < k.n; i++) {
        const struct o2got *p = &k.g[i];
        if (p->kind != TF_TEF_PARADIGM || strcmp(p->cat, "(null)") != 0)
            continue;
        found++;
        TF_CHECK(strcmp(p->pid, "3") == 0 ? p->dur == 10000 : p->dur == 16000);
    }
    TF_CHECK(found == 2); /* the GPU has no MPI: no record of it */
    TF_CHECK(d.n_warnings == 1); /* one line: the mis-nested Leave and main never left */
    tf_otf2_free(n);
}
