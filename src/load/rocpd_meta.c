/* rocpd_meta.c - what a rocpd database names, read before any row (see
 * rocpd.h): its schema version (rocpd_metadata), its nodes, agents
 * (rocpd_info_agent: "GPU <type_index>"), queues and streams
 * (rocpd_info_queue, rocpd_info_stream: the lanes' labels), processes and
 * threads (processes, threads), and the rank a process was in its job
 * (rocpd_info_process.environment).  Each from a view that may be
 * missing or lack a column: then it names nothing.  rocprof (v1)'s
 * results.db names none of these; only whether it used streams.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "load/rocpd_int.h"

#define sq tf_sq

/* Runs sql and calls fn for each row; a view that is missing or lacks a
 * column tells nothing (no error). */
static bool each_row(struct rp *p, const char *view, const char *sql,
                     bool (*fn)(struct rp *, sqlite3_stmt *, struct tf_diag *), struct tf_diag *d)
{
    bool yes;
    if (!tf_sq_exists(p->db, p->file, "view", view, &yes, d))
        return false;
    if (!yes && !tf_sq_exists(p->db, p->file, "table", view, &yes, d))
        return false;
    if (!yes)
        return true;
    sqlite3_stmt *st;
    if (sq.sqlite3_prepare_v2(p->db, sql, -1, &st, NULL) != SQLITE_OK) {
        sq.sqlite3_finalize(st);
        return sq.sqlite3_errcode(p->db) == SQLITE_ERROR || tf_rocpd_error(p, view, d);
    }
    bool row, ok;
    while ((ok = tf_sq_step(p->db, p->file, st, &row, view, d)) && row && (ok = fn(p, st, d)))
        ;
    sq.sqlite3_finalize(st);
    return ok;
}

static bool col_null(sqlite3_stmt *st, int c)
{
    return sq.sqlite3_column_type(st, c) == SQLITE_NULL;
}

static int64_t col_int(sqlite3_stmt *st, int c, int64_t none)
{
    return col_null(st, c) ? none : sq.sqlite3_column_int64(st, c);
}

static const char *col_text(sqlite3_stmt *st, int c)
{
    return col_null(st, c) ? NULL : (const char *)sq.sqlite3_column_text(st, c);
}

/* --- the version ----------------------------------------------------------------- */

static bool on_version(struct rp *p, sqlite3_stmt *st, struct tf_diag *d)
{
    (void)d;
    const char *v = col_text(st, 0);
    if (v && !p->version[0]) {
        const char *c = tf_nsys_clean(&p->tmp, v);
        snprintf(p->version, sizeof p->version, "%s", c ? c : "?");
    }
    return true;
}

/* --- nodes --------------------------------------------------------------------------- */

static bool on_node(struct rp *p, sqlite3_stmt *st, struct tf_diag *d)
{
    if (col_null(st, 0))
        return true;
    struct rnode *n = realloc(p->nodes, (p->n_nodes + 1) * sizeof *n);
    if (!n)
        return tf_diag_oom(d, p->file);
    p->nodes = n;
    const char *h = col_text(st, 1);
    const char *c = h ? tf_nsys_clean(&p->tmp, h) : NULL;
    n[p->n_nodes] = (struct rnode){sq.sqlite3_column_int64(st, 0),
                                   c ? tf_arena_strdup(&p->arena, c) : NULL};
    if (c && !n[p->n_nodes].host)
        return tf_diag_oom(d, p->file);
    p->n_nodes++;
    return true;
}

static const char *host_of(const struct rp *p, int64_t nid)
{
    for (size_t i = 0; i < p->n_nodes; i++)
        if (p->nodes[i].id == nid)
            return p->nodes[i].host;
    return NULL;
}

/* " (host)" after a name, once several nodes are drawn. */
static void put_host(struct rp *p, struct tf_buf *b, int64_t nid)
{
    if (!p->multi_node)
        return;
    const char *h = host_of(p, nid);
    if (h && *h)
        tf_buf_printf(b, " (%s)", h);
    else
        tf_buf_printf(b, " (node %lld)", (long long)nid);
}

/* --- agents -------------------------------------------------------------------------- */

static bool on_agent(struct rp *p, sqlite3_stmt *st, struct tf_diag *d)
{
    if (col_null(st, 1))
        return true;
    struct ragent *a = realloc(p->agents, (p->n_agents + 1) * sizeof *a);
    if (!a)
        return tf_diag_oom(d, p->file);
    p->agents = a;
    a += p->n_agents++;
    a->nid = col_int(st, 0, 0);
    a->abs_index = sq.sqlite3_column_int64(st, 1);
    a->type_index = col_int(st, 2, a->abs_index);
    const char *type = col_text(st, 3);
    a->gpu = type && strcmp(type, "GPU") == 0;
    /* the label waits for the nodes; the device name goes to the converter */
    const char *name = col_text(st, 4) ? col_text(st, 4) : col_text(st, 5);
    if (a->gpu && !tf_nsys_add_gpu(p->conv, (int64_t)(p->n_agents - 1), name))
        return tf_diag_oom(d, p->file);
    a->label = NULL;
    return true;
}

int64_t tf_rocpd_agent(const struct rp *p, int64_t nid, int64_t abs_index)
{
    for (size_t i = 0; i < p->n_agents; i++)
        if (p->agents[i].abs_index == abs_index && p->agents[i].nid == nid)
            return (int64_t)i;
    /* an agent of a node the row does not name */
    for (size_t i = 0; i < p->n_agents; i++)
        if (p->agents[i].abs_index == abs_index)
            return (int64_t)i;
    return -1;
}

/* Whether GPUs or processes of several nodes are listed: then their
 * names carry the host's. */
static void several_nodes(struct rp *p)
{
    bool any = false;
    int64_t first = 0;
    for (size_t i = 0; i < p->n_agents + p->n_procs; i++) {
        bool agent = i < p->n_agents;
        if (agent && !p->agents[i].gpu)
            continue;
        int64_t nid = agent ? p->agents[i].nid : p->procs[i - p->n_agents].nid;
        p->multi_node = p->multi_node || (any && nid != first);
        first = any ? first : nid;
        any = true;
    }
}

/* Agent i's label, "GPU <type_index>" (the host's name after it:
 * several_nodes); false when out of memory. */
static bool label_agent(struct rp *p, size_t i)
{
    struct ragent *a = &p->agents[i];
    tf_buf_clear(&p->name);
    tf_buf_printf(&p->name, "%s %lld", a->gpu ? "GPU" : "CPU", (long long)a->type_index);
    put_host(p, &p->name, a->nid);
    a->label = p->name.oom ? NULL : tf_arena_strdup(&p->arena, p->name.data);
    return a->label && (!a->gpu || tf_nsys_label_gpu(p->conv, (int64_t)i, a->label));
}

static bool label_agents(struct rp *p, struct tf_diag *d)
{
    for (size_t i = 0; i < p->n_agents; i++)
        if (!label_agent(p, i))
            return tf_diag_oom(d, p->file);
    return true;
}

int64_t tf_rocpd_add_agent(struct rp *p, int64_t nid, int64_t abs_index, int64_t type_index,
                           bool gpu)
{
    struct ragent *a = realloc(p->agents, (p->n_agents + 1) * sizeof *a);
    if (!a)
        return -1;
    p->agents = a;
    a[p->n_agents] = (struct ragent){nid, abs_index, type_index, gpu, NULL};
    size_t i = p->n_agents++;
    if ((gpu && !tf_nsys_add_gpu(p->conv, (int64_t)i, NULL)) || !label_agent(p, i))
        return -1;
    return (int64_t)i;
}

/* --- processes and threads ----------------------------------------------------------- */

static bool on_process(struct rp *p, sqlite3_stmt *st, struct tf_diag *d)
{
    if (col_null(st, 1))
        return true;
    struct rproc *r = realloc(p->procs, (p->n_procs + 1) * sizeof *r);
    if (!r)
        return tf_diag_oom(d, p->file);
    p->procs = r;
    r += p->n_procs++;
    r->nid = col_int(st, 0, 0);
    r->pid = sq.sqlite3_column_int64(st, 1);
    r->rec_pid = r->pid;
    /* its name: the command's first word, the program's file */
    const char *cmd = col_text(st, 2);
    tf_buf_clear(&p->tmp);
    if (cmd) {
        size_t n = strcspn(cmd, " \t");
        tf_buf_putn(&p->tmp, cmd, n);
    }
    const char *name = p->tmp.len ? p->tmp.data : NULL;
    if (!name)
        return true;
    /* named in place: pids are renumbered before the names are given */
    char *keep = tf_arena_strdup(&p->arena, name);
    if (!keep)
        return tf_diag_oom(d, p->file);
    r->name = keep;
    return true;
}

int64_t tf_rocpd_pid(const struct rp *p, int64_t nid, int64_t pid)
{
    if (!p->pid_clash)
        return pid;
    for (size_t i = 0; i < p->n_procs; i++)
        if (p->procs[i].pid == pid && p->procs[i].nid == nid)
            return p->procs[i].rec_pid;
    return pid;
}

/* Two nodes with a process of one pid: the later nodes' get the node's
 * place above bit 32, so that their lanes stay apart. */
static void renumber(struct rp *p)
{
    for (size_t i = 0; i < p->n_procs; i++)
        for (size_t k = 0; k < i; k++)
            if (p->procs[k].pid == p->procs[i].pid && p->procs[k].nid != p->procs[i].nid) {
                p->pid_clash = true;
                p->procs[i].rec_pid = p->procs[i].pid + ((int64_t)(i + 1) << 32);
                break;
            }
}

static bool name_processes(struct rp *p, struct tf_diag *d)
{
    for (size_t i = 0; i < p->n_procs; i++) {
        const struct rproc *r = &p->procs[i];
        if (!r->name)
            continue;
        tf_buf_clear(&p->name);
        /* a path is named after its file (as the converter does) */
        const char *slash = strrchr(r->name, '/');
        tf_buf_puts(&p->name, slash && slash[1] ? slash + 1 : r->name);
        put_host(p, &p->name, r->nid);
        if (p->name.oom || !tf_nsys_add_process(p->conv, r->rec_pid, p->name.data))
            return tf_diag_oom(d, p->file);
    }
    return true;
}

static bool on_thread(struct rp *p, sqlite3_stmt *st, struct tf_diag *d)
{
    const char *name = col_text(st, 3);
    if (col_null(st, 1) || col_null(st, 2) || !name || !*name)
        return true;
    int64_t pid = tf_rocpd_pid(p, col_int(st, 0, 0), sq.sqlite3_column_int64(st, 1));
    return tf_nsys_add_thread_ids(p->conv, pid, sq.sqlite3_column_int64(st, 2), name) ||
           tf_diag_oom(d, p->file);
}

/* --- queues and streams --------------------------------------------------------------- */

static bool on_stream_used(struct rp *p, sqlite3_stmt *st, struct tf_diag *d)
{
    (void)st;
    (void)d;
    p->by_stream = true;
    return true;
}

/* Lane `key` labelled (and remembered as labelled, so that its first row
 * does not label it again). */
bool tf_rocpd_label(struct rp *p, int64_t key, const char *label)
{
    if (!tf_nsys_label_lane(p->conv, key, label))
        return false;
    for (size_t i = 0; i < p->n_keys; i++)
        if (p->keys[i] == key)
            return true;
    if (!TF_GROW(p->keys, p->n_keys, p->cap_keys))
        return false;
    p->keys[p->n_keys++] = key;
    return true;
}

/* A lane's label from its queue's or stream's name: "Queue 3" is "queue
 * 3", "Default Stream" "default stream"; another name as it is. */
static bool on_lane_name(struct rp *p, sqlite3_stmt *st, struct tf_diag *d)
{
    if (col_null(st, 0))
        return true;
    int64_t id = sq.sqlite3_column_int64(st, 0);
    const char *name = col_text(st, 1);
    const char *word = p->by_stream ? "stream" : "queue";
    tf_buf_clear(&p->name);
    size_t wl = strlen(word);
    if (!name || !*name) {
        tf_buf_printf(&p->name, "%s %lld", word, (long long)id);
    } else if (strncmp(name, "Default ", 8) == 0 && strcasecmp(name + 8, word) == 0) {
        tf_buf_printf(&p->name, "default %s", word);
    } else if (strncasecmp(name, word, wl) == 0 && name[wl] == ' ') {
        tf_buf_printf(&p->name, "%s%s", word, name + wl);
    } else {
        tf_buf_puts(&p->name, name);
    }
    if (p->name.oom || !tf_rocpd_label(p, id, p->name.data))
        return tf_diag_oom(d, p->file);
    return true;
}

/* --- a rank's job ---------------------------------------------------------------------- */

/* The environment variables that say a process's rank and its job's
 * size, in the order they are believed: the MPI libraries', Slurm's,
 * torchrun's. */
#define ENV(k) "json_extract(environment, '$." k "')"
static const char *const job_sql =
    "SELECT coalesce(" ENV("OMPI_COMM_WORLD_RANK") ", " ENV("PMI_RANK") ", " ENV("PMIX_RANK")
    ", " ENV("MV2_COMM_WORLD_RANK") ", " ENV("SLURM_PROCID") ", " ENV("RANK") "), "
    "coalesce(" ENV("OMPI_COMM_WORLD_SIZE") ", " ENV("PMI_SIZE") ", " ENV("MV2_COMM_WORLD_SIZE")
    ", " ENV("SLURM_NTASKS") ", " ENV("WORLD_SIZE") ") "
    "FROM rocpd_info_process WHERE json_valid(environment)";
#undef ENV

static bool number(const char *s, long long *v)
{
    char *end;
    if (!s || !*s)
        return false;
    long long x = strtoll(s, &end, 10);
    if (*end || x < 0 || x > 1000000000)
        return false;
    *v = x;
    return true;
}

static bool on_job(struct rp *p, sqlite3_stmt *st, struct tf_diag *d)
{
    (void)d;
    struct rjob *j = &p->job;
    if (j->n++ == 0) {
        j->has_rank = number(col_text(st, 0), &j->rank);
        j->has_size = number(col_text(st, 1), &j->size);
    }
    return true;
}

/* A database of one process that knows its rank: the rank's facts. */
static bool job(struct rp *p, struct tf_trace *out, struct tf_diag *d)
{
    memset(&p->job, 0, sizeof p->job);
    if (!each_row(p, "rocpd_info_process", job_sql, on_job, d))
        return false;
    const struct rjob j = p->job;
    if (j.n != 1 || !j.has_rank || (j.has_size && j.rank >= j.size))
        return true;
    out->facts.has_rank = true;
    out->facts.rank = j.rank;
    out->facts.has_world_size = j.has_size;
    out->facts.world_size = j.has_size ? j.size : 0;
    return true;
}

/* --- allocations' agents ----------------------------------------------------------------- */

static bool on_alloc(struct rp *p, sqlite3_stmt *st, struct tf_diag *d)
{
    if (col_null(st, 1) || col_null(st, 2))
        return true;
    struct raddr *a = realloc(p->addrs, (p->n_addrs + 1) * sizeof *a);
    if (!a)
        return tf_diag_oom(d, p->file);
    p->addrs = a;
    int64_t nid = col_int(st, 0, 0);
    p->addrs[p->n_addrs++] =
        (struct raddr){nid, sq.sqlite3_column_int64(st, 1),
                       tf_rocpd_agent(p, nid, sq.sqlite3_column_int64(st, 2))};
    return true;
}

/* --- the database ------------------------------------------------------------------------ */

static bool describe_v1(struct rp *p, struct tf_diag *d)
{
    bool has[2];
    static const char *const cols[] = {"stream-id"};
    for (int t = 0; t < 2; t++) {
        const char *table = t ? "COPY" : "OPS";
        bool yes;
        if (!tf_sq_exists(p->db, p->file, "table", table, &yes, d))
            return false;
        if (!yes)
            continue;
        if (!tf_sq_columns(p->db, p->file, table, cols, 1, has, d))
            return false;
        if (!has[0])
            continue;
        char sql[96];
        snprintf(sql, sizeof sql, "SELECT 1 FROM \"%s\" WHERE \"stream-id\" != 0 LIMIT 1", table);
        if (!each_row(p, table, sql, on_stream_used, d))
            return false;
    }
    return true;
}

bool tf_rocpd_describe(struct rp *p, struct tf_trace *out, struct tf_diag *d)
{
    if (p->kind == TF_ROCPD_ROCPROF1)
        return describe_v1(p, d);
    bool ok =
        each_row(p, "rocpd_metadata",
                 "SELECT value FROM rocpd_metadata WHERE tag = 'schema_version' ORDER BY id",
                 on_version, d) &&
        each_row(p, "rocpd_info_node", "SELECT id, hostname FROM rocpd_info_node ORDER BY id",
                 on_node, d) &&
        each_row(p, "rocpd_info_agent",
                 "SELECT nid, absolute_index, type_index, type, product_name, name "
                 "FROM rocpd_info_agent ORDER BY nid, absolute_index",
                 on_agent, d) &&
        /* a version whose agents lack a column: the ones every version has */
        (p->n_agents ||
         each_row(p, "rocpd_info_agent",
                  "SELECT nid, absolute_index, NULL, type, NULL, NULL FROM rocpd_info_agent "
                  "ORDER BY nid, absolute_index",
                  on_agent, d)) &&
        each_row(p, "processes",
                 "SELECT nid, pid, command FROM processes ORDER BY nid, pid", on_process, d);
    if (ok && p->n_procs == 0)
        ok = each_row(p, "rocpd_info_process",
                      "SELECT nid, pid, command FROM rocpd_info_process ORDER BY nid, pid",
                      on_process, d);
    if (!ok)
        return false;
    renumber(p);
    several_nodes(p);
    ok = name_processes(p, d) && label_agents(p, d) &&
         each_row(p, "threads", "SELECT nid, pid, tid, name FROM threads ORDER BY nid, pid, tid",
                  on_thread, d) &&
         /* streams other than the default: the run used them */
         each_row(p, "rocpd_info_stream",
                  "SELECT 1 FROM rocpd_info_stream WHERE name IS NOT 'Default Stream' LIMIT 1",
                  on_stream_used, d);
    ok = ok && each_row(p, p->by_stream ? "rocpd_info_stream" : "rocpd_info_queue",
                        p->by_stream ? "SELECT id, name FROM rocpd_info_stream ORDER BY id"
                                     : "SELECT id, name FROM rocpd_info_queue ORDER BY id",
                        on_lane_name, d);
    ok = ok && job(p, out, d) &&
         each_row(p, "memory_allocations",
                  "SELECT nid, address, agent_abs_index FROM memory_allocations "
                  "WHERE type = 'ALLOC' ORDER BY start",
                  on_alloc, d);
    return ok;
}
