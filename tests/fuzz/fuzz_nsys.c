/* libFuzzer target: an Nsight Systems export's rows into the generic mode
 * (load/nsys_rows.h and rules/chrome.c), without SQLite: the input is
 * decoded into the names an export lists (processes, threads, GPUs,
 * streams) and rows of every table, with any times, ids, names (also raw
 * bytes, invalid UTF-8 included) and flags.  The rows go through the two
 * passes as load/nsys.c gives them: pass 1 every row, or (the window being
 * explicit) only those named for --window-event; pass 2 those that reach
 * into the window.  An accepted figure must keep every bar, arrow and
 * tick inside its axis and lanes, render in every back-end, have a valid
 * UTF-8 JSON model, and be the same bytes whether pass 1 was lean or full.
 *
 * The first byte picks the options (flows, a window by time or by an
 * event name, depth, the GPU statistics of the whole trace). */
#include "fuzz_common.h"

#include <math.h>

#include "base/utf8.h"
#include "load/nsys_rows.h"
#include "rules/mode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_nsys: %s\n", what);
        abort();
    }
}

/* --- reading the input ---------------------------------------------------- */

struct in {
    const uint8_t *p;
    size_t n;
};

static unsigned byte(struct in *in)
{
    if (!in->n)
        return 0;
    in->n--;
    return *in->p++;
}

static int64_t bytes_int(struct in *in, int k)
{
    uint64_t v = 0;
    for (int i = 0; i < k; i++)
        v = v << 8 | byte(in);
    return (int64_t)v;
}

static const char *const names[] = {
    "step", "forward", "k", "void ns::k<int, (int)4>(float *, int)", "cudaLaunchKernel_v7000",
    "", "cuGetProcAddress_v2", "\xff\xfe bad", "<&>\"'$%#_{}~^\\", "ncclDevKernel_AllReduce",
    "Memcpy HtoD (Pinned -> Device)", "a very long name that goes on and on and on and on and on",
};
#define N_NAMES (sizeof names / sizeof names[0])

/* A name: one of the table, NULL, or up to 15 raw bytes of the input
 * (copied to `raw`, NUL-terminated). */
static const char *name_of(struct in *in, char *raw)
{
    unsigned k = byte(in);
    if (k < N_NAMES * 16)
        return names[k % N_NAMES];
    if (k < 0xF0)
        return NULL;
    size_t len = k & 15;
    size_t i = 0;
    for (; i < len && in->n; i++) {
        raw[i] = (char)byte(in);
        if (!raw[i])
            raw[i] = '?';
    }
    raw[i] = '\0';
    return raw;
}

#define MAX_ROWS 256

struct rows {
    struct tf_nsys_row r[MAX_ROWS];
    char raw[MAX_ROWS][2][16];
    size_t n;
    int64_t pids[4], tids[8];
};

static int64_t gtid(int64_t pid, int64_t tid)
{
    return (int64_t)((uint64_t)1 << 48 | (uint64_t)pid << 24 | (uint64_t)tid);
}

static void read_rows(struct in *in, struct rows *rs)
{
    for (int i = 0; i < 4; i++)
        rs->pids[i] = 100 + (int64_t)(byte(in) % 3);
    for (int i = 0; i < 8; i++)
        rs->tids[i] = rs->pids[i % 4] + (int64_t)(byte(in) % 4);
    while (in->n && rs->n < MAX_ROWS) {
        struct tf_nsys_row *r = &rs->r[rs->n];
        memset(r, 0, sizeof *r);
        unsigned t = byte(in), f = byte(in);
        r->table = (enum tf_nsys_table)(t % TF_NSYS_N_TABLES);
        if (f & 0x80) { /* any 64-bit times */
            r->start = bytes_int(in, 8);
            r->end = bytes_int(in, 8);
        } else {
            r->start = bytes_int(in, 3) * 1000;
            r->end = r->start + bytes_int(in, 2) * 100 - (f & 0x40 ? 5000 : 0);
        }
        r->has_end = !(f & 1);
        r->has_gid = !(f & 2);
        unsigned who = byte(in);
        bool gpu = r->table <= TF_NSYS_MEMSET;
        r->gid = gpu ? gtid(rs->pids[who % 4], 0) : gtid(rs->pids[(who >> 3) % 4], rs->tids[who % 8]);
        r->device = (who >> 5) & 3;
        r->stream = 7 + (byte(in) % 5);
        r->has_corr = f & 4;
        r->corr = byte(in) % 16;
        r->name = name_of(in, rs->raw[rs->n][0]);
        r->short_name = (f & 8) ? name_of(in, rs->raw[rs->n][1]) : NULL;
        r->event_class = f & 16 ? 1 : 0;
        static const int64_t types[] = {59, 60, 34, 70, 71, 65, 33, 75};
        r->nvtx_type = types[(t >> 3) % 8];
        r->has_color = f & 32;
        r->color = (uint32_t)bytes_int(in, f & 32 ? 4 : 0);
        r->has_bytes = t & 64;
        r->bytes = byte(in) << 12;
        r->copy_kind = tf_nsys_copy_kind(t % 16);
        r->src_kind = tf_nsys_mem_kind((t >> 4) % 9);
        r->dst_kind = tf_nsys_mem_kind(f % 9);
        r->mem_kind = tf_nsys_mem_kind(who % 9);
        r->has_grid = t & 128;
        for (int i = 0; i < 3; i++)
            r->grid[i] = r->block[i] = 1 + i;
        rs->n++;
    }
}

/* --- the passes ------------------------------------------------------------ */

/* Whether pass 1 hands the row over, as nsys.c's queries select. */
static bool pass1_wants(const struct tf_tef_sink *s, const struct tf_nsys_row *r)
{
    if (!s->index_lean)
        return true;
    if (s->args_pass1 && r->table <= TF_NSYS_MEMSET)
        return true;
    if (!s->index_name)
        return false;
    if (r->table == TF_NSYS_MEMCPY || r->table == TF_NSYS_MEMSET)
        return strncmp(s->index_name, r->table == TF_NSYS_MEMCPY ? "Memcpy" : "Memset", 6) == 0;
    char call[512];
    if (r->name) {
        tf_nsys_call_name(r->name, call, sizeof call);
        if (strcmp(r->name, s->index_name) == 0 || strcmp(call, s->index_name) == 0)
            return true;
    }
    return r->short_name && strcmp(r->short_name, s->index_name) == 0;
}

static void utf8_ok(const struct tf_buf *b)
{
    const unsigned char *p = (const unsigned char *)(b->data ? b->data : "");
    while (*p) {
        size_t k = *p < 0x80 ? 1 : tf_utf8_seq_len(*p);
        check(k > 0, "invalid UTF-8 in the model");
        for (size_t i = 1; i < k; i++)
            check(p[i] != 0, "a cut UTF-8 sequence in the model");
        check(k == 1 || tf_utf8_decode(p, k) >= 0, "invalid UTF-8 in the model");
        p += k;
    }
}

/* The figure of the rows as JSON, or "ERROR ..."; lean: pass 1 as nsys.c
 * gives it, else every row. */
static void figure_of(const struct rows *rs, const struct tf_opts *o, bool lean, bool all,
                      struct tf_buf *out)
{
    struct tf_trace t;
    tf_trace_init(&t);
    struct tf_figure f;
    tf_figure_init(&f);
    struct tf_diag d;
    tf_diag_init(&d);
    d.quiet = true;
    struct tf_keep k;
    memset(&k, 0, sizeof k);
    check(tf_mode_chrome.begin(o, &t, &k, &d), "begin: out of memory");
    struct tf_nsys *n = tf_nsys_new("fuzz.sqlite", &k.tef);
    check(n != NULL, "out of memory");
    bool ok = true;
    for (int i = 0; ok && i < 4; i++)
        ok = tf_nsys_add_process(n, rs->pids[i], i & 1 ? "/opt/app/train" : names[i % N_NAMES]);
    for (int i = 0; ok && i < 8; i++)
        ok = tf_nsys_add_thread(n, gtid(rs->pids[i % 4], rs->tids[i]), names[(i + 3) % N_NAMES]);
    ok = ok && tf_nsys_add_gpu(n, 0, "NVIDIA H100") && tf_nsys_add_gpu(n, 1, "\xc3 odd");
    ok = ok && tf_nsys_add_stream(n, -1, 7, rs->pids[0]) && tf_nsys_add_stream(n, 2, 8, -1);
    check(ok, "out of memory");
    tf_nsys_set_flow_pids(n, rs->n % 2);
    ok = tf_nsys_begin(n, &d);
    for (size_t i = 0; ok && i < rs->n; i++)
        if (!lean || pass1_wants(&k.tef, &rs->r[i]))
            ok = tf_nsys_row(n, &rs->r[i], &d);
    int64_t lo, hi;
    ok = ok && tf_nsys_window(n, &lo, &hi, &d);
    for (size_t i = 0; ok && i < rs->n; i++) {
        const struct tf_nsys_row *r = &rs->r[i];
        if (r->start <= hi && (!r->has_end || r->end >= lo))
            ok = tf_nsys_row(n, r, &d);
    }
    ok = ok && tf_nsys_finish(n, &d);
    tf_nsys_free(n);
    t.kind = TF_TRACE_CHROME;
    t.generic = true;
    struct tf_mode_input mi = {.trace = &t, .file = "fuzz.sqlite"};
    ok = ok && tf_mode_chrome.build(&mi, o, &f, &d);
    if (ok) {
        fuzz_check_figure(&f);
        if (all)
            fuzz_render_all(&f);
        struct tf_render_opts ro = {"tracefig", false, 72.0};
        if (!tf_backend_json.render(&f, &ro, out, &d))
            tf_buf_printf(out, "RENDER ERROR %d: %s", (int)d.code, d.msg);
        utf8_ok(out);
    } else {
        check(d.code != 0 && d.msg[0] != '\0', "a failure without a message");
        tf_buf_printf(out, "ERROR %d: %s", (int)d.code, d.msg);
    }
    tf_mode_chrome.release(t.generic_state);
    t.generic_state = NULL;
    tf_figure_fini(&f);
    tf_trace_fini(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned sel = data[0];
    struct tf_opts o;
    memset(&o, 0, sizeof o);
    o.flows = sel & 1;
    o.depth = sel & 2 ? 2 : 0;
    o.stats_trace_scope = sel & 4;
    o.osrt = true;
    if (sel & 8) {
        o.has_from = o.has_to = true;
        o.from_ns = (int64_t)(sel >> 4) * 100000;
        o.to_ns = o.from_ns + 3000000;
    } else if (sel & 16) {
        o.window_event = names[(sel >> 5) % 4];
        o.occurrence = 1 + (sel >> 7);
    }
    static struct rows rs;
    memset(&rs, 0, sizeof rs);
    struct in in = {data + 1, size - 1};
    read_rows(&in, &rs);
    struct tf_buf a, b;
    tf_buf_init(&a);
    tf_buf_init(&b);
    figure_of(&rs, &o, true, true, &a);
    if (o.window_event || (o.has_from && o.has_to)) {
        figure_of(&rs, &o, false, false, &b);
        check(!a.oom && !b.oom, "out of memory");
        /* A --window-event that names nothing: the lean pass read only
         * some rows (those named, the GPU's for the statistics), so what
         * its message says of the others (how many, the nearest names;
         * window.c window_event_miss) may differ; up to the name asked
         * for, the two must agree. */
        const char *miss_at = "--window-event: no complete event ";
        const char *ma = a.data ? strstr(a.data, miss_at) : NULL;
        const char *mb = b.data ? strstr(b.data, miss_at) : NULL;
        const char *qa = ma ? strchr(ma + strlen(miss_at), '"') : NULL;
        qa = qa ? strchr(qa + 1, '"') : NULL;
        size_t upto = qa ? (size_t)(qa - a.data) + 1 : 0;
        bool miss = qa && mb && b.len >= upto && memcmp(a.data, b.data, upto) == 0;
        if (!miss && (a.len != b.len || memcmp(a.data, b.data, a.len) != 0)) {
            fprintf(stderr, "fuzz_nsys: a lean pass 1 changes the figure\n--- lean:\n%.2000s\n"
                            "--- full:\n%.2000s\n",
                    a.data ? a.data : "", b.data ? b.data : "");
            abort();
        }
    }
    tf_buf_fini(&a);
    tf_buf_fini(&b);
    return 0;
}
