/* otf2_conv.c - an OTF2 archive's definitions and events into trace
 * records; see otf2_conv.h.
 *
 * IMPLEMENTATION NOTES
 *
 * Definitions.  OTF2 ids ("refs") are looked up through one hash map per
 * kind (ref -> index into the kind's array): writers number most kinds
 * densely from 0, but locations are often numbered sparsely (a rank in the
 * high bits), and nothing in the format promises either.
 *
 * Slices.  A location's open regions are a stack of frames; an Enter
 * pushes, a Leave closes the innermost frame of its region (the top, or,
 * when the events are mis-nested, a frame further down, which is then
 * taken out; the frames above it keep the depth they were opened at).  A
 * slice goes to the sink at its Leave as a B/E pair would (ph 'B' with its
 * depth: rows.c keeps a parent's row above its children, which it receives
 * first).  MeasurementOff ends every open frame's piece; MeasurementOn
 * opens new pieces of the same frames.
 *
 * Messages (pass 2 only: the figure draws arrows from them, the index
 * needs none).  A channel is (sender location, receiver location,
 * communicator, tag); its k-th send and its k-th receive are one message,
 * the flow id "CHANNEL.k" (CHANNEL: the channel's place in the map, which
 * both ends find the same).  A peer is a rank of the communicator: its
 * group (COMM_GROUP) maps it to a rank of the paradigm's COMM_LOCATIONS
 * group, which names the location.
 */
#include "load/otf2_conv.h"

#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/escape.h"

/* --- a map of refs ------------------------------------------------------------ */

struct refmap {
    uint64_t *keys;
    uint32_t *vals; /* index + 1; 0: empty */
    size_t cap, n;
};

static uint64_t mix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xFF51AFD7ED558CCDULL;
    k ^= k >> 33;
    return k;
}

static bool map_put(struct refmap *m, uint64_t key, uint32_t val)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        uint64_t *k = calloc(cap, sizeof *k);
        uint32_t *v = calloc(cap, sizeof *v);
        if (!k || !v) {
            free(k);
            free(v);
            return false;
        }
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->vals[i])
                continue;
            size_t j = (size_t)mix(m->keys[i]) & (cap - 1);
            while (v[j])
                j = (j + 1) & (cap - 1);
            k[j] = m->keys[i];
            v[j] = m->vals[i];
        }
        free(m->keys);
        free(m->vals);
        m->keys = k;
        m->vals = v;
        m->cap = cap;
    }
    size_t j = (size_t)mix(key) & (m->cap - 1);
    while (m->vals[j] && m->keys[j] != key)
        j = (j + 1) & (m->cap - 1);
    if (!m->vals[j])
        m->n++;
    m->keys[j] = key;
    m->vals[j] = val + 1;
    return true;
}

/* The index of key, or SIZE_MAX. */
static size_t map_get(const struct refmap *m, uint64_t key)
{
    if (!m->cap)
        return SIZE_MAX;
    size_t j = (size_t)mix(key) & (m->cap - 1);
    while (m->vals[j]) {
        if (m->keys[j] == key)
            return m->vals[j] - 1;
        j = (j + 1) & (m->cap - 1);
    }
    return SIZE_MAX;
}

static void map_fini(struct refmap *m)
{
    free(m->keys);
    free(m->vals);
}

/* --- the state ------------------------------------------------------------------ */

struct region {
    uint32_t name;
    const char *cat;
};

struct lgroup {
    uint32_t ref, name;
    int type;
    long long rank;  /* "rank N" */
    size_t n_cpu, n_gpu;
    long long device; /* its GPU streams' "GPU N", -1: none */
    bool selected;    /* some location of it is read */
    char label[48];
};

struct frame {
    uint32_t region;
    int64_t t0;     /* of its current piece; INT64_MIN while measurement is off */
    unsigned depth; /* 1: outermost */
    bool coll;      /* holds a collective operation */
};

struct location {
    uint64_t ref;
    uint32_t name;
    int type;
    size_t group;   /* index into groups, SIZE_MAX: none */
    long long ordinal; /* its place among the group's locations of its type */
    bool selected;
    struct tf_id pid, tid;
    char pid_str[48], tid_str[48];
    char label[112];
    bool lane;      /* has a lane of its own (not a metric location) */
};

struct group {
    int type, paradigm;
    uint64_t *members;
    uint32_t n;
};

struct member {
    uint32_t name;
    char *unit;
};

struct metric {
    uint32_t *members; /* indices into members; NULL for an instance */
    uint32_t n;
    uint32_t cls;      /* an instance: its class's ref */
    bool instance;
};

struct channel {
    uint64_t from, to;
    uint32_t comm, tag;
    uint64_t sends, recvs;
};

/* Pass 2: a rank's slices of one category (or, mpi, of MPI of any kind)
 * in the window that no slice of it encloses: intervals that may overlap
 * only across its threads, merged once the rank is read. */
struct par_acc {
    const char *cat;
    bool mpi;
    struct piece {
        int64_t lo, hi;
    } *v;
    size_t n, cap;
};

struct tf_otf2 {
    const char *file;
    const struct tf_tef_sink *sink;
    int pass;
    size_t idx, idx0; /* idx0: the first event's (the same in both passes) */
    uint64_t res, offset;
    bool has_clock;
    struct tf_arena arena;
    char **strs;
    size_t n_strs, cap_strs;
    struct refmap m_str, m_region, m_lg, m_loc, m_group, m_comm, m_member, m_metric, m_chan;
    struct region *regions;
    size_t n_regions, cap_regions;
    struct lgroup *lgs;
    size_t n_lgs, cap_lgs;
    struct location *locs;
    size_t n_locs, cap_locs;
    struct group *groups;
    size_t n_groups, cap_groups;
    uint32_t *comms; /* group ref of each communicator */
    size_t n_comms, cap_comms;
    struct member *members;
    size_t n_members, cap_members;
    struct metric *metrics;
    size_t n_metrics, cap_metrics;
    struct channel *chans;
    size_t n_chans, cap_chans;
    uint64_t *selected;
    size_t n_selected;
    /* the location being read */
    struct location *cur;
    struct frame *stack;
    size_t n_stack, cap_stack;
    int64_t coll_t0;
    bool in_coll, off;
    /* pass 2: the rank being read's time per paradigm */
    int64_t w0, w1;
    size_t acc_group; /* its group, SIZE_MAX: none */
    struct tf_id acc_pid;
    char acc_pid_str[48];
    struct par_acc *accs;
    size_t n_accs, cap_accs;
    /* counts (pass 1) */
    size_t n_misnested, n_stray_leaves, n_never_left, n_off, n_off_ranks, n_bad_metric;
    bool loc_had_off;
    struct tf_buf args, flow, name;
};

struct tf_otf2 *tf_otf2_new(const char *file, const struct tf_tef_sink *sink)
{
    struct tf_otf2 *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    n->file = file;
    n->sink = sink;
    n->pass = 1;
    n->res = 1;
    n->acc_group = SIZE_MAX;
    tf_arena_init(&n->arena);
    tf_buf_init(&n->args);
    tf_buf_init(&n->flow);
    tf_buf_init(&n->name);
    return n;
}

void tf_otf2_free(struct tf_otf2 *n)
{
    if (!n)
        return;
    struct refmap *maps[] = {&n->m_str,    &n->m_region, &n->m_lg,     &n->m_loc, &n->m_group,
                             &n->m_comm,   &n->m_member, &n->m_metric, &n->m_chan};
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
        map_fini(maps[i]);
    for (size_t i = 0; i < n->n_groups; i++)
        free(n->groups[i].members);
    for (size_t i = 0; i < n->n_metrics; i++)
        free(n->metrics[i].members);
    free(n->strs);
    free(n->regions);
    free(n->lgs);
    free(n->locs);
    free(n->groups);
    free(n->comms);
    free(n->members);
    free(n->metrics);
    free(n->chans);
    free(n->selected);
    free(n->stack);
    for (size_t i = 0; i < n->n_accs; i++)
        free(n->accs[i].v);
    free(n->accs);
    tf_arena_fini(&n->arena);
    tf_buf_fini(&n->args);
    tf_buf_fini(&n->flow);
    tf_buf_fini(&n->name);
    free(n);
}

static const char *str(const struct tf_otf2 *n, uint32_t ref)
{
    size_t i = map_get(&n->m_str, ref);
    return i == SIZE_MAX ? "" : n->strs[i];
}

/* --- definitions ---------------------------------------------------------------- */

bool tf_otf2_def_clock(struct tf_otf2 *n, uint64_t resolution, uint64_t offset)
{
    n->res = resolution ? resolution : 1;
    n->offset = offset;
    n->has_clock = true;
    return true;
}

bool tf_otf2_def_string(struct tf_otf2 *n, uint32_t ref, const char *s)
{
    char *c = tf_arena_strdup(&n->arena, s ? s : "");
    if (!c || !TF_GROW(n->strs, n->n_strs, n->cap_strs))
        return false;
    /* Strings are made valid UTF-8 by the sink's consumers as they are
     * drawn (jsonlite); here they are kept as written. */
    n->strs[n->n_strs] = c;
    return map_put(&n->m_str, ref, (uint32_t)n->n_strs++);
}

/* The category of a region: its paradigm, or I/O by its role. */
static const char *category(int role, int paradigm)
{
    if (role == 27 || role == 38) /* FILE_IO, FILE_IO_METADATA */
        return "I/O";
    switch (paradigm) {
    case 1: return "user";
    case 2: return "compiler";
    case 3: return "OpenMP";
    case 4: return role >= 23 && role <= 26 ? "MPI collective" : "MPI"; /* COLL_* */
    case 5: return "CUDA";
    case 6: return "measurement";
    case 7: return "pthread";
    case 8: return "HMPP";
    case 9: return "OmpSs";
    case 10: return "hardware";
    case 11: return "GASPI";
    case 12: return "UPC";
    case 13: return "SHMEM";
    case 14: return "Windows threads";
    case 15: return "Qt threads";
    case 16: return "ACE threads";
    case 17: return "TBB";
    case 18: return "OpenACC";
    case 19: return "OpenCL";
    case 20: return "MTAPI";
    case 21: return "sampling";
    case 23: return "HIP";
    case 24: return "Kokkos";
    default: return "other";
    }
}

bool tf_otf2_def_region(struct tf_otf2 *n, uint32_t ref, uint32_t name, int role, int paradigm)
{
    if (!TF_GROW(n->regions, n->n_regions, n->cap_regions))
        return false;
    n->regions[n->n_regions] = (struct region){name, category(role, paradigm)};
    return map_put(&n->m_region, ref, (uint32_t)n->n_regions++);
}

bool tf_otf2_def_location_group(struct tf_otf2 *n, uint32_t ref, uint32_t name, int type)
{
    if (!TF_GROW(n->lgs, n->n_lgs, n->cap_lgs))
        return false;
    struct lgroup *g = &n->lgs[n->n_lgs];
    memset(g, 0, sizeof *g);
    g->ref = ref;
    g->name = name;
    g->type = type;
    g->device = -1;
    return map_put(&n->m_lg, ref, (uint32_t)n->n_lgs++);
}

bool tf_otf2_def_location(struct tf_otf2 *n, uint64_t ref, uint32_t name, int type,
                          uint32_t group)
{
    if (!TF_GROW(n->locs, n->n_locs, n->cap_locs))
        return false;
    struct location *l = &n->locs[n->n_locs];
    memset(l, 0, sizeof *l);
    l->ref = ref;
    l->name = name;
    l->type = type;
    l->group = group; /* a ref until tf_otf2_plan */
    return map_put(&n->m_loc, ref, (uint32_t)n->n_locs++);
}

bool tf_otf2_def_group(struct tf_otf2 *n, uint32_t ref, int type, int paradigm, uint32_t n_members,
                       const uint64_t *members)
{
    if (!TF_GROW(n->groups, n->n_groups, n->cap_groups))
        return false;
    struct group *g = &n->groups[n->n_groups];
    memset(g, 0, sizeof *g);
    g->type = type;
    g->paradigm = paradigm;
    if (n_members) {
        if (!(g->members = malloc(n_members * sizeof *g->members)))
            return false;
        memcpy(g->members, members, n_members * sizeof *g->members);
        g->n = n_members;
    }
    return map_put(&n->m_group, ref, (uint32_t)n->n_groups++);
}

bool tf_otf2_def_comm(struct tf_otf2 *n, uint32_t ref, uint32_t group)
{
    if (!TF_GROW(n->comms, n->n_comms, n->cap_comms))
        return false;
    n->comms[n->n_comms] = group;
    return map_put(&n->m_comm, ref, (uint32_t)n->n_comms++);
}

/* A unit with the prefix its base and exponent give ("ms", "KiB"; "10^7
 * B" for the others). */
static char *unit_text(struct tf_otf2 *n, const char *unit, int base, int64_t exponent)
{
    static const struct {
        int base;
        int64_t exp;
        const char *prefix;
    } prefixes[] = {
        {1, -9, "n"}, {1, -6, "\xC2\xB5"}, {1, -3, "m"}, {1, 3, "k"},   {1, 6, "M"},
        {1, 9, "G"},  {1, 12, "T"},        {0, 10, "Ki"}, {0, 20, "Mi"}, {0, 30, "Gi"},
    };
    tf_buf_clear(&n->name);
    if (exponent != 0) {
        const char *p = NULL;
        for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
            if (prefixes[i].base == base && prefixes[i].exp == exponent)
                p = prefixes[i].prefix;
        if (p)
            tf_buf_puts(&n->name, p);
        else
            tf_buf_printf(&n->name, "%d^%lld ", base == 0 ? 2 : 10, (long long)exponent);
    }
    tf_buf_puts(&n->name, unit);
    if (n->name.oom)
        return NULL;
    return tf_arena_strdup(&n->arena, n->name.data ? n->name.data : "");
}

bool tf_otf2_def_member(struct tf_otf2 *n, uint32_t ref, uint32_t name, uint32_t unit, int base,
                        int64_t exponent)
{
    if (!TF_GROW(n->members, n->n_members, n->cap_members))
        return false;
    const char *u = str(n, unit);
    char *text = *u || exponent ? unit_text(n, u, base, exponent) : NULL;
    if ((*u || exponent) && !text)
        return false;
    n->members[n->n_members] = (struct member){name, text};
    return map_put(&n->m_member, ref, (uint32_t)n->n_members++);
}

bool tf_otf2_def_metric_class(struct tf_otf2 *n, uint32_t ref, uint32_t n_members,
                              const uint32_t *members)
{
    if (!TF_GROW(n->metrics, n->n_metrics, n->cap_metrics))
        return false;
    struct metric *m = &n->metrics[n->n_metrics];
    memset(m, 0, sizeof *m);
    if (n_members && !(m->members = malloc(n_members * sizeof *m->members)))
        return false;
    for (uint32_t i = 0; i < n_members; i++) {
        size_t k = map_get(&n->m_member, members[i]);
        m->members[i] = k == SIZE_MAX ? UINT32_MAX : (uint32_t)k;
    }
    m->n = n_members;
    return map_put(&n->m_metric, ref, (uint32_t)n->n_metrics++);
}

bool tf_otf2_def_metric_instance(struct tf_otf2 *n, uint32_t ref, uint32_t metric_class)
{
    if (!TF_GROW(n->metrics, n->n_metrics, n->cap_metrics))
        return false;
    n->metrics[n->n_metrics] = (struct metric){.cls = metric_class, .instance = true};
    return map_put(&n->m_metric, ref, (uint32_t)n->n_metrics++);
}

/* --- lanes ---------------------------------------------------------------------- */

/* The integer a name ends in, or -1. */
static long long trailing_number(const char *s)
{
    size_t len = strlen(s), k = len;
    while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
        k--;
    if (k == len || len - k > 9)
        return -1;
    return strtoll(s + k, NULL, 10);
}

/* Ranks: the numbers the process groups' names end in when all do and no
 * two alike, else their place in the definitions. */
static void number_ranks(struct tf_otf2 *n)
{
    bool by_name = true;
    for (size_t i = 0; i < n->n_lgs && by_name; i++) {
        if (n->lgs[i].type == TF_OTF2_LG_ACCELERATOR)
            continue;
        long long r = trailing_number(str(n, n->lgs[i].name));
        by_name = r >= 0;
        for (size_t k = 0; k < i && by_name; k++)
            by_name = n->lgs[k].type == TF_OTF2_LG_ACCELERATOR || n->lgs[k].rank != r;
        n->lgs[i].rank = r;
    }
    long long next = 0;
    for (size_t i = 0; i < n->n_lgs; i++)
        if (n->lgs[i].type != TF_OTF2_LG_ACCELERATOR && !by_name)
            n->lgs[i].rank = next++;
}

static int by_rank(const void *x, const void *y, const struct tf_otf2 *n)
{
    const struct location *a = x, *b = y;
    const struct lgroup *ga = a->group < n->n_lgs ? &n->lgs[a->group] : NULL;
    const struct lgroup *gb = b->group < n->n_lgs ? &n->lgs[b->group] : NULL;
    /* ranks first, in order; then the accelerator groups; then no group */
    int ka = !ga ? 2 : ga->type == TF_OTF2_LG_ACCELERATOR, kb = !gb ? 2 : gb->type == TF_OTF2_LG_ACCELERATOR;
    if (ka != kb)
        return ka - kb;
    long long ra = ga ? (ka ? (long long)a->group : ga->rank) : 0;
    long long rb = gb ? (kb ? (long long)b->group : gb->rank) : 0;
    if (ra != rb)
        return ra < rb ? -1 : 1;
    return a->ref < b->ref ? -1 : a->ref > b->ref;
}

static const struct tf_otf2 *sort_ctx;
static int cmp_loc(const void *x, const void *y)
{
    return by_rank(x, y, sort_ctx);
}

static bool pattern_match(const struct tf_tef_sink *s, const char *label)
{
    char pat[512];
    for (size_t q = 0; q < s->n_lanes; q++) {
        const char *eq = strchr(s->lanes[q], '=');
        size_t len = eq ? (size_t)(eq - s->lanes[q]) : strlen(s->lanes[q]);
        if (len >= sizeof pat)
            len = sizeof pat - 1;
        memcpy(pat, s->lanes[q], len);
        pat[len] = '\0';
        if (fnmatch(pat, label, 0) == 0)
            return true;
    }
    return false;
}

/* Names each location's lane: ids and label. */
static void name_location(struct tf_otf2 *n, struct location *l)
{
    struct lgroup *g = l->group < n->n_lgs ? &n->lgs[l->group] : NULL;
    bool gpu = l->type == TF_OTF2_LOC_GPU || (g && g->type == TF_OTF2_LG_ACCELERATOR &&
                                              l->type != TF_OTF2_LOC_METRIC);
    l->lane = l->type != TF_OTF2_LOC_METRIC;
    if (gpu) {
        snprintf(l->pid_str, sizeof l->pid_str, "GPU %lld", g ? g->device : 0LL);
        snprintf(l->tid_str, sizeof l->tid_str, "stream %lld", l->ordinal);
        if (g && g->type != TF_OTF2_LG_ACCELERATOR)
            snprintf(l->tid_str, sizeof l->tid_str, "stream %lld (rank %lld)", l->ordinal,
                     g->rank);
        l->pid = (struct tf_id){.kind = TF_ID_STR, .str = l->pid_str};
        l->tid = (struct tf_id){.kind = TF_ID_STR, .str = l->tid_str};
        snprintf(l->label, sizeof l->label, "%s / %s", l->pid_str, l->tid_str);
        return;
    }
    if (g && g->type == TF_OTF2_LG_ACCELERATOR) { /* a metric location of a GPU */
        snprintf(l->pid_str, sizeof l->pid_str, "GPU %lld", g->device);
        l->pid = (struct tf_id){.kind = TF_ID_STR, .str = l->pid_str};
        l->tid = (struct tf_id){.kind = TF_ID_NUM, .num = l->ordinal};
        snprintf(l->label, sizeof l->label, "%s", l->pid_str);
        return;
    }
    long long rank = g ? g->rank : -1;
    l->pid = (struct tf_id){.kind = TF_ID_NUM, .num = rank};
    l->tid = (struct tf_id){.kind = TF_ID_NUM, .num = l->ordinal};
    if (g && g->n_cpu > 1 && l->type != TF_OTF2_LOC_METRIC)
        snprintf(l->label, sizeof l->label, "rank %lld / thread %lld", rank, l->ordinal);
    else
        snprintf(l->label, sizeof l->label, "rank %lld", rank);
}

bool tf_otf2_plan(struct tf_otf2 *n, struct tf_diag *d)
{
    if (n->n_locs == 0)
        return tf_diag_error(d, TF_EBADINPUT, "%s: an OTF2 archive without locations", n->file);
    number_ranks(n);
    for (size_t i = 0; i < n->n_locs; i++) {
        size_t g = map_get(&n->m_lg, n->locs[i].group);
        n->locs[i].group = g;
    }
    sort_ctx = n;
    qsort(n->locs, n->n_locs, sizeof *n->locs, cmp_loc);
    sort_ctx = NULL;
    long long device = 0;
    for (size_t i = 0; i < n->n_locs; i++) {
        struct location *l = &n->locs[i];
        if (!map_put(&n->m_loc, l->ref, (uint32_t)i))
            return tf_diag_oom(d, n->file);
        struct lgroup *g = l->group < n->n_lgs ? &n->lgs[l->group] : NULL;
        if (!g)
            continue;
        bool gpu = l->type == TF_OTF2_LOC_GPU ||
                   (g->type == TF_OTF2_LG_ACCELERATOR && l->type != TF_OTF2_LOC_METRIC);
        if (gpu && g->device < 0)
            g->device = device++;
        if (g->type == TF_OTF2_LG_ACCELERATOR && g->device < 0)
            g->device = device++;
        l->ordinal = (long long)(gpu ? g->n_gpu++ : l->type == TF_OTF2_LOC_METRIC ? 0 : g->n_cpu++);
        snprintf(g->label, sizeof g->label,
                 g->type == TF_OTF2_LG_ACCELERATOR ? "GPU %lld" : "rank %lld",
                 g->type == TF_OTF2_LG_ACCELERATOR ? g->device : g->rank);
    }
    for (size_t i = 0; i < n->n_locs; i++)
        name_location(n, &n->locs[i]);
    /* What is read: what --lanes picks; a metric location with its rank. */
    bool any = n->sink->n_lanes == 0;
    for (size_t i = 0; i < n->n_locs; i++) {
        struct location *l = &n->locs[i];
        l->selected = n->sink->n_lanes == 0 || (l->lane && pattern_match(n->sink, l->label));
        if (l->selected && l->group < n->n_lgs)
            n->lgs[l->group].selected = true;
        any |= l->selected;
    }
    for (size_t i = 0; i < n->n_locs; i++) {
        struct location *l = &n->locs[i];
        struct lgroup *g = l->group < n->n_lgs ? &n->lgs[l->group] : NULL;
        if (!l->selected && !l->lane && g && (g->selected || pattern_match(n->sink, g->label)))
            l->selected = any = true;
    }
    if (!any) {
        /* Nothing read: the mode's own message lists the labels. */
        for (size_t i = 0; i < n->n_locs; i++)
            n->locs[i].selected = true;
    }
    if (!(n->selected = malloc(n->n_locs * sizeof *n->selected)))
        return tf_diag_oom(d, n->file);
    for (size_t i = 0; i < n->n_locs; i++)
        if (n->locs[i].selected)
            n->selected[n->n_selected++] = n->locs[i].ref;
    return true;
}

const uint64_t *tf_otf2_selected(const struct tf_otf2 *n, size_t *count)
{
    *count = n->n_selected;
    return n->selected;
}

/* --- records -------------------------------------------------------------------- */

static bool emit(struct tf_otf2 *n, struct tf_tef_rec *r, struct tf_diag *d)
{
    r->idx = n->idx++;
    bool (*fn)(void *, const struct tf_tef_rec *, struct tf_diag *) =
        n->pass == 1 ? n->sink->index : n->sink->collect;
    if (!fn || fn(n->sink->ctx, r, d))
        return true;
    if (!tf_diag_failed(d))
        return tf_diag_oom(d, n->file);
    tf_diag_prefix(d, n->file);
    return false;
}

static bool name_record(struct tf_otf2 *n, const char *what, const struct tf_id *pid,
                        const struct tf_id *tid, const char *name, struct tf_diag *d)
{
    tf_buf_clear(&n->args);
    tf_buf_puts(&n->args, "{\"name\":");
    tf_buf_json_str(&n->args, name);
    tf_buf_putc(&n->args, '}');
    if (n->args.oom)
        return tf_diag_oom(d, n->file);
    struct tf_tef_rec r;
    memset(&r, 0, sizeof r);
    r.kind = TF_TEF_META;
    r.ph = 'M';
    r.name = what;
    r.pid = *pid;
    if (tid)
        r.tid = *tid;
    r.args = (const unsigned char *)n->args.data;
    r.args_len = n->args.len;
    return emit(n, &r, d);
}

bool tf_otf2_begin(struct tf_otf2 *n, struct tf_diag *d)
{
    struct tf_tef_rec r;
    memset(&r, 0, sizeof r);
    r.kind = TF_TEF_HPC;
    r.name = "";
    if (!emit(n, &r, d))
        return false;
    memset(&r, 0, sizeof r);
    r.kind = TF_TEF_ORIGIN; /* the global offset is time 0 */
    r.name = "";
    if (!emit(n, &r, d))
        return false;
    size_t last_group = SIZE_MAX;
    for (size_t i = 0; i < n->n_locs; i++) {
        struct location *l = &n->locs[i];
        if (!l->selected)
            continue;
        struct lgroup *g = l->group < n->n_lgs ? &n->lgs[l->group] : NULL;
        if (l->group != last_group || l->pid.kind == TF_ID_STR) {
            if (!name_record(n, "process_name", &l->pid, NULL, l->pid_str[0] ? l->pid_str
                                                                             : g ? g->label : "rank",
                             d))
                return false;
            last_group = l->group;
        }
        if (l->pid.kind == TF_ID_STR && l->lane) {
            if (!name_record(n, "thread_name", &l->pid, &l->tid, l->tid_str, d))
                return false;
        } else if (g && g->n_cpu > 1 && l->lane) {
            tf_buf_clear(&n->flow);
            tf_buf_printf(&n->flow, "thread %lld", l->ordinal);
            if (n->flow.oom)
                return tf_diag_oom(d, n->file);
            if (!name_record(n, "thread_name", &l->pid, &l->tid, n->flow.data, d))
                return false;
        }
    }
    n->idx0 = n->idx;
    return true;
}

/* --- events ---------------------------------------------------------------------- */

/* Ticks of the archive's clock as ns from its global offset. */
static int64_t ns_of(const struct tf_otf2 *n, uint64_t t)
{
    bool neg = t < n->offset;
    uint64_t dt = neg ? n->offset - t : t - n->offset;
    uint64_t q = dt / n->res, rem = dt % n->res;
    double v;
    if (n->res == 1000000000ULL)
        v = (double)dt;
    else if (n->res <= 18000000000ULL && q < 9000000000ULL)
        v = (double)(q * 1000000000ULL) + (double)(rem * 1000000000ULL / n->res);
    else
        v = (double)dt * 1e9 / (double)n->res;
    if (v > 4e18)
        v = 4e18;
    return neg ? -(int64_t)v : (int64_t)v;
}

bool tf_otf2_enter(struct tf_otf2 *n, uint64_t t, uint32_t region, struct tf_diag *d)
{
    (void)d;
    size_t k = map_get(&n->m_region, region);
    if (!n->cur || k == SIZE_MAX)
        return true;
    if (!TF_GROW(n->stack, n->n_stack, n->cap_stack))
        return tf_diag_oom(d, n->file);
    n->stack[n->n_stack] = (struct frame){(uint32_t)k, n->off ? INT64_MIN : ns_of(n, t),
                                          (unsigned)n->n_stack + 1, false};
    n->n_stack++;
    return true;
}

static bool slice(struct tf_otf2 *n, const char *name, const char *cat, int64_t t0, int64_t t1,
                  unsigned depth, bool open_end, struct tf_diag *d)
{
    struct tf_tef_rec r;
    memset(&r, 0, sizeof r);
    r.kind = TF_TEF_SLICE;
    r.ph = 'B';
    r.pid = n->cur->pid;
    r.tid = n->cur->tid;
    r.name = name;
    r.cat = cat;
    r.ts = t0;
    r.dur = open_end || t1 < t0 ? 0 : t1 - t0;
    r.has_dur = !open_end;
    r.open_end = open_end;
    r.depth = depth;
    return emit(n, &r, d);
}

/* A frame's category: its region's, an MPI call's "MPI collective" when
 * it held a collective operation. */
static const char *frame_cat(const struct tf_otf2 *n, const struct frame *f)
{
    const char *cat = n->regions[f->region].cat;
    return f->coll && strcmp(cat, "MPI") == 0 ? "MPI collective" : cat;
}

static bool is_mpi(const char *cat)
{
    return strncmp(cat, "MPI", 3) == 0;
}

static bool acc_add(struct tf_otf2 *n, const char *cat, bool mpi, int64_t lo, int64_t hi)
{
    size_t k = 0;
    while (k < n->n_accs && (n->accs[k].mpi != mpi || (!mpi && strcmp(n->accs[k].cat, cat) != 0)))
        k++;
    if (k == n->n_accs) {
        if (!TF_GROW(n->accs, n->n_accs, n->cap_accs))
            return false;
        n->accs[n->n_accs++] = (struct par_acc){.cat = cat, .mpi = mpi};
    }
    struct par_acc *a = &n->accs[k];
    if (a->n && lo <= a->v[a->n - 1].hi && lo >= a->v[a->n - 1].lo) {
        if (hi > a->v[a->n - 1].hi)
            a->v[a->n - 1].hi = hi;
        return true;
    }
    if (!TF_GROW(a->v, a->n, a->cap))
        return false;
    a->v[a->n++] = (struct piece){lo, hi};
    return true;
}

/* Pass 2: the piece [t0, t1) of a slice of category cat whose enclosing
 * open frames are stack[0 .. below), for the rank's time per paradigm. */
static bool account(struct tf_otf2 *n, const char *cat, size_t below, int64_t t0, int64_t t1,
                    bool open_end)
{
    if (n->pass != 2 || n->cur->group >= n->n_lgs)
        return true;
    int64_t lo = t0 > n->w0 ? t0 : n->w0, hi = open_end || t1 > n->w1 ? n->w1 : t1;
    if (hi <= lo)
        return true;
    bool outer = true, outer_mpi = true;
    for (size_t k = 0; k < below && k < n->n_stack; k++) {
        const char *a = frame_cat(n, &n->stack[k]);
        outer = outer && strcmp(a, cat) != 0;
        outer_mpi = outer_mpi && !is_mpi(a);
    }
    return (!outer || acc_add(n, cat, false, lo, hi)) &&
           (!outer_mpi || !is_mpi(cat) || acc_add(n, NULL, true, lo, hi));
}

static int by_lo(const void *x, const void *y)
{
    const struct piece *a = x, *b = y;
    return (a->lo > b->lo) - (a->lo < b->lo);
}

/* The rank read so far: its time per paradigm, to collect(). */
static bool flush_rank(struct tf_otf2 *n, struct tf_diag *d)
{
    for (size_t k = 0; k < n->n_accs; k++) {
        struct par_acc *a = &n->accs[k];
        if (a->n > 1)
            qsort(a->v, a->n, sizeof *a->v, by_lo);
        int64_t total = 0, lo = 0, hi = INT64_MIN;
        for (size_t i = 0; i < a->n; i++) {
            if (a->v[i].lo > hi) {
                if (hi != INT64_MIN)
                    total += hi - lo;
                lo = a->v[i].lo;
                hi = a->v[i].hi;
            } else if (a->v[i].hi > hi) {
                hi = a->v[i].hi;
            }
        }
        if (hi != INT64_MIN)
            total += hi - lo;
        free(a->v);
        a->v = NULL;
        a->n = a->cap = 0;
        struct tf_tef_rec r;
        memset(&r, 0, sizeof r);
        r.kind = TF_TEF_PARADIGM;
        r.pid = n->acc_pid;
        r.name = "";
        r.cat = a->mpi ? NULL : a->cat;
        r.dur = total;
        /* no place in the file: the events' numbering stays pass 1's */
        size_t idx = n->idx;
        bool ok = emit(n, &r, d);
        n->idx = idx;
        if (!ok)
            return false;
    }
    n->n_accs = 0;
    n->acc_group = SIZE_MAX;
    return true;
}

bool tf_otf2_location(struct tf_otf2 *n, uint64_t ref, struct tf_diag *d)
{
    size_t i = map_get(&n->m_loc, ref);
    n->cur = i == SIZE_MAX ? NULL : &n->locs[i];
    size_t g = n->cur ? n->cur->group : SIZE_MAX;
    if (n->acc_group != SIZE_MAX && g != n->acc_group && !flush_rank(n, d))
        return false;
    if (n->cur && g < n->n_lgs && n->acc_group == SIZE_MAX) {
        /* the pid of the rank's (or GPU's) records, for its measures */
        n->acc_group = g;
        n->acc_pid = n->cur->pid;
        if (n->cur->pid.kind == TF_ID_STR) {
            snprintf(n->acc_pid_str, sizeof n->acc_pid_str, "%s", n->cur->pid_str);
            n->acc_pid.str = n->acc_pid_str;
        }
    }
    n->n_stack = 0;
    n->in_coll = n->off = n->loc_had_off = false;
    return true;
}

static bool close_frame(struct tf_otf2 *n, const struct frame *f, size_t below, int64_t t1,
                        bool open_end, struct tf_diag *d)
{
    if (f->t0 == INT64_MIN || !n->cur->lane)
        return true; /* measurement was off: no piece open */
    const char *cat = frame_cat(n, f);
    if (!account(n, cat, below, f->t0, t1, open_end))
        return tf_diag_oom(d, n->file);
    return slice(n, str(n, n->regions[f->region].name), cat, f->t0, t1, f->depth, open_end, d);
}

bool tf_otf2_leave(struct tf_otf2 *n, uint64_t t, uint32_t region, struct tf_diag *d)
{
    size_t k = map_get(&n->m_region, region);
    if (!n->cur || k == SIZE_MAX)
        return true;
    size_t i = n->n_stack;
    while (i > 0 && n->stack[i - 1].region != k)
        i--;
    if (i == 0) {
        n->n_stray_leaves += n->pass == 1;
        return true;
    }
    if (i != n->n_stack)
        n->n_misnested += n->pass == 1;
    struct frame f = n->stack[i - 1];
    /* its enclosing frames are those below it, still on the stack */
    bool ok = close_frame(n, &f, i - 1, ns_of(n, t), false, d);
    memmove(&n->stack[i - 1], &n->stack[i], (n->n_stack - i) * sizeof *n->stack);
    n->n_stack--;
    return ok;
}

/* The location a rank of communicator comm names; false when unknown. */
static bool peer_location(const struct tf_otf2 *n, uint32_t comm, uint32_t rank, uint64_t *loc)
{
    size_t c = map_get(&n->m_comm, comm);
    size_t g = c == SIZE_MAX ? SIZE_MAX : map_get(&n->m_group, n->comms[c]);
    if (g != SIZE_MAX) {
        const struct group *gr = &n->groups[g];
        if (gr->type == TF_OTF2_GROUP_COMM_SELF) {
            *loc = n->cur->ref;
            return true;
        }
        if (gr->type == TF_OTF2_GROUP_COMM_LOCATIONS && rank < gr->n) {
            *loc = gr->members[rank];
            return true;
        }
        if (gr->type == TF_OTF2_GROUP_COMM_GROUP && rank < gr->n) {
            uint64_t world = gr->members[rank];
            for (size_t i = 0; i < n->n_groups; i++)
                if (n->groups[i].type == TF_OTF2_GROUP_COMM_LOCATIONS &&
                    n->groups[i].paradigm == gr->paradigm && world < n->groups[i].n) {
                    *loc = n->groups[i].members[world];
                    return true;
                }
        }
    }
    /* No groups: the first CPU location of the rank of that number. */
    for (size_t i = 0; i < n->n_locs; i++) {
        const struct location *l = &n->locs[i];
        if (l->group < n->n_lgs && n->lgs[l->group].rank == (long long)rank &&
            n->lgs[l->group].type != TF_OTF2_LG_ACCELERATOR && l->type != TF_OTF2_LOC_METRIC) {
            *loc = l->ref;
            return true;
        }
    }
    return false;
}

static bool message(struct tf_otf2 *n, uint64_t t, uint32_t peer, uint32_t comm, uint32_t tag,
                    bool send, struct tf_diag *d)
{
    if (n->pass == 1 || !n->cur || !n->cur->lane)
        return true;
    uint64_t other;
    if (!peer_location(n, comm, peer, &other))
        return true;
    uint64_t from = send ? n->cur->ref : other, to = send ? other : n->cur->ref;
    uint64_t key = mix(from) ^ mix(to * 31 + comm) ^ mix((uint64_t)tag << 32 | comm);
    /* the map holds one channel per key: a collision of keys probes on */
    size_t ci = SIZE_MAX;
    for (uint64_t k = key;; k = mix(k + 1)) {
        size_t i = map_get(&n->m_chan, k);
        if (i == SIZE_MAX) {
            if (!TF_GROW(n->chans, n->n_chans, n->cap_chans) ||
                !map_put(&n->m_chan, k, (uint32_t)n->n_chans))
                return tf_diag_oom(d, n->file);
            n->chans[n->n_chans] = (struct channel){from, to, comm, tag, 0, 0};
            ci = n->n_chans++;
            break;
        }
        const struct channel *c = &n->chans[i];
        if (c->from == from && c->to == to && c->comm == comm && c->tag == tag) {
            ci = i;
            break;
        }
    }
    struct channel *c = &n->chans[ci];
    uint64_t seq = send ? c->sends++ : c->recvs++;
    tf_buf_clear(&n->flow);
    tf_buf_printf(&n->flow, "otf2 %zu.%llu", ci, (unsigned long long)seq);
    if (n->flow.oom)
        return tf_diag_oom(d, n->file);
    struct tf_tef_rec r;
    memset(&r, 0, sizeof r);
    r.kind = TF_TEF_FLOW;
    r.ph = send ? 's' : 'f';
    r.pid = n->cur->pid;
    r.tid = n->cur->tid;
    r.name = r.cat = "";
    r.ts = ns_of(n, t);
    r.id = n->flow.data;
    r.bp = send ? 0 : 'e';
    return emit(n, &r, d);
}

bool tf_otf2_send(struct tf_otf2 *n, uint64_t t, uint32_t peer, uint32_t comm, uint32_t tag,
                  struct tf_diag *d)
{
    return message(n, t, peer, comm, tag, true, d);
}

bool tf_otf2_recv(struct tf_otf2 *n, uint64_t t, uint32_t peer, uint32_t comm, uint32_t tag,
                  struct tf_diag *d)
{
    return message(n, t, peer, comm, tag, false, d);
}

void tf_otf2_coll_begin(struct tf_otf2 *n, uint64_t t)
{
    n->in_coll = true;
    n->coll_t0 = n->off ? INT64_MIN : ns_of(n, t);
}

static const char *coll_name(int op)
{
    static const char *const names[] = {
        "MPI_Barrier",   "MPI_Bcast",     "MPI_Gather",         "MPI_Gatherv",
        "MPI_Scatter",   "MPI_Scatterv",  "MPI_Allgather",      "MPI_Allgatherv",
        "MPI_Alltoall",  "MPI_Alltoallv", "MPI_Alltoallw",      "MPI_Allreduce",
        "MPI_Reduce",    "MPI_Reduce_scatter", "MPI_Scan",      "MPI_Exscan",
        "MPI_Reduce_scatter_block",
    };
    return op >= 0 && op < (int)(sizeof names / sizeof names[0]) ? names[op] : "MPI collective";
}

bool tf_otf2_coll_end(struct tf_otf2 *n, uint64_t t, int op, struct tf_diag *d)
{
    if (!n->cur || !n->in_coll)
        return true;
    n->in_coll = false;
    struct frame *top = n->n_stack ? &n->stack[n->n_stack - 1] : NULL;
    if (top && strncmp(n->regions[top->region].cat, "MPI", 3) == 0) {
        top->coll = true; /* the MPI call is the collective's slice */
        return true;
    }
    if (n->coll_t0 == INT64_MIN || !n->cur->lane)
        return true;
    if (!account(n, "MPI collective", n->n_stack, n->coll_t0, ns_of(n, t), false))
        return tf_diag_oom(d, n->file);
    return slice(n, coll_name(op), "MPI collective", n->coll_t0, ns_of(n, t),
                 (unsigned)n->n_stack + 1, false, d);
}

/* A value as JSON text ("null" for one that is not finite). */
static void put_value(struct tf_buf *b, uint8_t type, union tf_otf2_value v)
{
    if (type == TF_OTF2_TYPE_INT64)
        tf_buf_printf(b, "%lld", (long long)v.i);
    else if (type == TF_OTF2_TYPE_UINT64)
        tf_buf_printf(b, "%llu", (unsigned long long)v.u);
    else if (isfinite(v.d))
        tf_buf_printf(b, "%.17g", v.d);
    else
        tf_buf_puts(b, "null");
}

bool tf_otf2_metric(struct tf_otf2 *n, uint64_t t, uint32_t metric, size_t count,
                    const uint8_t *types, const union tf_otf2_value *values, struct tf_diag *d)
{
    size_t m = map_get(&n->m_metric, metric);
    if (!n->cur || m == SIZE_MAX)
        return true;
    if (n->metrics[m].instance)
        m = map_get(&n->m_metric, n->metrics[m].cls);
    if (m == SIZE_MAX || n->metrics[m].instance) {
        n->n_bad_metric += n->pass == 1;
        return true;
    }
    const struct metric *mc = &n->metrics[m];
    const struct lgroup *g = n->cur->group < n->n_lgs ? &n->lgs[n->cur->group] : NULL;
    /* a thread of a rank of several names its series apart */
    bool own = g && g->n_cpu > 1 && n->cur->lane;
    int64_t ts = ns_of(n, t);
    for (size_t i = 0; i < count && i < mc->n; i++) {
        if (mc->members[i] == UINT32_MAX)
            continue;
        const struct member *mb = &n->members[mc->members[i]];
        tf_buf_clear(&n->args);
        tf_buf_puts(&n->args, "{");
        if (own)
            tf_buf_printf(&n->args, "\"thread %lld\"", n->cur->ordinal);
        else
            tf_buf_puts(&n->args, "\"\"");
        tf_buf_putc(&n->args, ':');
        put_value(&n->args, types[i], values[i]);
        tf_buf_putc(&n->args, '}');
        if (n->args.oom)
            return tf_diag_oom(d, n->file);
        struct tf_tef_rec r;
        memset(&r, 0, sizeof r);
        r.kind = TF_TEF_COUNTER;
        r.ph = 'C';
        r.pid = n->cur->pid;
        r.tid = n->cur->tid;
        r.name = str(n, mb->name);
        r.unit = mb->unit;
        r.ts = ts;
        r.args = (const unsigned char *)n->args.data;
        r.args_len = n->args.len;
        if (!emit(n, &r, d))
            return false;
    }
    return true;
}

bool tf_otf2_onoff(struct tf_otf2 *n, uint64_t t, int mode, struct tf_diag *d)
{
    if (!n->cur)
        return true;
    int64_t ts = ns_of(n, t);
    if (mode == TF_OTF2_MEASUREMENT_OFF && !n->off) {
        n->off = true;
        if (n->pass == 1) {
            n->n_off++;
            n->n_off_ranks += !n->loc_had_off;
        }
        n->loc_had_off = true;
        for (size_t i = 0; i < n->n_stack; i++)
            if (!close_frame(n, &n->stack[i], i, ts, false, d))
                return false;
        for (size_t i = 0; i < n->n_stack; i++)
            n->stack[i].t0 = INT64_MIN;
    } else if (mode == TF_OTF2_MEASUREMENT_ON && n->off) {
        n->off = false;
        for (size_t i = 0; i < n->n_stack; i++)
            n->stack[i].t0 = ts;
    }
    return true;
}

bool tf_otf2_location_end(struct tf_otf2 *n, struct tf_diag *d)
{
    if (!n->cur)
        return true;
    for (size_t i = 0; i < n->n_stack; i++) {
        n->n_never_left += n->pass == 1;
        if (!close_frame(n, &n->stack[i], i, 0, true, d))
            return false;
    }
    n->n_stack = 0;
    n->cur = NULL;
    return true;
}

/* --- the passes ------------------------------------------------------------------ */

bool tf_otf2_window(struct tf_otf2 *n, int64_t *lo, int64_t *hi, struct tf_diag *d)
{
    if (n->n_off) {
        tf_buf_clear(&n->name);
        tf_buf_printf(&n->name,
                      "measurement switched off %zu time%s (on %zu location%s): the gaps in "
                      "the lanes are not recorded",
                      n->n_off, n->n_off == 1 ? "" : "s", n->n_off_ranks,
                      n->n_off_ranks == 1 ? "" : "s");
        if (n->name.oom)
            return tf_diag_oom(d, n->file);
        struct tf_tef_rec r;
        memset(&r, 0, sizeof r);
        r.kind = TF_TEF_NOTE;
        r.name = n->name.data;
        if (!emit(n, &r, d))
            return false;
    }
    *lo = INT64_MIN;
    *hi = INT64_MAX;
    if (n->sink->window && !n->sink->window(n->sink->ctx, lo, hi, d)) {
        tf_diag_prefix(d, n->file);
        return false;
    }
    n->w0 = *lo;
    n->w1 = *hi;
    n->pass = 2;
    n->idx = n->idx0;
    return true;
}

bool tf_otf2_finish(struct tf_otf2 *n, struct tf_diag *d)
{
    if (n->acc_group != SIZE_MAX && !flush_rank(n, d))
        return false;
    if (n->sink->finish && !n->sink->finish(n->sink->ctx, d)) {
        tf_diag_prefix(d, n->file);
        return false;
    }
    if (n->n_misnested || n->n_stray_leaves || n->n_never_left) {
        tf_buf_clear(&n->name);
        const char *sep = "";
        if (n->n_misnested) {
            tf_buf_printf(&n->name,
                          "%zu Leave%s did not match the innermost open region (each closed "
                          "its own region)",
                          n->n_misnested, n->n_misnested == 1 ? "" : "s");
            sep = "; ";
        }
        if (n->n_stray_leaves) {
            tf_buf_printf(&n->name, "%s%zu Leave%s of a region not open (ignored)", sep,
                          n->n_stray_leaves, n->n_stray_leaves == 1 ? "" : "s");
            sep = "; ";
        }
        if (n->n_never_left)
            tf_buf_printf(&n->name, "%s%zu region%s never left (drawn to the end)", sep,
                          n->n_never_left, n->n_never_left == 1 ? "" : "s");
        if (!n->name.oom)
            tf_diag_warn(d, "%s: %s", n->file, n->name.data);
    }
    if (n->n_bad_metric)
        tf_diag_warn(d, "%s: %zu metric event%s of an undefined metric class: left out",
                     n->file, n->n_bad_metric, n->n_bad_metric == 1 ? "" : "s");
    return true;
}
