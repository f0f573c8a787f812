/* rocpd_rows.c - a row of a rocpd source (rocpd_src.c) as the row of the
 * Nsight converter (nsys_rows.h): which lane (device, queue or stream),
 * which name and category, which correlation; see rocpd.h for what
 * becomes what.  The statement is stepped by rocpd.c; nothing here runs a
 * query.
 *
 * Names.  A kernel's name is kept once per kernel_id (load/idnames.h,
 * made valid UTF-8 then), so that rows of one kernel hand over one
 * address; other names are the row's text, checked by the converter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/rocpd_int.h"

#define sq tf_sq

/* Expression c of the row: false when not selected or NULL. */
static bool get(const struct rsrc *s, enum rcol c, int64_t *v)
{
    int i = s->pos[c];
    if (i < 0)
        return false;
    *v = sq.sqlite3_column_int64(s->st, i);
    return *v != 0 || sq.sqlite3_column_type(s->st, i) != SQLITE_NULL;
}

static const char *text(const struct rsrc *s, enum rcol c)
{
    int i = s->pos[c];
    if (i < 0 || sq.sqlite3_column_type(s->st, i) == SQLITE_NULL)
        return NULL;
    return (const char *)sq.sqlite3_column_text(s->st, i);
}

/* --- lanes ------------------------------------------------------------------------ */

/* Lane `key` labelled before its first row (a key no queue or stream of
 * the database names: "queue K", "stream K"). */
static bool labelled(struct rp *p, int64_t key, struct tf_diag *d)
{
    if (p->any_key && p->last_key == key)
        return true;
    bool known = false;
    for (size_t i = 0; i < p->n_keys && !known; i++)
        known = p->keys[i] == key;
    if (!known) {
        char label[48];
        if (key == RP_LANE_COPIES)
            snprintf(label, sizeof label, "copies");
        else if (key == RP_LANE_MEMORY)
            snprintf(label, sizeof label, "memory");
        else
            snprintf(label, sizeof label, "%s %lld", p->by_stream ? "stream" : "queue",
                     (long long)key);
        if (!tf_rocpd_label(p, key, label))
            return tf_diag_oom(d, p->file);
    }
    p->any_key = true;
    p->last_key = key;
    return true;
}

/* The row's device: an agent of rocpd_info_agent (its index; one the
 * table lacks is added as the row's view names it, by its type_index and
 * type in column ti and type), or the device number itself (rocprof v1);
 * -1: none known (*oom: out of memory). */
static int64_t device_of(struct rp *p, const struct rsrc *s, enum rcol c, enum rcol ti,
                         enum rcol type, int64_t nid, bool *oom)
{
    int64_t a, t;
    if (!get(s, c, &a))
        return -1;
    if (p->kind == TF_ROCPD_ROCPROF1)
        return a;
    int64_t dev = tf_rocpd_agent(p, nid, a);
    if (dev >= 0 || !get(s, ti, &t))
        return dev;
    const char *kind = text(s, type);
    dev = tf_rocpd_add_agent(p, nid, a, t, !kind || strcmp(kind, "CPU") != 0);
    *oom = *oom || dev < 0;
    return dev;
}

static bool is_gpu(const struct rp *p, int64_t dev)
{
    return p->kind == TF_ROCPD_ROCPROF1 ? dev >= 0
                                         : dev >= 0 && (size_t)dev < p->n_agents &&
                                               p->agents[dev].gpu;
}

/* --- names -------------------------------------------------------------------------- */

/* A kernel's name by its kernel_id: read (and made valid) once. */
static bool kernel_name(struct rp *p, const struct rsrc *s, int64_t id, const char **out,
                        struct tf_diag *d)
{
    struct tf_idname *slot = tf_idnames_slot(&p->names, id);
    if (!slot)
        return tf_diag_oom(d, p->file);
    if (slot->used) {
        *out = slot->s;
        return true;
    }
    const char *raw = text(s, RC_NAME);
    const char *c = raw ? tf_nsys_clean(&p->tmp, raw) : NULL;
    const char *keep = c ? tf_arena_strdup(&p->arena, c) : NULL;
    if (raw && !keep)
        return tf_diag_oom(d, p->file);
    tf_idnames_keep(&p->names, slot, id, keep);
    *out = keep;
    return true;
}

/* A category (or another of the few words rows are named with),
 * interned: its rows hand over one address, valid as long as the loader
 * (so that rows read on a second thread need no copy). */
static const char *intern(struct rp *p, const char *cat)
{
    if (!cat)
        return NULL;
    for (size_t i = 0; i < p->n_cats; i++)
        if (strcmp(p->cats[i], cat) == 0)
            return p->cats[i];
    const char *c = tf_nsys_clean(&p->tmp, cat);
    char *keep = c ? tf_arena_strdup(&p->arena, c) : NULL;
    if (!keep || !TF_GROW(p->cats, p->n_cats, p->cap_cats))
        return NULL;
    p->cats[p->n_cats++] = keep;
    return keep;
}

/* "HtoD" from a copy's name: rocprofv3's MEMORY_COPY_HOST_TO_DEVICE,
 * rocprof's CopyHostToDevice; another name lower-cased after its prefix. */
static void copy_kind(const char *name, char *out, size_t n)
{
    const char *s = name ? name : "";
    const char *sep = "_TO_";
    if (strncmp(s, "MEMORY_COPY_", 12) == 0) {
        s += 12;
    } else if (strncmp(s, "Copy", 4) == 0) {
        s += 4;
        sep = "To";
    }
    const char *to = strstr(s, sep);
    size_t k = 0;
    if (to && to > s && to[strlen(sep)]) {
        const char *ends[2] = {s, to + strlen(sep)};
        size_t lens[2] = {(size_t)(to - s), strlen(to + strlen(sep))};
        for (int e = 0; e < 2 && k + 3 < n; e++) {
            char c = ends[e][0];
            bool host = lens[e] == 4 && (strncmp(ends[e], "HOST", 4) == 0 ||
                                         strncmp(ends[e], "Host", 4) == 0);
            bool dev = lens[e] == 6 && (strncmp(ends[e], "DEVICE", 6) == 0 ||
                                        strncmp(ends[e], "Device", 6) == 0);
            out[k++] = host ? 'H' : dev ? 'D' : (c >= 'a' && c <= 'z' ? (char)(c - 32) : c);
            if (e == 0) {
                out[k++] = 't';
                out[k++] = 'o';
            }
        }
    } else {
        for (; *s && k + 1 < n; s++)
            out[k++] = *s == '_' ? ' ' : (*s >= 'A' && *s <= 'Z' ? (char)(*s + 32) : *s);
    }
    out[k] = '\0';
}

/* "Memory alloc", "Scratch free", "Virtual memory reclaim". */
static void alloc_name(const char *type, const char *level, char *out, size_t n)
{
    const char *lv = !level                       ? "Memory"
                     : strcmp(level, "SCRATCH") == 0 ? "Scratch"
                     : strcmp(level, "VIRTUAL") == 0 ? "Virtual memory"
                                                     : "Memory";
    char t[16];
    size_t k = 0;
    for (const char *c = type ? type : "ALLOC"; *c && k + 1 < sizeof t; c++)
        t[k++] = *c >= 'A' && *c <= 'Z' ? (char)(*c + 32) : *c;
    t[k] = '\0';
    snprintf(out, n, "%s %s", lv, t);
}

/* The agent an allocation was made on: its own, else that of the
 * allocation at its address. */
static int64_t alloc_device(struct rp *p, const struct rsrc *s, int64_t nid, bool *oom)
{
    int64_t dev = device_of(p, s, RC_AGENT, RC_TI, RC_ATYPE, nid, oom), addr;
    if (dev >= 0 || !get(s, RC_ADDR, &addr))
        return dev;
    for (size_t i = p->n_addrs; i-- > 0;)
        if (p->addrs[i].addr == addr && p->addrs[i].nid == nid)
            return p->addrs[i].agent;
    return -1;
}

/* --- rows ----------------------------------------------------------------------------- */

/* The row's correlation: rocprofiler numbers them from 1 (rocprof's
 * Index too); 0 is none. */
static bool correlation(const struct rsrc *s, int64_t *v)
{
    return get(s, RC_CORR, v) && *v > 0;
}

/* Whether a region of category cat named name, with the marker message
 * msg, is a roctx range (a user annotation) rather than an API call. */
static bool is_range(const char *cat, const char *name, const char *msg)
{
    return cat && strstr(cat, "MARKER") && msg && *msg && (!name || strcmp(name, msg) != 0);
}

static bool gpu_row(struct rp *p, struct rsrc *s, struct tf_nsys_row *r, int64_t nid,
                    struct tf_diag *d)
{
    int64_t queue = 0, stream = 0, key;
    bool has_queue = get(s, RC_QUEUE, &queue), has_stream = get(s, RC_STREAM, &stream);
    bool oom = false;
    r->stream = has_stream ? stream : queue;
    if (s->def->kind == RK_KERNEL) {
        r->table = TF_NSYS_KERNEL;
        r->device = device_of(p, s, RC_AGENT, RC_TI, RC_ATYPE, nid, &oom);
        key = p->by_stream ? r->stream : queue;
        int64_t id;
        if (get(s, RC_NAME_ID, &id)) {
            if (!kernel_name(p, s, id, &r->name, d))
                return false;
            r->clean_names = true;
        } else {
            r->name = text(s, RC_NAME);
        }
        r->has_grid = get(s, RC_GX, &r->grid[0]);
        if (r->has_grid) {
            get(s, RC_GY, &r->grid[1]);
            get(s, RC_GZ, &r->grid[2]);
            get(s, RC_BX, &r->block[0]);
            get(s, RC_BY, &r->block[1]);
            get(s, RC_BZ, &r->block[2]);
        }
    } else if (s->def->kind == RK_COPY) {
        const char *name = text(s, RC_NAME);
        r->table = name && strncmp(name, "Fill", 4) == 0 ? TF_NSYS_MEMSET : TF_NSYS_MEMCPY;
        int64_t dst = device_of(p, s, RC_AGENT, RC_TI, RC_ATYPE, nid, &oom);
        int64_t src = device_of(p, s, RC_AGENT2, RC_TI2, RC_ATYPE2, nid, &oom);
        r->device = is_gpu(p, dst) || !is_gpu(p, src) ? dst : src;
        key = p->by_stream ? r->stream : has_queue ? queue : RP_LANE_COPIES;
        char kind[64];
        copy_kind(name, kind, sizeof kind);
        if (r->table == TF_NSYS_MEMCPY && !(r->copy_kind = intern(p, kind)))
            return tf_diag_oom(d, p->file);
        if (p->kind == TF_ROCPD_V3 && src >= 0 && dst >= 0) {
            r->src_kind = p->agents[src].label;
            r->dst_kind = p->agents[dst].label;
        }
        r->has_bytes = get(s, RC_BYTES, &r->bytes);
    } else {
        r->table = TF_NSYS_MEMORY;
        r->device = alloc_device(p, s, nid, &oom);
        key = RP_LANE_MEMORY;
        char what[64];
        alloc_name(text(s, RC_TYPE), text(s, RC_LEVEL), what, sizeof what);
        if (!(r->name = intern(p, what)))
            return tf_diag_oom(d, p->file);
        r->clean_names = true;
        r->has_bytes = get(s, RC_BYTES, &r->bytes);
    }
    r->has_lane = true;
    r->lane = key;
    r->has_corr = correlation(s, &r->corr);
    return oom ? tf_diag_oom(d, p->file) : labelled(p, key, d);
}

bool tf_rocpd_fill(struct rp *p, struct rsrc *s, struct tf_nsys_row *r, bool *skip,
                   struct tf_diag *d)
{
    memset(r, 0, sizeof *r);
    *skip = false;
    r->start = s->cur;
    r->has_end = get(s, RC_END, &r->end);
    int64_t nid = 0, pid, tid = 0;
    get(s, RC_NID, &nid);
    if ((r->has_ids = get(s, RC_PID, &pid))) {
        get(s, RC_TID, &tid);
        r->pid = tf_rocpd_pid(p, nid, pid);
        r->tid = tid;
    }
    const char *name = text(s, RC_NAME), *msg = text(s, RC_MSG), *cat = text(s, RC_CAT);
    switch (s->def->kind) {
    case RK_KERNEL:
    case RK_COPY:
    case RK_ALLOC:
        return gpu_row(p, s, r, nid, d);
    case RK_REGION:
    case RK_CALL:
        if (is_range(cat, name, msg)) {
            r->table = TF_NSYS_NVTX;
            r->nvtx_type = TF_NSYS_NVTX_PUSHPOP;
            r->name = msg;
            r->cat = "user_annotation";
            return true;
        }
        r->table = TF_NSYS_RUNTIME;
        r->name = name;
        if (cat && !(r->cat = intern(p, cat)))
            return tf_diag_oom(d, p->file);
        r->has_corr = correlation(s, &r->corr);
        return true;
    case RK_MARK:
    case RK_RANGE:
        r->table = TF_NSYS_NVTX;
        /* rocprof v1 writes a mark as a range of 1 ns */
        bool mark = s->def->kind == RK_MARK || (r->has_end && r->end - r->start <= 1);
        r->nvtx_type = mark ? TF_NSYS_NVTX_MARK : TF_NSYS_NVTX_PUSHPOP;
        r->name = msg && *msg ? msg : name;
        r->cat = "user_annotation";
        return true;
    }
    *skip = true;
    return true;
}
