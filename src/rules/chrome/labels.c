/* labels.c - the generic Chrome mode's lane labels: a process's label,
 * a thread's part ("thread 5555 (python)", "stream 7", or its tid), the
 * whole "process / thread", and, for the lanes drawn together, the
 * smallest difference that tells alike labels apart (the tid, the pid, a
 * count); and the parts of a label for a header per process.  Which
 * lanes are drawn, and in what order, is lanes.c's.
 */
#include "rules/chrome/chrome_int.h"

#include <stdlib.h>
#include <string.h>

/* An id as text: "5555", "stream 7", "?". */
static void id_text(struct tf_buf *b, const struct tf_id *id)
{
    if (id->kind == TF_ID_NUM) {
        /* "%lld" without printf (a label per lane, an id in each) */
        long long v = id->num;
        if (v < 0)
            tf_buf_putc(b, '-');
        tf_buf_uint(b, v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v);
    }
    else if (id->kind == TF_ID_STR)
        tf_buf_puts(b, id->str);
    else
        tf_buf_putc(b, '?');
}

bool tf_chrome_proc_label(const struct proc *p, struct tf_buf *out)
{
    size_t n0 = out->len;
    /* Kineto names its GPU processes after the host program and labels
     * them "GPU 0": the label says more (but not its host's "CPU").  A pid
     * that is a string names the process, as trace viewers take it. */
    if (p->labels && *p->labels && strcmp(p->labels, "CPU") != 0)
        tf_chrome_trimmed(p->labels, out);
    else if (p->name && *p->name)
        tf_chrome_process_name(p->name, out);
    else if (p->pid.kind == TF_ID_STR)
        tf_chrome_trimmed(p->pid.str, out);
    tf_chrome_cap(out, n0, TF_CHROME_LABEL_MAX);
    if (out->len > n0)
        return true;
    tf_buf_puts(out, "pid ");
    id_text(out, &p->pid);
    return false;
}

/* A thread's part of its label: its name; else its tid when that is a
 * string ("stream 7": Kineto's GPU streams, the loader's "async cat"
 * lanes), which names it as trace viewers take it; else, for a named
 * process's only lane, the process's label (pl); else "tid N". */
static void thread_part(const struct thr *th, bool named, bool only, const char *pl,
                        struct tf_buf *out)
{
    if (th->name && *th->name)
        tf_chrome_trimmed(th->name, out);
    else if (th->tid.kind == TF_ID_STR)
        tf_chrome_trimmed(th->tid.str, out);
    tf_chrome_cap(out, 0, TF_CHROME_LABEL_MAX);
    if (!out->len && named && only)
        tf_buf_puts(out, pl);
    if (!out->len) {
        tf_buf_puts(out, "tid ");
        id_text(out, &th->tid);
    }
}

/* What is being labelled: a thread, its two parts and the whole. */
struct label_work {
    size_t thread;
    struct tf_buf proc, thr, whole;
};

static void join(struct label_work *w)
{
    tf_buf_clear(&w->whole);
    if (w->proc.data && w->thr.data && strcmp(w->proc.data, w->thr.data) == 0)
        tf_buf_puts(&w->whole, w->proc.data);
    else {
        tf_buf_puts(&w->whole, w->proc.data ? w->proc.data : "");
        tf_buf_puts(&w->whole, " / ");
        tf_buf_puts(&w->whole, w->thr.data ? w->thr.data : "");
    }
}

static int by_whole(const void *x, const void *y)
{
    const struct label_work *a = *(struct label_work *const *)x;
    const struct label_work *b = *(struct label_work *const *)y;
    int k = strcmp(a->whole.data ? a->whole.data : "", b->whole.data ? b->whole.data : "");
    return k ? k : (a->thread > b->thread) - (a->thread < b->thread);
}

/* Whether the thread part of w is its tid already ("stream 7"). */
static bool part_is_tid(const struct thr *th, const struct label_work *w)
{
    if (th->name && *th->name)
        return false;
    return th->tid.kind == TF_ID_STR || (w->thr.data && strncmp(w->thr.data, "tid ", 4) == 0);
}

/* One round of telling alike labels apart: in each run of equal labels,
 * a label that is a process's alone gets the pid when the processes
 * differ; others get the tid in the thread part when the tids differ (and
 * the part is not the tid already), else the pid in the process part when
 * the processes differ, else (last round) a count ("#2").  Returns whether
 * any labels were alike. */
static bool tell_apart(const struct chrome *c, struct label_work **v, size_t n, bool last)
{
    qsort(v, n, sizeof *v, by_whole);
    bool alike = false;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && strcmp(v[j]->whole.data ? v[j]->whole.data : "",
                               v[i]->whole.data ? v[i]->whole.data : "") == 0)
            j++;
        if (j - i > 1) {
            alike = true;
            const struct thr *t0 = &c->thrs[v[i]->thread];
            bool tids = false, procs = false;
            for (size_t k = i + 1; k < j; k++) {
                const struct thr *tk = &c->thrs[v[k]->thread];
                procs |= tk->proc != t0->proc;
                tids |= tf_chrome_cmp_id(&tk->tid, &t0->tid) != 0 && !part_is_tid(tk, v[k]);
            }
            tids = tids && !part_is_tid(t0, v[i]);
            for (size_t k = i; k < j; k++) {
                struct label_work *w = v[k];
                const struct thr *th = &c->thrs[w->thread];
                bool only = w->proc.data && w->thr.data && strcmp(w->proc.data, w->thr.data) == 0;
                if (only && procs) {
                    /* Processes' only lanes, labelled by the process: the
                     * pid tells them apart. */
                    tf_buf_puts(&w->proc, " (pid ");
                    id_text(&w->proc, &c->procs[th->proc].pid);
                    tf_buf_putc(&w->proc, ')');
                    tf_buf_clear(&w->thr);
                    tf_buf_puts(&w->thr, w->proc.data ? w->proc.data : "");
                } else if (tids && th->tid.kind == TF_ID_NONE) {
                    /* a process's own lane (its counters) among threads
                     * of its name: the threads take their tids, it keeps
                     * its name ("(tid ?)" would say nothing) */
                } else if (tids && only) {
                    tf_buf_clear(&w->thr);
                    tf_buf_puts(&w->thr, "tid ");
                    id_text(&w->thr, &th->tid);
                } else if (tids) {
                    tf_buf_puts(&w->thr, " (tid ");
                    id_text(&w->thr, &th->tid);
                    tf_buf_putc(&w->thr, ')');
                } else if (procs) {
                    tf_buf_puts(&w->proc, " (pid ");
                    id_text(&w->proc, &c->procs[th->proc].pid);
                    tf_buf_putc(&w->proc, ')');
                    if (only) {
                        tf_buf_clear(&w->thr);
                        tf_buf_puts(&w->thr, w->proc.data ? w->proc.data : "");
                    }
                } else if (last && k > i) {
                    tf_buf_printf(&w->thr, " #%zu", k - i + 1);
                    if (only)
                        tf_buf_printf(&w->proc, " #%zu", k - i + 1);
                }
                join(w);
            }
        }
        i = j;
    }
    return alike;
}

/* The text of b, for the caller to free (b is left empty): its own
 * memory, not a copy.  NULL when out of memory. */
static char *take(struct tf_buf *b)
{
    char *s = b->data ? b->data : strdup("");
    tf_buf_init(b);
    return s;
}

/* A lane's process part and its place, to sort by (no static context:
 * two traces may be built at once). */
struct proc_key {
    const char *proc;
    size_t i;
};

static int by_proc_label(const void *x, const void *y)
{
    const struct proc_key *a = x, *b = y;
    int k = strcmp(a->proc, b->proc);
    return k ? k : (a->i > b->i) - (a->i < b->i);
}

bool tf_chrome_labels(const struct chrome *c, const size_t *ts, size_t n,
                      struct chrome_label *out)
{
    memset(out, 0, n * sizeof *out);
    struct label_work *w = calloc(n ? n : 1, sizeof *w);
    struct label_work **v = calloc(n ? n : 1, sizeof *v);
    size_t *in_proc = calloc(c->n_procs ? c->n_procs : 1, sizeof *in_proc);
    bool ok = w && v && in_proc;
    for (size_t i = 0; ok && i < n; i++) /* a process's counters do not count */
        in_proc[c->thrs[ts[i]].proc] += !c->thrs[ts[i]].counter;
    for (size_t i = 0; ok && i < n; i++) {
        const struct thr *th = &c->thrs[ts[i]];
        w[i].thread = ts[i];
        tf_buf_init(&w[i].proc);
        tf_buf_init(&w[i].thr);
        tf_buf_init(&w[i].whole);
        bool named = tf_chrome_proc_label(&c->procs[th->proc], &w[i].proc);
        thread_part(th, named, in_proc[th->proc] == 1, w[i].proc.data ? w[i].proc.data : "",
                    &w[i].thr);
        join(&w[i]);
        v[i] = &w[i];
    }
    /* Alike labels get the smallest difference that tells them apart:
     * the tid, or the pid, or (never seen) a count. */
    for (int round = 0; ok && round < 4 && tell_apart(c, v, n, round == 3); round++)
        ;
    for (size_t i = 0; ok && i < n; i++) {
        ok = !w[i].proc.oom && !w[i].thr.oom && !w[i].whole.oom;
        out[i].label = ok ? take(&w[i].whole) : NULL;
        out[i].proc = ok ? take(&w[i].proc) : NULL;
        out[i].thread = ok ? take(&w[i].thr) : NULL;
        ok = ok && out[i].label && out[i].proc && out[i].thread;
    }
    /* The groups: two processes never share one, even where their lanes'
     * labels differ by the tid.  By process label, the runs holding more
     * than one process. */
    bool *shared = calloc(n ? n : 1, sizeof *shared);
    struct proc_key *pk = calloc(n ? n : 1, sizeof *pk);
    ok = ok && shared && pk;
    for (size_t i = 0; ok && i < n; i++)
        pk[i] = (struct proc_key){out[i].proc, i};
    if (ok && n > 1)
        qsort(pk, n, sizeof *pk, by_proc_label);
    for (size_t i = 0; ok && i < n;) {
        size_t j = i + 1;
        bool several = false;
        while (j < n && strcmp(pk[j].proc, pk[i].proc) == 0) {
            several |= c->thrs[w[pk[j].i].thread].proc != c->thrs[w[pk[i].i].thread].proc;
            j++;
        }
        for (size_t k = i; several && k < j; k++)
            shared[pk[k].i] = true;
        i = j;
    }
    free(pk);
    for (size_t i = 0; ok && i < n; i++) {
        const struct thr *th = &c->thrs[w[i].thread];
        struct tf_buf g;
        tf_buf_init(&g);
        tf_buf_puts(&g, out[i].proc);
        if (shared[i]) {
            tf_buf_puts(&g, " (pid ");
            id_text(&g, &c->procs[th->proc].pid);
            tf_buf_putc(&g, ')');
        }
        out[i].group = g.oom ? NULL : take(&g);
        ok = out[i].group != NULL;
        tf_buf_fini(&g);
    }
    free(shared);
    for (size_t i = 0; w && i < n; i++) {
        tf_buf_fini(&w[i].proc);
        tf_buf_fini(&w[i].thr);
        tf_buf_fini(&w[i].whole);
    }
    free(w);
    free(v);
    free(in_proc);
    if (!ok)
        tf_chrome_labels_fini(out, n);
    return ok;
}

void tf_chrome_labels_fini(struct chrome_label *l, size_t n)
{
    for (size_t i = 0; l && i < n; i++) {
        free(l[i].label);
        free(l[i].proc);
        free(l[i].thread);
        free(l[i].group);
        l[i].label = l[i].proc = l[i].thread = l[i].group = NULL;
    }
}

/* Kineto's thread names carry the id: "thread 4037 (python3.8)" is the
 * name "python3.8" and the id "4037". */
static bool kineto_thread(const char *s, struct tf_buf *name, struct tf_buf *id)
{
    if (strncmp(s, "thread ", 7) != 0)
        return false;
    const char *d = s + 7, *e = d;
    while (*e >= '0' && *e <= '9')
        e++;
    size_t n = strlen(e);
    if (e == d || n < 3 || e[0] != ' ' || e[1] != '(' || e[n - 1] != ')')
        return false;
    tf_buf_putn(name, e + 2, n - 3);
    tf_buf_putn(id, d, (size_t)(e - d));
    return true;
}

bool tf_chrome_split_label(const char *label, struct tf_buf *group, struct tf_buf *name,
                           struct tf_buf *id)
{
    const char *slash = label ? strstr(label, " / ") : NULL;
    if (!slash || slash == label || !slash[3])
        return false;
    tf_buf_putn(group, label, (size_t)(slash - label));
    if (!kineto_thread(slash + 3, name, id))
        tf_buf_puts(name, slash + 3);
    return true;
}

bool tf_chrome_lane_parts(const struct chrome *c, const struct lane *ln, struct tf_buf *group,
                          struct tf_buf *name, struct tf_buf *id)
{
    const struct thr *th = &c->thrs[ln->thread];
    if (!ln->lbl.label || !ln->lbl.proc || strcmp(ln->lbl.label, ln->lbl.proc) == 0)
        return false;
    /* The process as told apart from every other ("Renderer (pid 20)");
     * the thread's own name and the id that tells it from a namesake. */
    tf_buf_puts(group, ln->lbl.group ? ln->lbl.group : ln->lbl.proc);
    struct tf_buf tn;
    tf_buf_init(&tn);
    if (th->name && *th->name)
        tf_chrome_trimmed(th->name, &tn);
    tf_chrome_cap(&tn, 0, TF_CHROME_LABEL_MAX);
    if (tn.len && kineto_thread(tn.data, name, id)) {
        tf_buf_fini(&tn);
        return true;
    }
    if (tn.len) {
        tf_buf_puts(name, tn.data);
        if (th->tid.kind == TF_ID_NUM)
            tf_buf_printf(id, "%lld", th->tid.num);
    } else if (th->tid.kind == TF_ID_STR) {
        tf_chrome_trimmed(th->tid.str, name); /* "stream 7", the loader's "async cat" */
        tf_chrome_cap(name, 0, TF_CHROME_LABEL_MAX);
    } else {
        tf_buf_puts(name, "tid ");
        id_text(name, &th->tid);
    }
    if (tn.oom)
        name->oom = true;
    tf_buf_fini(&tn);
    return true;
}
