/* nsys_rows.c - export rows into trace records; see nsys_rows.h.
 *
 * IMPLEMENTATION NOTES
 *
 * Records are built in scratch buffers owned by the converter and handed
 * to the sink at once (the sink copies what it keeps).  The args object of
 * a record is JSON text written here, in the order the tooltip should show
 * its members (the mode shows the first four it knows: device, stream,
 * then grid and block or bytes).
 *
 * Flow ids are "PID:CORR" (or "CORR" when a table lacks the process), so
 * the correlation ids of two processes never pair.
 */
#include "load/nsys_rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/escape.h"
#include "base/utf8.h"

/* Times beyond this (ns) are not drawn: start + duration must not
 * overflow, and a figure of 126 years is no figure. */
#define MAX_NS 4000000000000000000LL

struct proc {
    int64_t pid;
    char *name;
};

struct thr {
    int64_t pid, tid;
    char *name;
};

struct gpu {
    int64_t id;
    char *name;
    char *label; /* of its lanes, or NULL: "GPU <id>" */
};

/* A lane key's label ("queue 0"), else "stream <key>". */
struct lane_label {
    int64_t key;
    char *label;
};

struct stream {
    int64_t device, stream, pid;
};

/* A GPU lane named so far (pid < 0: of no known process). */
struct lane {
    int64_t device, stream, pid;
    char pid_id[32], tid_id[64]; /* its ids as records give them */
    /* The args of its last row up to the block (gpu_args): a stream's rows
     * repeat their launch's shape. */
    struct tf_buf pre;
    bool pre_set, pre_grid;
    int64_t grid[3], block[3];
};

struct tf_nsys {
    const char *file;
    const struct tf_tef_sink *sink;
    int pass;
    struct proc *procs;
    size_t n_procs, cap_procs;
    struct thr *thrs;
    size_t n_thrs, cap_thrs;
    struct gpu *gpus;
    size_t n_gpus, cap_gpus;
    struct stream *streams;
    size_t n_streams, cap_streams;
    struct lane_label *labels;
    size_t n_labels, cap_labels;
    bool no_origin;          /* --from/--to count from the first drawable event */
    struct lane *lanes;
    size_t n_lanes, cap_lanes, last_lane;
    int64_t *named_gpus; /* devices whose process_name was sent */
    size_t n_named_gpus, cap_named_gpus;
    bool any_gpu_pid, multi; /* a process has GPU work; several have */
    int64_t gpu_pid;         /* the first */
    bool flow_pids;          /* flow ids carry the pid */
    size_t idx;
    size_t n_bad;
    struct tf_buf name, pid, tid, args, flow, clean1, clean2, tmp;
};

#define N_BUFS 8
static struct tf_buf *bufs(struct tf_nsys *n, size_t i)
{
    struct tf_buf *all[N_BUFS] = {&n->name, &n->pid, &n->tid, &n->args,
                                  &n->flow, &n->clean1, &n->clean2, &n->tmp};
    return all[i];
}

struct tf_nsys *tf_nsys_new(const char *file, const struct tf_tef_sink *sink)
{
    struct tf_nsys *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    n->file = file;
    n->sink = sink;
    n->pass = 1;
    for (size_t i = 0; i < N_BUFS; i++)
        tf_buf_init(bufs(n, i));
    return n;
}

void tf_nsys_free(struct tf_nsys *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->n_procs; i++)
        free(n->procs[i].name);
    for (size_t i = 0; i < n->n_thrs; i++)
        free(n->thrs[i].name);
    for (size_t i = 0; i < n->n_gpus; i++) {
        free(n->gpus[i].name);
        free(n->gpus[i].label);
    }
    for (size_t i = 0; i < n->n_labels; i++)
        free(n->labels[i].label);
    free(n->labels);
    free(n->procs);
    free(n->thrs);
    free(n->gpus);
    free(n->streams);
    for (size_t i = 0; i < n->n_lanes; i++)
        tf_buf_fini(&n->lanes[i].pre);
    free(n->lanes);
    free(n->named_gpus);
    for (size_t i = 0; i < N_BUFS; i++)
        tf_buf_fini(bufs(n, i));
    free(n);
}

/* --- text -------------------------------------------------------------------- */

const char *tf_nsys_clean(struct tf_buf *b, const char *s)
{
    if (!s)
        return NULL;
    const unsigned char *p = (const unsigned char *)s;
    bool ok = true;
    while (*p && ok) {
        if (*p < 0x80) {
            p++;
            continue;
        }
        size_t k = tf_utf8_seq_len(*p);
        ok = k > 0;
        for (size_t i = 1; ok && i < k; i++)
            ok = p[i] != 0;
        ok = ok && tf_utf8_decode(p, k) >= 0;
        p += ok ? k : 0;
    }
    if (ok)
        return s;
    tf_buf_clear(b);
    for (p = (const unsigned char *)s; *p;) {
        uint32_t cp;
        size_t k = tf_utf8_next(p, &cp);
        if (k == 1 && *p >= 0x80)
            tf_buf_puts(b, "\xEF\xBF\xBD"); /* U+FFFD */
        else
            tf_buf_putn(b, (const char *)p, k);
        p += k;
    }
    return b->oom ? NULL : (b->data ? b->data : "");
}

static char *clean_dup(struct tf_nsys *n, const char *s)
{
    const char *c = tf_nsys_clean(&n->tmp, s ? s : "");
    return c ? strdup(c) : NULL;
}

const char *tf_nsys_copy_kind(int64_t id)
{
    static const char *const kinds[] = {
        NULL,   "HtoD", "DtoH", "HtoA",     "AtoH",     "AtoA",    "AtoD",
        "DtoA", "DtoD", "HtoH", "PtoP",     "UVM HtoD", "UVM DtoH", "UVM DtoD",
    };
    return id >= 0 && id < (int64_t)(sizeof kinds / sizeof kinds[0]) ? kinds[id] : NULL;
}

const char *tf_nsys_mem_kind(int64_t id)
{
    static const char *const kinds[] = {
        "Pageable", "Pinned", "Device", "Array", "Managed", "Device Static", "Managed Static",
    };
    return id >= 0 && id < (int64_t)(sizeof kinds / sizeof kinds[0]) ? kinds[id] : NULL;
}

void tf_nsys_copy_kind_label(const char *enum_name, char *out, size_t n)
{
    if (n == 0)
        return;
    const char *s = enum_name ? enum_name : "";
    static const char prefix[] = "CUDA_MEMCPY_KIND_";
    if (strncmp(s, prefix, sizeof prefix - 1) == 0)
        s += sizeof prefix - 1;
    size_t k = 0;
    for (size_t i = 0; s[i] && k + 1 < n; i++) {
        char c = s[i];
        if (c == '_')
            c = ' ';
        else if (c == 'T' && s[i + 1] == 'O' && i > 0 && s[i - 1] != '_' && s[i + 2] &&
                 s[i + 2] != '_') {
            out[k++] = 't';
            if (k + 1 < n)
                out[k++] = 'o';
            i++;
            continue;
        }
        out[k++] = c;
    }
    out[k] = '\0';
}

void tf_nsys_call_name(const char *name, char *out, size_t n)
{
    if (n == 0)
        return;
    size_t len = strlen(name);
    size_t d = len;
    while (d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9')
        d--;
    if (len - d >= 4 && d >= 3 && name[d - 1] == 'v' && name[d - 2] == '_')
        len = d - 2;
    if (len >= n)
        len = n - 1;
    memcpy(out, name, len);
    out[len] = '\0';
}

/* --- what the export says about itself ------------------------------------ */

bool tf_nsys_add_process(struct tf_nsys *n, int64_t pid, const char *name)
{
    if (!TF_GROW(n->procs, n->n_procs, n->cap_procs))
        return false;
    /* A program's path is named after its file ("/opt/app/train" is
     * "train"); kernel threads such as "kworker/0:1" keep their slash. */
    const char *s = name ? name : "";
    if (s[0] == '/' || strncmp(s, "./", 2) == 0 || strncmp(s, "../", 3) == 0) {
        const char *slash = strrchr(s, '/');
        if (slash[1])
            s = slash + 1;
    }
    char *c = clean_dup(n, s);
    if (!c)
        return false;
    n->procs[n->n_procs++] = (struct proc){pid, c};
    return true;
}

static int64_t pid_of(int64_t gid)
{
    return (int64_t)(((uint64_t)gid >> 24) & 0xFFFFFFu);
}

static int64_t tid_of(int64_t gid)
{
    return (int64_t)((uint64_t)gid & 0xFFFFFFu);
}

bool tf_nsys_add_thread_ids(struct tf_nsys *n, int64_t pid, int64_t tid, const char *name)
{
    if (!TF_GROW(n->thrs, n->n_thrs, n->cap_thrs))
        return false;
    char *c = clean_dup(n, name);
    if (!c)
        return false;
    n->thrs[n->n_thrs++] = (struct thr){pid, tid, c};
    return true;
}

bool tf_nsys_add_thread(struct tf_nsys *n, int64_t global_tid, const char *name)
{
    return tf_nsys_add_thread_ids(n, pid_of(global_tid), tid_of(global_tid), name);
}

bool tf_nsys_add_gpu(struct tf_nsys *n, int64_t id, const char *name)
{
    for (size_t i = 0; i < n->n_gpus; i++)
        if (n->gpus[i].id == id)
            return true;
    if (!TF_GROW(n->gpus, n->n_gpus, n->cap_gpus))
        return false;
    char *c = name && *name ? clean_dup(n, name) : NULL;
    if (name && *name && !c)
        return false;
    n->gpus[n->n_gpus++] = (struct gpu){id, c, NULL};
    for (size_t i = 0; i < n->n_lanes; i++)
        n->lanes[i].pre_set = false; /* gpu_args names it from now on */
    return true;
}

bool tf_nsys_add_stream(struct tf_nsys *n, int64_t device, int64_t stream, int64_t pid)
{
    for (size_t i = 0; i < n->n_streams; i++)
        if (n->streams[i].device == device && n->streams[i].stream == stream &&
            n->streams[i].pid == pid)
            return true;
    if (!TF_GROW(n->streams, n->n_streams, n->cap_streams))
        return false;
    n->streams[n->n_streams++] = (struct stream){device, stream, pid};
    return true;
}

void tf_nsys_set_flow_pids(struct tf_nsys *n, bool on)
{
    n->flow_pids = on;
}

bool tf_nsys_label_gpu(struct tf_nsys *n, int64_t id, const char *label)
{
    if (!tf_nsys_add_gpu(n, id, NULL))
        return false;
    for (size_t i = 0; i < n->n_gpus; i++) {
        if (n->gpus[i].id != id)
            continue;
        char *c = clean_dup(n, label);
        if (!c)
            return false;
        free(n->gpus[i].label);
        n->gpus[i].label = c;
    }
    return true;
}

bool tf_nsys_label_lane(struct tf_nsys *n, int64_t key, const char *label)
{
    char *c = clean_dup(n, label);
    if (!c)
        return false;
    for (size_t i = 0; i < n->n_labels; i++)
        if (n->labels[i].key == key) {
            free(n->labels[i].label);
            n->labels[i].label = c;
            return true;
        }
    if (!TF_GROW(n->labels, n->n_labels, n->cap_labels)) {
        free(c);
        return false;
    }
    n->labels[n->n_labels++] = (struct lane_label){key, c};
    return true;
}

void tf_nsys_set_origin(struct tf_nsys *n, bool at_zero)
{
    n->no_origin = !at_zero;
}

/* --- records ------------------------------------------------------------------ */

/* Hands a record to the sink of the pass; the sink's errors name the file. */
static bool emit(struct tf_nsys *n, struct tf_tef_rec *r, struct tf_diag *d)
{
    r->idx = n->idx++;
    return tf_tef_emit(n->sink, n->pass, n->file, r, d);
}

/* A name record: process_name or thread_name {"name": name}. */
static bool name_record(struct tf_nsys *n, const char *what, const struct tf_id *pid,
                        const struct tf_id *tid, const char *name, struct tf_diag *d)
{
    struct tf_tef_rec r;
    if (!tf_tef_name_rec(&r, &n->args, what, pid, tid, name))
        return tf_diag_oom(d, n->file);
    return emit(n, &r, d);
}

/* A pid as the system gave it, for a lane's name: its low 32 bits.  A
 * loader may tag a pid above them to keep apart the processes of one pid
 * on two machines (load/rocpd.h), and the lane's id keeps the tag; an
 * export's pids have 24 bits. */
static int64_t os_pid(int64_t pid)
{
    return pid & INT64_C(0xFFFFFFFF);
}

/* The labels given to device id and lane key (NULL: none). */
static const char *gpu_label(const struct tf_nsys *n, int64_t device)
{
    for (size_t i = 0; i < n->n_gpus; i++)
        if (n->gpus[i].id == device)
            return n->gpus[i].label;
    return NULL;
}

static const char *lane_label(const struct tf_nsys *n, int64_t key)
{
    for (size_t i = 0; i < n->n_labels; i++)
        if (n->labels[i].key == key)
            return n->labels[i].label;
    return NULL;
}

/* A lane's own name: its label, else "stream s". */
static void put_lane_label(const struct tf_nsys *n, struct tf_buf *b, int64_t key)
{
    const char *l = lane_label(n, key);
    if (l)
        tf_buf_puts(b, l);
    else
        tf_buf_printf(b, "stream %lld", (long long)key);
}

/* The ids of a GPU lane: pid "GPU d", tid "stream s (pid p)" (without
 * the pid when the row has none), in n->pid and n->tid; the labels given
 * to the device and the lane instead, when given. */
static void gpu_lane(struct tf_nsys *n, int64_t device, int64_t stream, int64_t pid,
                     struct tf_id *p, struct tf_id *t)
{
    tf_buf_clear(&n->pid);
    const char *dl = gpu_label(n, device);
    if (dl)
        tf_buf_puts(&n->pid, dl);
    else
        tf_buf_printf(&n->pid, "GPU %lld", (long long)device);
    tf_buf_clear(&n->tid);
    put_lane_label(n, &n->tid, stream);
    if (pid >= 0)
        tf_buf_printf(&n->tid, " (pid %lld)", (long long)pid);
    *p = (struct tf_id){.kind = TF_ID_STR, .str = n->pid.data ? n->pid.data : ""};
    *t = (struct tf_id){.kind = TF_ID_STR, .str = n->tid.data ? n->tid.data : ""};
}

/* The name of a GPU lane: "stream s", with the pid once several processes
 * have GPU work. */
static bool send_lane_name(struct tf_nsys *n, const struct lane *ln, struct tf_diag *d)
{
    struct tf_id p, t;
    gpu_lane(n, ln->device, ln->stream, ln->pid, &p, &t);
    tf_buf_clear(&n->name);
    put_lane_label(n, &n->name, ln->stream);
    if (n->multi && ln->pid >= 0)
        tf_buf_printf(&n->name, " (pid %lld)", (long long)os_pid(ln->pid));
    if (n->pid.oom || n->tid.oom || n->name.oom)
        return tf_diag_oom(d, n->file);
    return name_record(n, "thread_name", &p, &t, n->name.data, d);
}

/* A process with GPU work (listed, or drawn); the second one renames the
 * lanes named so far. */
static bool gpu_process(struct tf_nsys *n, int64_t pid, struct tf_diag *d)
{
    if (pid < 0 || (n->any_gpu_pid && (n->multi || pid == n->gpu_pid)))
        return true;
    if (!n->any_gpu_pid) {
        n->any_gpu_pid = true;
        n->gpu_pid = pid;
        return true;
    }
    n->multi = true;
    for (size_t i = 0; i < n->n_lanes; i++)
        if (!send_lane_name(n, &n->lanes[i], d))
            return false;
    return true;
}

/* Names the lane (and its device) the first time it is seen. */
static bool name_lane(struct tf_nsys *n, int64_t device, int64_t stream, int64_t pid,
                      struct tf_diag *d)
{
    if (n->n_lanes) {
        const struct lane *l = &n->lanes[n->last_lane];
        if (l->device == device && l->stream == stream && l->pid == pid)
            return true;
        for (size_t i = 0; i < n->n_lanes; i++) {
            l = &n->lanes[i];
            if (l->device == device && l->stream == stream && l->pid == pid) {
                n->last_lane = i;
                return true;
            }
        }
    }
    bool named = false;
    for (size_t i = 0; i < n->n_named_gpus && !named; i++)
        named = n->named_gpus[i] == device;
    if (!named) {
        if (!TF_GROW(n->named_gpus, n->n_named_gpus, n->cap_named_gpus))
            return tf_diag_oom(d, n->file);
        n->named_gpus[n->n_named_gpus++] = device;
        struct tf_id p, t;
        gpu_lane(n, device, 0, -1, &p, &t);
        if (!name_record(n, "process_name", &p, NULL, p.str, d))
            return false;
    }
    if (!TF_GROW(n->lanes, n->n_lanes, n->cap_lanes))
        return tf_diag_oom(d, n->file);
    struct lane *ln = &n->lanes[n->n_lanes];
    *ln = (struct lane){.device = device, .stream = stream, .pid = pid};
    tf_buf_init(&ln->pre);
    struct tf_id p, t;
    gpu_lane(n, device, stream, pid, &p, &t);
    snprintf(ln->pid_id, sizeof ln->pid_id, "%s", p.str);
    snprintf(ln->tid_id, sizeof ln->tid_id, "%s", t.str);
    n->last_lane = n->n_lanes++;
    return send_lane_name(n, ln, d);
}

/* The lanes the export lists (streams of every device when it does not
 * say which), and the devices without a listed stream. */
static bool gpu_names(struct tf_nsys *n, struct tf_diag *d)
{
    for (size_t s = 0; s < n->n_streams; s++)
        if (!gpu_process(n, n->streams[s].pid, d))
            return false;
    for (size_t s = 0; s < n->n_streams; s++) {
        const struct stream *st = &n->streams[s];
        size_t n_dev = st->device >= 0 ? 1 : n->n_gpus;
        for (size_t g = 0; g < n_dev; g++)
            if (!name_lane(n, st->device >= 0 ? st->device : n->gpus[g].id, st->stream, st->pid,
                           d))
                return false;
    }
    for (size_t g = 0; g < n->n_gpus; g++) {
        bool named = false;
        for (size_t i = 0; i < n->n_named_gpus && !named; i++)
            named = n->named_gpus[i] == n->gpus[g].id;
        if (named)
            continue;
        if (!TF_GROW(n->named_gpus, n->n_named_gpus, n->cap_named_gpus))
            return tf_diag_oom(d, n->file);
        n->named_gpus[n->n_named_gpus++] = n->gpus[g].id;
        struct tf_id p, t;
        gpu_lane(n, n->gpus[g].id, 0, -1, &p, &t);
        if (!name_record(n, "process_name", &p, NULL, p.str, d))
            return false;
    }
    return true;
}

bool tf_nsys_begin(struct tf_nsys *n, struct tf_diag *d)
{
    for (size_t i = 0; i < n->n_procs; i++) {
        struct tf_id p = {.kind = TF_ID_NUM, .num = n->procs[i].pid};
        if (!name_record(n, "process_name", &p, NULL, n->procs[i].name, d))
            return false;
    }
    /* Threads: a name several threads of one process share gets the tid,
     * except on the main thread (tid == pid). */
    for (size_t i = 0; i < n->n_thrs; i++) {
        const struct thr *t = &n->thrs[i];
        int64_t pid = t->pid, tid = t->tid;
        bool shared = false;
        for (size_t k = 0; k < n->n_thrs && !shared && tid != pid; k++)
            shared = k != i && n->thrs[k].pid == pid && n->thrs[k].tid != tid &&
                     strcmp(n->thrs[k].name, t->name) == 0;
        tf_buf_clear(&n->name);
        tf_buf_puts(&n->name, t->name);
        if (shared)
            tf_buf_printf(&n->name, " [%lld]", (long long)tid);
        if (n->name.oom)
            return tf_diag_oom(d, n->file);
        struct tf_id p = {.kind = TF_ID_NUM, .num = pid}, th = {.kind = TF_ID_NUM, .num = tid};
        if (!name_record(n, "thread_name", &p, &th, n->name.data, d))
            return false;
    }
    if (!gpu_names(n, d))
        return false;
    if (n->no_origin)
        return true;
    /* The session's start is time 0 of an export. */
    struct tf_tef_rec r;
    memset(&r, 0, sizeof r);
    r.kind = TF_TEF_ORIGIN;
    r.name = "";
    return emit(n, &r, d);
}

static const char *gpu_name(const struct tf_nsys *n, int64_t device)
{
    for (size_t i = 0; i < n->n_gpus; i++)
        if (n->gpus[i].id == device)
            return n->gpus[i].name;
    return NULL;
}

/* An integer in decimal (every GPU row has several: no printf). */
static void put_int(struct tf_buf *b, int64_t v)
{
    char s[24];
    size_t k = sizeof s;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do {
        s[--k] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        s[--k] = '-';
    tf_buf_putn(b, s + k, sizeof s - k);
}

/* Whether the lane's args prefix was written for this row's grid and
 * block. */
static bool same_prefix(const struct lane *ln, const struct tf_nsys_row *r)
{
    if (!ln->pre_set || ln->pre_grid != r->has_grid)
        return false;
    for (int i = 0; r->has_grid && i < 3; i++)
        if (ln->grid[i] != r->grid[i] || ln->block[i] != r->block[i])
            return false;
    return true;
}

/* The args of a GPU row of lane ln: device, stream, then grid and block
 * (kernels) or bytes, then correlation. */
static void gpu_args(struct tf_nsys *n, struct lane *ln, const struct tf_nsys_row *r)
{
    struct tf_buf *a = &n->args, *pre = &ln->pre;
    if (!same_prefix(ln, r)) {
        tf_buf_clear(pre);
        tf_buf_puts(pre, "{\"device\":");
        const char *dev = gpu_name(n, r->device);
        if (dev)
            tf_buf_json_str(pre, dev);
        else
            put_int(pre, r->device);
        tf_buf_puts(pre, ",\"stream\":");
        put_int(pre, r->stream);
        ln->pre_grid = r->has_grid;
        if (r->has_grid) {
            const int64_t *v[2] = {r->grid, r->block};
            for (int k = 0; k < 2; k++) {
                tf_buf_puts(pre, k ? ",\"block\":\"" : ",\"grid\":\"");
                for (int i = 0; i < 3; i++) {
                    if (i)
                        tf_buf_putc(pre, 'x');
                    put_int(pre, v[k][i]);
                }
                tf_buf_putc(pre, '"');
            }
            memcpy(ln->grid, r->grid, sizeof ln->grid);
            memcpy(ln->block, r->block, sizeof ln->block);
        }
        ln->pre_set = !pre->oom;
    }
    tf_buf_clear(a);
    tf_buf_putn(a, pre->data ? pre->data : "", pre->len);
    a->oom = a->oom || pre->oom;
    if (r->has_bytes) {
        tf_buf_puts(a, ",\"bytes\":");
        put_int(a, r->bytes);
    }
    if (r->has_corr) {
        tf_buf_puts(a, ",\"correlation\":");
        put_int(a, r->corr);
    }
    tf_buf_putc(a, '}');
}

/* The args of a device's memory row: device, bytes. */
static void memory_args(struct tf_nsys *n, const struct tf_nsys_row *r)
{
    struct tf_buf *a = &n->args;
    tf_buf_clear(a);
    tf_buf_puts(a, "{\"device\":");
    const char *dev = gpu_name(n, r->device);
    if (dev)
        tf_buf_json_str(a, dev);
    else
        put_int(a, r->device);
    if (r->has_bytes) {
        tf_buf_puts(a, ",\"bytes\":");
        put_int(a, r->bytes);
    }
    tf_buf_putc(a, '}');
}

/* One end of a runtime -> GPU flow. */
static bool flow(struct tf_nsys *n, const struct tf_tef_rec *slice, const struct tf_nsys_row *r,
                 int64_t pid, char ph, struct tf_diag *d)
{
    tf_buf_clear(&n->flow);
    if (n->flow_pids) {
        put_int(&n->flow, pid);
        tf_buf_putc(&n->flow, ':');
    }
    put_int(&n->flow, r->corr);
    if (n->flow.oom)
        return tf_diag_oom(d, n->file);
    struct tf_tef_rec f;
    memset(&f, 0, sizeof f);
    f.kind = TF_TEF_FLOW;
    f.ph = ph;
    f.pid = slice->pid;
    f.tid = slice->tid;
    f.name = "";
    f.cat = "";
    f.ts = slice->ts;
    f.id = n->flow.data;
    f.bp = ph == 'f' ? 'e' : 0;
    return emit(n, &f, d);
}

/* A row for an index that needs only where the time lies (no names: no
 * --window-event, no statistics of the whole trace). */
static bool times_only(struct tf_nsys *n, const struct tf_nsys_row *row, struct tf_tef_rec *r,
                       struct tf_diag *d)
{
    r->name = r->cat = "";
    if (row->table == TF_NSYS_NVTX) {
        int64_t t = row->nvtx_type;
        if (t == TF_NSYS_NVTX_MARK || t == TF_NSYS_NVTXT_MARK) {
            r->kind = TF_TEF_INSTANT;
            r->ph = 'i';
            r->scope = 't';
            r->dur = 0;
            r->has_dur = r->open_end = false;
        } else if (t != TF_NSYS_NVTX_PUSHPOP && t != TF_NSYS_NVTX_STARTEND &&
                   t != TF_NSYS_NVTXT_PUSHPOP && t != TF_NSYS_NVTXT_STARTEND) {
            return true;
        }
    }
    return emit(n, r, d);
}

static bool time_ok(int64_t t)
{
    return t >= -MAX_NS && t <= MAX_NS;
}

bool tf_nsys_row(struct tf_nsys *n, const struct tf_nsys_row *row, struct tf_diag *d)
{
    if (!time_ok(row->start) || (row->has_end && !time_ok(row->end))) {
        n->n_bad++;
        return true;
    }
    struct tf_tef_rec r;
    memset(&r, 0, sizeof r);
    r.kind = TF_TEF_SLICE;
    r.ph = 'X';
    r.ts = row->start;
    r.has_dur = row->has_end;
    r.dur = row->has_end && row->end > row->start ? row->end - row->start : 0;
    r.open_end = !row->has_end;
    if (n->pass == 1 && !n->sink->index_name && !n->sink->args_pass1)
        return times_only(n, row, &r, d);
    bool gpu = row->table == TF_NSYS_KERNEL || row->table == TF_NSYS_MEMCPY ||
               row->table == TF_NSYS_MEMSET;
    bool ids = row->has_ids || row->has_gid;
    int64_t pid = row->has_ids ? row->pid : row->has_gid ? pid_of(row->gid) : 0;
    if (gpu || row->table == TF_NSYS_MEMORY) {
        int64_t gpid = ids ? pid : -1;
        /* Whether lanes need the pid: the listed streams, and what is
         * drawn (not what pass 1 saw, which depends on the options). */
        if ((n->pass == 2 && !gpu_process(n, gpid, d)) ||
            !name_lane(n, row->device, row->has_lane ? row->lane : row->stream, gpid, d))
            return false;
        /* name_lane left the row's lane in last_lane */
        struct lane *ln = &n->lanes[n->last_lane];
        r.pid = (struct tf_id){.kind = TF_ID_STR, .str = ln->pid_id};
        r.tid = (struct tf_id){.kind = TF_ID_STR, .str = ln->tid_id};
        if (!gpu) {
            memory_args(n, row);
        } else if (!row->no_args) {
            gpu_args(n, ln, row);
        }
        if (!gpu || !row->no_args) {
            r.args = (const unsigned char *)n->args.data;
            r.args_len = n->args.len;
        }
        /* args.stream as read back from the args: a number there, exact
         * below 2^53 (no GPU work: none) */
        r.has_stream = gpu && row->stream > -(INT64_C(1) << 53) && row->stream < INT64_C(1) << 53;
        r.stream = row->stream;
        if (n->args.oom)
            return tf_diag_oom(d, n->file);
    } else {
        r.pid = (struct tf_id){.kind = TF_ID_NUM, .num = pid};
        r.tid = (struct tf_id){.kind = TF_ID_NUM,
                               .num = row->has_ids ? row->tid : row->has_gid ? tid_of(row->gid) : 0};
    }
    const char *name = row->clean_names ? row->name : tf_nsys_clean(&n->clean1, row->name);
    char call[512];
    struct tf_buf *nb = &n->name;
    tf_buf_clear(nb);
    switch (row->table) {
    case TF_NSYS_KERNEL: {
        const char *shortn =
            row->clean_names ? row->short_name : tf_nsys_clean(&n->clean2, row->short_name);
        r.cat = "kernel";
        /* The index knows a kernel by its short name when that is the one
         * asked for (--window-event). */
        if (n->pass == 1 && shortn && n->sink->index_name &&
            strcmp(shortn, n->sink->index_name) == 0)
            name = shortn;
        r.name = name && *name ? name : shortn && *shortn ? shortn : "(unnamed kernel)";
        break;
    }
    case TF_NSYS_MEMCPY:
        r.cat = "gpu_memcpy";
        tf_buf_puts(nb, "Memcpy");
        if (row->copy_kind)
            tf_buf_printf(nb, " %s", row->copy_kind);
        if (row->src_kind && row->dst_kind)
            tf_buf_printf(nb, " (%s -> %s)", row->src_kind, row->dst_kind);
        r.name = tf_nsys_clean(&n->clean2, nb->data);
        break;
    case TF_NSYS_MEMSET:
        r.cat = "gpu_memset";
        tf_buf_puts(nb, "Memset");
        if (row->mem_kind)
            tf_buf_printf(nb, " (%s)", row->mem_kind);
        r.name = tf_nsys_clean(&n->clean2, nb->data);
        break;
    case TF_NSYS_MEMORY:
        r.cat = row->cat ? row->cat : "gpu_memory";
        r.name = name && *name ? name : "(memory)";
        break;
    case TF_NSYS_RUNTIME:
    case TF_NSYS_OSRT:
        r.cat = row->cat ? row->cat : row->table == TF_NSYS_RUNTIME ? "cuda_runtime" : "osrt";
        if (row->table == TF_NSYS_RUNTIME && name)
            tf_nsys_call_name(name, call, sizeof call);
        else
            snprintf(call, sizeof call, "%s", name ? name : "");
        r.name = *call ? call : "(unnamed call)";
        if (row->table == TF_NSYS_RUNTIME && row->has_corr) {
            tf_buf_clear(&n->args);
            tf_buf_puts(&n->args, "{\"correlation\":");
            put_int(&n->args, row->corr);
            tf_buf_puts(&n->args, row->event_class == 1 ? ",\"api\":\"driver\"}" : "}");
            r.args = (const unsigned char *)n->args.data;
            r.args_len = n->args.len;
        }
        break;
    case TF_NSYS_NVTX:
        r.cat = row->cat ? row->cat : "nvtx";
        r.name = name ? name : "";
        if (row->nvtx_type == TF_NSYS_NVTX_MARK || row->nvtx_type == TF_NSYS_NVTXT_MARK) {
            r.kind = TF_TEF_INSTANT;
            r.ph = 'i';
            r.scope = 't';
            r.dur = 0;
            r.has_dur = false;
            r.open_end = false;
        } else if (row->nvtx_type != TF_NSYS_NVTX_PUSHPOP &&
                   row->nvtx_type != TF_NSYS_NVTX_STARTEND &&
                   row->nvtx_type != TF_NSYS_NVTXT_PUSHPOP &&
                   row->nvtx_type != TF_NSYS_NVTXT_STARTEND) {
            return true; /* domain and category names, thread names, ... */
        }
        r.has_rgb = row->has_color;
        r.rgb = row->color & 0xFFFFFFu;
        break;
    default:
        return true;
    }
    if (!r.name || nb->oom || n->args.oom)
        return tf_diag_oom(d, n->file);
    if (!emit(n, &r, d))
        return false;
    if (n->pass == 2 && n->sink->flows && row->has_corr && (gpu || row->table == TF_NSYS_RUNTIME))
        return flow(n, &r, row, pid, gpu ? 'f' : 's', d);
    return true;
}

bool tf_nsys_window(struct tf_nsys *n, int64_t *lo, int64_t *hi, struct tf_diag *d)
{
    *lo = INT64_MIN;
    *hi = INT64_MAX;
    if (n->sink->window && !n->sink->window(n->sink->ctx, lo, hi, d)) {
        tf_diag_prefix(d, n->file);
        return false;
    }
    n->pass = 2;
    return true;
}

bool tf_nsys_finish(struct tf_nsys *n, struct tf_diag *d)
{
    if (n->sink->finish && !n->sink->finish(n->sink->ctx, d)) {
        tf_diag_prefix(d, n->file);
        return false;
    }
    if (n->n_bad)
        tf_diag_warn(d, "%s: %zu row%s with times beyond 4e18 ns; not drawn", n->file, n->n_bad,
                     n->n_bad == 1 ? "" : "s");
    return true;
}
