/* otf2_conv.c - an OTF2 archive's definitions, its lanes and their names
 * (the events are otf2_events.c's); see otf2_conv.h.
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
 * taken out; the frames above it keep the depth they were opened at); a
 * Leave of a region not open closes the top frame (nothing when none is
 * open).  A
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
#include "load/otf2_int.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/utf8.h"

/* --- a map of refs ------------------------------------------------------------ */

uint64_t tf_otf2_mix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xFF51AFD7ED558CCDULL;
    k ^= k >> 33;
    return k;
}

bool tf_otf2_map_put(struct refmap *m, uint64_t key, uint32_t val)
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
            size_t j = (size_t)tf_otf2_mix(m->keys[i]) & (cap - 1);
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
    size_t j = (size_t)tf_otf2_mix(key) & (m->cap - 1);
    while (m->vals[j] && m->keys[j] != key)
        j = (j + 1) & (m->cap - 1);
    if (!m->vals[j])
        m->n++;
    m->keys[j] = key;
    m->vals[j] = val + 1;
    return true;
}

/* The index of key, or SIZE_MAX. */
size_t tf_otf2_map_get(const struct refmap *m, uint64_t key)
{
    if (!m->cap)
        return SIZE_MAX;
    size_t j = (size_t)tf_otf2_mix(key) & (m->cap - 1);
    while (m->vals[j]) {
        if (m->keys[j] == key)
            return m->vals[j] - 1;
        j = (j + 1) & (m->cap - 1);
    }
    return SIZE_MAX;
}

void tf_otf2_map_fini(struct refmap *m)
{
    free(m->keys);
    free(m->vals);
}

/* --- the state ------------------------------------------------------------------ */

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
        tf_otf2_map_fini(maps[i]);
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

const char *tf_otf2_str(const struct tf_otf2 *n, uint32_t ref)
{
    size_t i = tf_otf2_map_get(&n->m_str, ref);
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
    return tf_otf2_map_put(&n->m_str, ref, (uint32_t)n->n_strs++);
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
    n->mpi |= paradigm == 4; /* OTF2_PARADIGM_MPI */
    return tf_otf2_map_put(&n->m_region, ref, (uint32_t)n->n_regions++);
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
    return tf_otf2_map_put(&n->m_lg, ref, (uint32_t)n->n_lgs++);
}

bool tf_otf2_def_location(struct tf_otf2 *n, uint64_t ref, uint32_t name, int type,
                          uint64_t n_events, uint32_t group)
{
    if (!TF_GROW(n->locs, n->n_locs, n->cap_locs))
        return false;
    struct location *l = &n->locs[n->n_locs];
    memset(l, 0, sizeof *l);
    l->ref = ref;
    l->n_events = n_events;
    l->name = name;
    l->type = type;
    l->group = group; /* a ref until tf_otf2_plan */
    return tf_otf2_map_put(&n->m_loc, ref, (uint32_t)n->n_locs++);
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
    n->mpi |= paradigm == 4;
    if (n_members) {
        if (!(g->members = malloc(n_members * sizeof *g->members)))
            return false;
        memcpy(g->members, members, n_members * sizeof *g->members);
        g->n = n_members;
    }
    return tf_otf2_map_put(&n->m_group, ref, (uint32_t)n->n_groups++);
}

bool tf_otf2_def_comm(struct tf_otf2 *n, uint32_t ref, uint32_t group)
{
    if (!TF_GROW(n->comms, n->n_comms, n->cap_comms))
        return false;
    n->comms[n->n_comms] = group;
    return tf_otf2_map_put(&n->m_comm, ref, (uint32_t)n->n_comms++);
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
    const char *u = tf_otf2_str(n, unit);
    char *text = *u || exponent ? unit_text(n, u, base, exponent) : NULL;
    if ((*u || exponent) && !text)
        return false;
    n->members[n->n_members] = (struct member){name, text};
    return tf_otf2_map_put(&n->m_member, ref, (uint32_t)n->n_members++);
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
        size_t k = tf_otf2_map_get(&n->m_member, members[i]);
        m->members[i] = k == SIZE_MAX ? UINT32_MAX : (uint32_t)k;
    }
    m->n = n_members;
    return tf_otf2_map_put(&n->m_metric, ref, (uint32_t)n->n_metrics++);
}

bool tf_otf2_def_metric_instance(struct tf_otf2 *n, uint32_t ref, uint32_t metric_class)
{
    if (!TF_GROW(n->metrics, n->n_metrics, n->cap_metrics))
        return false;
    n->metrics[n->n_metrics] = (struct metric){.cls = metric_class, .instance = true};
    return tf_otf2_map_put(&n->m_metric, ref, (uint32_t)n->n_metrics++);
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
        long long r = trailing_number(tf_otf2_str(n, n->lgs[i].name));
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

/* A name of the archive as a label (valid UTF-8, as it is drawn): "NONE N"
 * when it is empty, "NAME N" when another has the same, else the name. */
static void put_label(char *out, size_t cap, const char *name, bool twin, const char *none,
                      long long num)
{
    char clean[80];
    tf_utf8_clean(clean, sizeof clean, name, false);
    if (!*name)
        snprintf(out, cap, "%s %lld", none, num);
    else if (twin)
        snprintf(out, cap, "%s %lld", clean, num);
    else
        snprintf(out, cap, "%s", clean);
}

/* Without MPI, a process is named as the archive names it ("Process"):
 * "process N" when it has no name, "NAME N" when another has the same. */
static void name_process(struct tf_otf2 *n, struct lgroup *g)
{
    const char *name = tf_otf2_str(n, g->name);
    bool twin = !*name;
    for (size_t i = 0; i < n->n_lgs && !twin; i++)
        twin = &n->lgs[i] != g && n->lgs[i].type != TF_OTF2_LG_ACCELERATOR &&
               strcmp(tf_otf2_str(n, n->lgs[i].name), name) == 0;
    put_label(g->label, sizeof g->label, name, twin, "process", g->rank);
}

/* Without MPI, a CPU thread is named as the archive names it ("Master
 * thread"): "thread K" when it has no name, "NAME K" when another thread of
 * its process has the same (its process's locations are neighbours). */
static void name_thread(struct tf_otf2 *n, struct location *l)
{
    const char *name = tf_otf2_str(n, l->name);
    bool twin = !*name;
    size_t at = (size_t)(l - n->locs);
    for (size_t i = at; i-- > 0 && !twin && n->locs[i].group == l->group;)
        twin = n->locs[i].type != TF_OTF2_LOC_METRIC && strcmp(tf_otf2_str(n, n->locs[i].name), name) == 0;
    for (size_t i = at + 1; i < n->n_locs && !twin && n->locs[i].group == l->group; i++)
        twin = n->locs[i].type != TF_OTF2_LOC_METRIC && strcmp(tf_otf2_str(n, n->locs[i].name), name) == 0;
    put_label(l->tid_str, sizeof l->tid_str, name, twin, "thread", l->ordinal);
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
            snprintf(l->tid_str, sizeof l->tid_str, "stream %lld (%.60s)", l->ordinal, g->label);
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
    if (g && !n->mpi) { /* "Process / Master thread" */
        if (l->type == TF_OTF2_LOC_METRIC) {
            snprintf(l->label, sizeof l->label, "%s", g->label);
            return;
        }
        name_thread(n, l);
        snprintf(l->label, sizeof l->label, "%s / %s", g->label, l->tid_str);
        return;
    }
    if (g && g->n_threads > 1 && l->type != TF_OTF2_LOC_METRIC)
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
        size_t g = tf_otf2_map_get(&n->m_lg, n->locs[i].group);
        n->locs[i].group = g;
    }
    sort_ctx = n;
    qsort(n->locs, n->n_locs, sizeof *n->locs, cmp_loc);
    sort_ctx = NULL;
    long long device = 0;
    for (size_t i = 0; i < n->n_locs; i++) {
        struct location *l = &n->locs[i];
        if (!tf_otf2_map_put(&n->m_loc, l->ref, (uint32_t)i))
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
        if (g->type == TF_OTF2_LG_ACCELERATOR)
            snprintf(g->label, sizeof g->label, "GPU %lld", g->device);
        else if (n->mpi)
            snprintf(g->label, sizeof g->label, "rank %lld", g->rank);
        else if (!g->label[0])
            name_process(n, g);
    }
    /* A thread the definitions give no events (of a writer that counts
     * them) is no lane: a rank of one busy thread is "rank N". */
    for (size_t i = 0; i < n->n_locs; i++)
        if (n->locs[i].group < n->n_lgs && n->locs[i].n_events > 0)
            n->lgs[n->locs[i].group].counted = true;
    for (size_t i = 0; i < n->n_locs; i++) {
        const struct location *l = &n->locs[i];
        struct lgroup *g = l->group < n->n_lgs ? &n->lgs[l->group] : NULL;
        bool cpu = l->type != TF_OTF2_LOC_GPU && l->type != TF_OTF2_LOC_METRIC;
        if (g && g->type != TF_OTF2_LG_ACCELERATOR && cpu && (!g->counted || l->n_events > 0))
            g->n_threads++;
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

uint64_t tf_otf2_location_events(const struct tf_otf2 *n, uint64_t ref)
{
    size_t i = tf_otf2_map_get(&n->m_loc, ref);
    return i == SIZE_MAX ? 0 : n->locs[i].n_events;
}

const uint64_t *tf_otf2_selected(const struct tf_otf2 *n, size_t *count)
{
    *count = n->n_selected;
    return n->selected;
}

/* --- records -------------------------------------------------------------------- */

bool tf_otf2_emit(struct tf_otf2 *n, struct tf_tef_rec *r, struct tf_diag *d)
{
    r->idx = n->idx++;
    return tf_tef_emit(n->sink, n->pass, n->file, r, d);
}

static bool name_record(struct tf_otf2 *n, const char *what, const struct tf_id *pid,
                        const struct tf_id *tid, const char *name, struct tf_diag *d)
{
    struct tf_tef_rec r;
    if (!tf_tef_name_rec(&r, &n->args, what, pid, tid, name))
        return tf_diag_oom(d, n->file);
    return tf_otf2_emit(n, &r, d);
}

bool tf_otf2_begin(struct tf_otf2 *n, struct tf_diag *d)
{
    struct tf_tef_rec r;
    memset(&r, 0, sizeof r);
    r.kind = TF_TEF_HPC;
    r.name = "";
    if (!tf_otf2_emit(n, &r, d))
        return false;
    memset(&r, 0, sizeof r);
    r.kind = TF_TEF_ORIGIN; /* the global offset is time 0 */
    r.name = "";
    if (!tf_otf2_emit(n, &r, d))
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
        if ((l->pid.kind == TF_ID_STR || l->tid_str[0]) && l->lane) {
            if (!name_record(n, "thread_name", &l->pid, &l->tid, l->tid_str, d))
                return false;
        } else if (g && g->n_threads > 1 && l->lane) {
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

