/* Nsight Systems rows into trace records (load/nsys_rows.h): names, lanes,
 * categories, args, flows, what is dropped; through a sink that records
 * what it is given. */
#include "harness.h"
#include "support.h"

#include <stdlib.h>

#include "base/diag.h"
#include "load/nsys_rows.h"

TF_TEST(nsys_call_names_lose_the_version_suffix)
{
    char out[64];
    static const char *const cases[][2] = {
        {"cudaLaunchKernel_v7000", "cudaLaunchKernel"},
        {"cudaGetDeviceProperties_v2_v12000", "cudaGetDeviceProperties_v2"},
        {"cudaStreamIsCapturing_v10000", "cudaStreamIsCapturing"},
        {"cuGetProcAddress_v2", "cuGetProcAddress_v2"}, /* a real API name */
        {"cuMemAlloc_v123", "cuMemAlloc_v123"},
        {"_v1234", "_v1234"},
        {"pthread_cond_wait", "pthread_cond_wait"},
        {"", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tf_nsys_call_name(cases[i][0], out, sizeof out);
        TF_CHECK_STR(out, cases[i][1]);
    }
}

TF_TEST(nsys_enum_labels)
{
    char out[32];
    static const char *const cases[][2] = {
        {"CUDA_MEMCPY_KIND_HTOD", "HtoD"}, {"CUDA_MEMCPY_KIND_DTOH", "DtoH"},
        {"CUDA_MEMCPY_KIND_PTOP", "PtoP"}, {"CUDA_MEMCPY_KIND_UVM_DTOD", "UVM DtoD"},
        {"HTOA", "HtoA"},                  {"CUDA_MEMCPY_KIND_UNKNOWN", "UNKNOWN"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tf_nsys_copy_kind_label(cases[i][0], out, sizeof out);
        TF_CHECK_STR(out, cases[i][1]);
    }
    TF_CHECK_STR(tf_nsys_copy_kind(1), "HtoD");
    TF_CHECK_STR(tf_nsys_copy_kind(8), "DtoD");
    TF_CHECK(tf_nsys_copy_kind(0) == NULL && tf_nsys_copy_kind(99) == NULL);
    TF_CHECK_STR(tf_nsys_mem_kind(1), "Pinned");
    TF_CHECK_STR(tf_nsys_mem_kind(2), "Device");
    TF_CHECK(tf_nsys_mem_kind(-1) == NULL && tf_nsys_mem_kind(7) == NULL);
}

/* --- a sink that keeps copies of what it gets ------------------------------ */

struct got {
    enum tf_tef_kind kind;
    int pass;
    char ph, bp;
    char pid[64], tid[64], name[256], cat[32], args[512], id[32];
    int64_t ts, dur;
    bool open_end, has_rgb;
    uint32_t rgb;
};

struct rec {
    struct got g[64];
    int n;
    int pass;
};

static void id_text(const struct tf_id *id, char *out, size_t n)
{
    if (id->kind == TF_ID_NUM)
        snprintf(out, n, "%lld", id->num);
    else if (id->kind == TF_ID_STR)
        snprintf(out, n, "%s", id->str);
    else
        snprintf(out, n, "-");
}

static bool keep(void *ctx, const struct tf_tef_rec *r, struct tf_diag *d)
{
    (void)d;
    struct rec *k = ctx;
    if (k->n == 64)
        return true;
    struct got *g = &k->g[k->n++];
    memset(g, 0, sizeof *g);
    g->kind = r->kind;
    g->pass = k->pass;
    g->ph = r->ph;
    g->bp = r->bp;
    id_text(&r->pid, g->pid, sizeof g->pid);
    id_text(&r->tid, g->tid, sizeof g->tid);
    snprintf(g->name, sizeof g->name, "%s", r->name ? r->name : "(null)");
    snprintf(g->cat, sizeof g->cat, "%s", r->cat ? r->cat : "");
    if (r->args)
        snprintf(g->args, sizeof g->args, "%.*s", (int)r->args_len, (const char *)r->args);
    snprintf(g->id, sizeof g->id, "%s", r->id ? r->id : "");
    g->ts = r->ts;
    g->dur = r->dur;
    g->open_end = r->open_end;
    g->has_rgb = r->has_rgb;
    g->rgb = r->rgb;
    return true;
}

static bool window(void *ctx, int64_t *lo, int64_t *hi, struct tf_diag *d)
{
    (void)d;
    ((struct rec *)ctx)->pass = 2;
    *lo = 0;
    *hi = 1000000;
    return true;
}

static const struct got *find(const struct rec *k, enum tf_tef_kind kind, const char *name, int pass)
{
    for (int i = 0; i < k->n; i++)
        if (k->g[i].kind == kind && strcmp(k->g[i].name, name) == 0 && k->g[i].pass == pass)
            return &k->g[i];
    return NULL;
}

static int64_t gtid(int64_t pid, int64_t tid)
{
    return (int64_t)(1ULL << 48 | (uint64_t)pid << 24 | (uint64_t)tid);
}

/* A converter over the recording sink, with a process of two threads
 * named alike, a GPU and a listed stream. */
static struct tf_nsys *setup(struct rec *k, struct tf_tef_sink *s, struct tf_diag *d)
{
    memset(k, 0, sizeof *k);
    k->pass = 1;
    memset(s, 0, sizeof *s);
    s->index = s->collect = keep;
    s->window = window;
    s->ctx = k;
    s->flows = true; /* as with --flows: the launch -> kernel links too */
    tf_diag_init(d);
    d->quiet = true;
    struct tf_nsys *n = tf_nsys_new("t.sqlite", s);
    TF_CHECK(n != NULL);
    TF_CHECK(tf_nsys_add_process(n, 42, "/opt/app/train"));
    TF_CHECK(tf_nsys_add_process(n, 7, "kworker/0:1"));
    TF_CHECK(tf_nsys_add_thread(n, gtid(42, 42), "train"));
    TF_CHECK(tf_nsys_add_thread(n, gtid(42, 50), "worker"));
    TF_CHECK(tf_nsys_add_thread(n, gtid(42, 51), "worker"));
    TF_CHECK(tf_nsys_add_gpu(n, 0, "NVIDIA \"H100\""));
    TF_CHECK(tf_nsys_add_stream(n, 0, 7, 42));
    tf_nsys_set_flow_pids(n, true);
    TF_CHECK(tf_nsys_begin(n, d));
    return n;
}

static const struct got *meta(const struct rec *k, const char *what, const char *pid,
                              const char *tid)
{
    for (int i = 0; i < k->n; i++) {
        const struct got *g = &k->g[i];
        if (g->kind == TF_TEF_META && strcmp(g->name, what) == 0 && strcmp(g->pid, pid) == 0 &&
            (!tid || strcmp(g->tid, tid) == 0))
            return g;
    }
    return NULL;
}

TF_TEST(nsys_names_of_processes_threads_and_gpus)
{
    struct rec k;
    struct tf_tef_sink s;
    struct tf_diag d;
    struct tf_nsys *n = setup(&k, &s, &d);
    const struct got *g = meta(&k, "process_name", "42", NULL);
    TF_CHECK(g && strcmp(g->args, "{\"name\":\"train\"}") == 0); /* the path's file */
    g = meta(&k, "process_name", "7", NULL);
    TF_CHECK(g && strcmp(g->args, "{\"name\":\"kworker/0:1\"}") == 0);
    g = meta(&k, "thread_name", "42", "42");
    TF_CHECK(g && strcmp(g->args, "{\"name\":\"train\"}") == 0);
    g = meta(&k, "thread_name", "42", "50");
    TF_CHECK(g && strcmp(g->args, "{\"name\":\"worker [50]\"}") == 0);
    g = meta(&k, "process_name", "GPU 0", NULL);
    TF_CHECK(g && strcmp(g->args, "{\"name\":\"GPU 0\"}") == 0);
    g = meta(&k, "thread_name", "GPU 0", "stream 7 (pid 42)");
    TF_CHECK(g && strcmp(g->args, "{\"name\":\"stream 7\"}") == 0);
    TF_CHECK(k.g[k.n - 1].kind == TF_TEF_ORIGIN && k.g[k.n - 1].ts == 0);
    tf_nsys_free(n);
}

TF_TEST(nsys_rows_become_records)
{
    struct rec k;
    struct tf_tef_sink s;
    struct tf_diag d;
    struct tf_nsys *n = setup(&k, &s, &d);
    s.index_name = "step"; /* pass 1 keeps names */
    int64_t lo, hi;
    TF_CHECK(tf_nsys_window(n, &lo, &hi, &d));
    struct tf_nsys_row r;
    memset(&r, 0, sizeof r);
    r.table = TF_NSYS_KERNEL;
    r.start = 1000;
    r.end = 3000;
    r.has_end = r.has_gid = r.has_corr = r.has_grid = true;
    r.gid = gtid(42, 0);
    r.stream = 7;
    r.corr = 5;
    r.name = "void ns::k<int>(int)";
    r.short_name = "k";
    for (int i = 0; i < 3; i++)
        r.grid[i] = r.block[i] = i + 1;
    TF_CHECK(tf_nsys_row(n, &r, &d));
    const struct got *g = find(&k, TF_TEF_SLICE, "void ns::k<int>(int)", 2);
    TF_CHECK(g && strcmp(g->cat, "kernel") == 0 && strcmp(g->pid, "GPU 0") == 0 &&
             strcmp(g->tid, "stream 7 (pid 42)") == 0 && g->ts == 1000 && g->dur == 2000);
    TF_CHECK(g && strcmp(g->args, "{\"device\":\"NVIDIA \\\"H100\\\"\",\"stream\":7,"
                                  "\"grid\":\"1x2x3\",\"block\":\"1x2x3\",\"correlation\":5}") == 0);
    g = find(&k, TF_TEF_FLOW, "", 2);
    TF_CHECK(g && g->ph == 'f' && g->bp == 'e' && strcmp(g->id, "42:5") == 0 && g->ts == 1000);

    memset(&r, 0, sizeof r);
    r.table = TF_NSYS_RUNTIME;
    r.start = 500;
    r.end = 900;
    r.has_end = r.has_gid = r.has_corr = true;
    r.gid = gtid(42, 50);
    r.corr = 5;
    r.name = "cudaLaunchKernel_v7000";
    TF_CHECK(tf_nsys_row(n, &r, &d));
    g = find(&k, TF_TEF_SLICE, "cudaLaunchKernel", 2);
    TF_CHECK(g && strcmp(g->cat, "cuda_runtime") == 0 && strcmp(g->pid, "42") == 0 &&
             strcmp(g->tid, "50") == 0);
    int flows = 0;
    for (int i = 0; i < k.n; i++)
        flows += k.g[i].kind == TF_TEF_FLOW && k.g[i].ph == 's' && strcmp(k.g[i].id, "42:5") == 0;
    TF_CHECK(flows == 1);

    memset(&r, 0, sizeof r);
    r.table = TF_NSYS_MEMCPY;
    r.start = 4000;
    r.end = 5000;
    r.has_end = r.has_bytes = true;
    r.bytes = 4096;
    r.copy_kind = "HtoD";
    r.src_kind = "Pinned";
    r.dst_kind = "Device";
    TF_CHECK(tf_nsys_row(n, &r, &d));
    g = find(&k, TF_TEF_SLICE, "Memcpy HtoD (Pinned -> Device)", 2);
    TF_CHECK(g && strcmp(g->cat, "gpu_memcpy") == 0 && strstr(g->args, "\"bytes\":4096") &&
             strcmp(g->tid, "stream 0") == 0);

    /* NVTX: a coloured range, a mark, a range never ended, a category
     * name (not drawn), invalid UTF-8 */
    memset(&r, 0, sizeof r);
    r.table = TF_NSYS_NVTX;
    r.start = 100;
    r.end = 200;
    r.has_end = r.has_gid = r.has_color = true;
    r.gid = gtid(42, 42);
    r.nvtx_type = TF_NSYS_NVTX_PUSHPOP;
    r.color = 0xFF76B900;
    r.name = "step \xff";
    TF_CHECK(tf_nsys_row(n, &r, &d));
    g = find(&k, TF_TEF_SLICE, "step \xEF\xBF\xBD", 2);
    TF_CHECK(g && g->has_rgb && g->rgb == 0x76B900 && strcmp(g->cat, "nvtx") == 0);
    r.nvtx_type = TF_NSYS_NVTX_MARK;
    r.name = "mark";
    TF_CHECK(tf_nsys_row(n, &r, &d));
    TF_CHECK(find(&k, TF_TEF_INSTANT, "mark", 2) != NULL);
    r.nvtx_type = TF_NSYS_NVTX_STARTEND;
    r.has_end = false;
    r.name = "open";
    TF_CHECK(tf_nsys_row(n, &r, &d));
    g = find(&k, TF_TEF_SLICE, "open", 2);
    TF_CHECK(g && g->open_end);
    r.nvtx_type = 33;
    r.name = "a category";
    TF_CHECK(tf_nsys_row(n, &r, &d));
    TF_CHECK(find(&k, TF_TEF_SLICE, "a category", 2) == NULL);
    int before = k.n;
    r.nvtx_type = TF_NSYS_NVTX_PUSHPOP;
    r.start = INT64_MIN / 2; /* beyond 4e18 ns: dropped */
    TF_CHECK(tf_nsys_row(n, &r, &d));
    TF_CHECK(k.n == before);
    TF_CHECK(tf_nsys_finish(n, &d) && d.n_warnings == 1);
    tf_nsys_free(n);
}

TF_TEST(nsys_pass1_without_names_gives_times_only)
{
    struct rec k;
    struct tf_tef_sink s;
    struct tf_diag d;
    struct tf_nsys *n = setup(&k, &s, &d);
    struct tf_nsys_row r;
    memset(&r, 0, sizeof r);
    r.table = TF_NSYS_KERNEL;
    r.start = 10;
    r.end = 30;
    r.has_end = true;
    r.name = "kernel name";
    TF_CHECK(tf_nsys_row(n, &r, &d));
    const struct got *g = &k.g[k.n - 1];
    TF_CHECK(g->kind == TF_TEF_SLICE && g->pass == 1 && g->ts == 10 && g->dur == 20 &&
             strcmp(g->name, "") == 0);
    /* ... and the kernel's short name when --window-event asks for it */
    s.index_name = "k";
    r.short_name = "k";
    TF_CHECK(tf_nsys_row(n, &r, &d));
    TF_CHECK(strcmp(k.g[k.n - 1].name, "k") == 0);
    tf_nsys_free(n);
}

/* The rows of another SQLite format (load/rocpd.h): the labels it gives
 * devices and lanes, its own pids and tids, its categories, no origin at
 * 0, and memory rows drawn on a device's lane without being GPU work. */
TF_TEST(nsys_rows_of_other_formats)
{
    struct rec k;
    memset(&k, 0, sizeof k);
    k.pass = 1;
    struct tf_tef_sink s;
    memset(&s, 0, sizeof s);
    s.index = s.collect = keep;
    s.window = window;
    s.ctx = &k;
    s.flows = true;
    struct tf_diag d;
    tf_diag_init(&d);
    d.quiet = true;
    struct tf_nsys *n = tf_nsys_new("t.db", &s);
    TF_CHECK(n != NULL);
    tf_nsys_set_origin(n, false);
    tf_nsys_set_flow_pids(n, true);
    TF_CHECK(tf_nsys_add_process(n, 15, "./batched_gemm"));
    TF_CHECK(tf_nsys_add_thread_ids(n, 15, 16, "loader"));
    TF_CHECK(tf_nsys_add_gpu(n, 2, "AMD Instinct MI300X"));
    TF_CHECK(tf_nsys_label_gpu(n, 2, "GPU 0 (node-a)"));
    TF_CHECK(tf_nsys_label_lane(n, 16, "queue 0"));
    TF_CHECK(tf_nsys_label_lane(n, -3, "memory"));
    TF_CHECK(tf_nsys_begin(n, &d));
    const struct got *g = meta(&k, "thread_name", "15", "16");
    TF_CHECK(g && strcmp(g->args, "{\"name\":\"loader\"}") == 0);
    for (int i = 0; i < k.n; i++)
        TF_CHECK(k.g[i].kind != TF_TEF_ORIGIN);
    int64_t lo, hi;
    TF_CHECK(tf_nsys_window(n, &lo, &hi, &d));

    struct tf_nsys_row r;
    memset(&r, 0, sizeof r);
    r.table = TF_NSYS_KERNEL;
    r.start = 1000;
    r.end = 2000;
    r.has_end = r.has_ids = r.has_lane = r.has_corr = true;
    r.pid = 15;
    r.tid = 15;
    r.device = 2;
    r.lane = 16;  /* the queue */
    r.stream = 0; /* the stream, in the tooltip */
    r.corr = 9;
    r.name = "__amd_rocclr_fillBufferAligned";
    TF_CHECK(tf_nsys_row(n, &r, &d));
    g = find(&k, TF_TEF_SLICE, "__amd_rocclr_fillBufferAligned", 2);
    TF_CHECK(g && strcmp(g->pid, "GPU 0 (node-a)") == 0 && strcmp(g->tid, "queue 0 (pid 15)") == 0);
    TF_CHECK(g && strcmp(g->args, "{\"device\":\"AMD Instinct MI300X\",\"stream\":0,"
                                  "\"correlation\":9}") == 0);
    g = meta(&k, "thread_name", "GPU 0 (node-a)", "queue 0 (pid 15)");
    TF_CHECK(g && strcmp(g->args, "{\"name\":\"queue 0\"}") == 0);

    /* a call in its own category, on the thread its ids name */
    memset(&r, 0, sizeof r);
    r.table = TF_NSYS_RUNTIME;
    r.start = 500;
    r.end = 900;
    r.has_end = r.has_ids = r.has_corr = true;
    r.pid = 15;
    r.tid = 16;
    r.corr = 9;
    r.cat = "HIP_RUNTIME_API_EXT";
    r.name = "hipMemset";
    TF_CHECK(tf_nsys_row(n, &r, &d));
    g = find(&k, TF_TEF_SLICE, "hipMemset", 2);
    TF_CHECK(g && strcmp(g->cat, "HIP_RUNTIME_API_EXT") == 0 && strcmp(g->pid, "15") == 0 &&
             strcmp(g->tid, "16") == 0);
    int flows = 0;
    for (int i = 0; i < k.n; i++)
        flows += k.g[i].kind == TF_TEF_FLOW && strcmp(k.g[i].id, "15:9") == 0;
    TF_CHECK(flows == 2);

    /* an allocation: on the device's memory lane, bytes but no stream */
    memset(&r, 0, sizeof r);
    r.table = TF_NSYS_MEMORY;
    r.start = 300;
    r.end = 400;
    r.has_end = r.has_ids = r.has_lane = r.has_bytes = true;
    r.pid = 15;
    r.tid = 15;
    r.device = 2;
    r.lane = -3;
    r.bytes = 65536;
    r.name = "Scratch alloc";
    TF_CHECK(tf_nsys_row(n, &r, &d));
    g = find(&k, TF_TEF_SLICE, "Scratch alloc", 2);
    TF_CHECK(g && strcmp(g->cat, "gpu_memory") == 0 && strcmp(g->tid, "memory (pid 15)") == 0);
    TF_CHECK(g && strcmp(g->args, "{\"device\":\"AMD Instinct MI300X\",\"bytes\":65536}") == 0);
    /* a pid tagged above 32 bits (a second node's): a lane of its own,
     * named with the pid the system gave it */
    r.pid = 15 + (INT64_C(2) << 32);
    r.name = "Memory free";
    TF_CHECK(tf_nsys_row(n, &r, &d));
    g = find(&k, TF_TEF_SLICE, "Memory free", 2);
    TF_CHECK(g && strcmp(g->tid, "memory (pid 8589934607)") == 0);
    g = meta(&k, "thread_name", "GPU 0 (node-a)", "memory (pid 8589934607)");
    TF_CHECK(g && strcmp(g->args, "{\"name\":\"memory (pid 15)\"}") == 0);
    tf_nsys_free(n);
}
