/* ftrace.c - ftrace text (trace-cmd report, the tracing file, atrace,
 * systrace), read line by line into the Perfetto loader's ftrace state;
 * see ftrace.h.
 *
 * One model.  A trace's lines drive the same `struct pf` as a Perfetto
 * trace's ftrace bundles (pftrace_int.h): sched_switch is
 * pf_sched_switch, a mark is pf_atrace_line (atrace.c, read exactly as the
 * Perfetto loader reads print events), cpu_frequency and cpu_idle are
 * pf_cpu_counter, and pftrace.c's passes (pf_first, pf_second) give the
 * sink the same records, names and CPU lane order; so the rules, colours
 * and statistics are the Perfetto trace's.
 *
 * A line.  `TASK-PID (TGID) [CPU] FLAGS SECONDS.FRACTION: EVENT: FIELDS`
 * (perf script's `TASK TID [CPU] SECONDS: SUBSYSTEM:EVENT: FIELDS`, or
 * `TASK PID/TID`; trace-cmd report -l's `TASK-PID CPUFLAGS SECONDS:`):
 * the CPU column `[NNN]` is the anchor (a task's name may hold spaces, '-'
 * and brackets); before it an optional `(TGID)` (`(-----)`: unknown) and
 * `-PID`, after it optional flags (trace-cmd report has none) and the
 * time.  `adb shell atrace` prints `capturing trace...` and `TRACE:` first.  sched_switch's fields come as `prev_comm=A prev_pid=1 ... ==>
 * next_comm=B next_pid=2 ...` or, from trace-cmd report, as `A:1 [120] S
 * ==> B:2 [120]`.  Lines starting '#', and trace-cmd's `version = 6`,
 * `cpus=N` and `CPU N is empty` headers, are headers; other lines that do
 * not parse are skipped and counted in one warning.
 *
 * Names (pass 0).  The task column names a thread; with a TGID, it names
 * the thread's process too (its tgid), and the process itself when the
 * thread is its main one (pid = tgid).  sched_switch, sched_wakeup,
 * task_newtask and task_rename name threads by their comms.
 *
 * Times are ns (the text's seconds, exactly).  A `trace_event_clock_sync`
 * mark is no event (its time may be 0); in a JSON's systemTraceEvents its
 * `parent_ts=S` puts the text on the JSON's clock (S seconds there is
 * the mark's time here).
 */
#include "load/ftrace.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/ftrace_int.h"
#include "load/pftrace_int.h"

/* The atrace events that wait to be put in time order (pf.aev_max). */
#define FT_AEV_MAX ((size_t)4096)
/* CPUs past this are not drawn (as pftrace_ftrace.c's MAX_CPUS) */
#define FT_MAX_CPUS 4096

struct ev {
    const char *task;
    size_t task_n;
    int64_t pid, tgid; /* tgid -1: not given */
    uint64_t cpu;
    int64_t ts;
    const char *name, *args;
    size_t name_n, args_n;
};

struct tf_ftrace_text {
    struct pf p;
    struct ft_lines l;
    bool json;            /* systemTraceEvents: the JSON's clock */
    int64_t offset;       /* added to every time (parent_ts) */
    char *text;           /* the decoded string (json) */
    struct pf_map marked; /* tids that write atrace marks (pass 0) */
    size_t n_lines;       /* event lines (pass 0) */
    size_t n_skipped;
    uint64_t first_skipped;
    /* lost events ("CPU:N [LOST M EVENTS]"), per CPU: the last event's
     * time, the count waiting for the CPU's next event (passes 1, 2) */
    struct ft_cpu {
        int64_t last;
        uint64_t pending;
        bool seen, waiting, lost;
    } *cpus;
    size_t n_cpus;
    uint64_t n_lost;      /* events lost, all CPUs (pass 0) */
    size_t n_lost_lines;  /* the LOST lines (pass 0) */
    int64_t first_ts;     /* the first event's time (a loss before any) */
    bool any_ts;
};

/* --- reading a line ---------------------------------------------------------------- */

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t';
}

/* Digits s[0 .. n) as a number (false: none, another byte, or too long). */
static bool num(const char *s, size_t n, int64_t *v)
{
    if (n == 0 || n > 18)
        return false;
    int64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        if (!is_digit(s[i]))
            return false;
        x = x * 10 + (s[i] - '0');
    }
    *v = x;
    return true;
}

/* "SECONDS.FRACTION" (the fraction up to 9 digits) as ns. */
static bool seconds(const char *s, size_t n, int64_t *ns)
{
    const char *dot = memchr(s, '.', n);
    size_t ni = dot ? (size_t)(dot - s) : n;
    int64_t sec, frac = 0;
    if (!num(s, ni, &sec) || sec > INT64_C(9000000000))
        return false;
    if (dot) {
        size_t nf = n - ni - 1;
        if (nf == 0 || nf > 9 || !num(dot + 1, nf, &frac))
            return false;
        for (size_t i = nf; i < 9; i++)
            frac *= 10;
    }
    *ns = sec * INT64_C(1000000000) + frac;
    return true;
}

/* An event's time: "SECONDS.FRACTION", or a count without a fraction (a
 * raw clock's, trace_clock counter or x86-tsc, printed as it is): taken
 * as ns. */
static bool stamp(const char *s, size_t n, int64_t *ns)
{
    if (memchr(s, '.', n))
        return seconds(s, n, ns);
    return num(s, n, ns);
}

/* The token at s[*i ..) up to a blank: its length; *i moved past it and
 * the blanks after it. */
static size_t token(const char *s, size_t n, size_t *i, const char **t)
{
    size_t a = *i;
    while (*i < n && !is_space(s[*i]))
        (*i)++;
    *t = s + a;
    size_t len = *i - a;
    while (*i < n && is_space(s[*i]))
        (*i)++;
    return len;
}

/* The left of the CPU column, s[0 .. k): `TASK-PID`, then an optional
 * `(TGID)` (`(-----)`: unknown). */
static bool task_pid(const char *s, size_t k, struct ev *ev)
{
    while (k > 0 && is_space(s[k - 1]))
        k--;
    ev->tgid = -1;
    if (k > 0 && s[k - 1] == ')') {
        size_t o = k - 1;
        while (o > 0 && s[o] != '(')
            o--;
        if (s[o] != '(')
            return false;
        size_t a = o + 1, z = k - 1;
        while (a < z && is_space(s[a]))
            a++;
        while (z > a && is_space(s[z - 1]))
            z--;
        bool dashes = a < z;
        for (size_t i = a; i < z; i++)
            dashes = dashes && s[i] == '-';
        if (!dashes && !num(s + a, z - a, &ev->tgid))
            return false;
        k = o;
        while (k > 0 && is_space(s[k - 1]))
            k--;
    }
    size_t pe = k;
    while (k > 0 && is_digit(s[k - 1]))
        k--;
    if (k == pe || k == 0 || !num(s + k, pe - k, &ev->pid))
        return false;
    if (s[k - 1] != '-') {
        /* perf script's `COMM TID` or `COMM PID/TID` */
        if (ev->tgid >= 0 || (!is_space(s[k - 1]) && s[k - 1] != '/'))
            return false;
        if (s[k - 1] == '/') {
            size_t d = --k;
            while (k > 0 && is_digit(s[k - 1]))
                k--;
            if (k == d || k == 0 || !is_space(s[k - 1]) || !num(s + k, d - k, &ev->tgid))
                return false;
        }
        while (k > 0 && is_space(s[k - 1]))
            k--;
        if (k == 0)
            return false;
        k++; /* as past a '-' */
    }
    size_t a = 0;
    while (a < k - 1 && is_space(s[a]))
        a++;
    ev->task = s + a;
    ev->task_n = k - 1 - a;
    return true;
}

/* The right of the CPU column, from s[i]: optional flags (when `flags`),
 * the time `SECONDS.FRACTION:`, the event and its fields. */
static bool time_event(const char *s, size_t n, size_t i, bool flags, struct ev *ev)
{
    while (i < n && is_space(s[i]))
        i++;
    const char *t;
    size_t tn = token(s, n, &i, &t);
    if (tn < 2 || t[tn - 1] != ':' || !stamp(t, tn - 1, &ev->ts)) {
        if (!flags)
            return false;
        tn = token(s, n, &i, &t);
        if (tn < 2 || t[tn - 1] != ':' || !stamp(t, tn - 1, &ev->ts))
            return false;
    }
    size_t nm = i;
    while (i < n && !is_space(s[i]) && s[i] != ':')
        i++;
    if (i + 1 < n && s[i] == ':' && !is_space(s[i + 1]) && i > nm) {
        /* perf script's `SUBSYSTEM:EVENT:` (sched:sched_switch) */
        nm = ++i;
        while (i < n && !is_space(s[i]) && s[i] != ':')
            i++;
    }
    if (i == nm)
        return false;
    ev->name = s + nm;
    ev->name_n = i - nm;
    if (i < n && s[i] == ':')
        i++;
    while (i < n && is_space(s[i]))
        i++;
    ev->args = s + i;
    ev->args_n = n - i;
    return true;
}

/* The line as an event, with the CPU column at s[b] ('[') to s[e] (']'). */
static bool event_at(const char *s, size_t n, size_t b, size_t e, struct ev *ev)
{
    int64_t cpu;
    if (!num(s + b + 1, e - b - 1, &cpu))
        return false;
    ev->cpu = (uint64_t)cpu;
    return task_pid(s, b, ev) && time_event(s, n, e + 1, true, ev);
}

/* trace-cmd report -l's latency columns: `TASK-PID CPUFLAGS SECONDS:`,
 * the task cut to 8 bytes, the CPU number right-aligned without brackets
 * and the flags (`d..2.`) straight after it: `<idle>-0     1d..2. 5.1:`. */
static bool parse_latency(const char *s, size_t n, struct ev *ev)
{
    for (size_t b = 1; b < n; b++) {
        if (!is_digit(s[b]) || !is_space(s[b - 1]))
            continue;
        size_t e = b;
        while (e < n && is_digit(s[e]))
            e++;
        size_t f = e;
        while (f < n && !is_space(s[f]))
            f++;
        if (f == n || s[f - 1] == ':')
            continue; /* the time, not the CPU */
        int64_t cpu;
        if (!num(s + b, e - b, &cpu))
            continue;
        ev->cpu = (uint64_t)cpu;
        if (task_pid(s, b, ev) && time_event(s, n, f, false, ev))
            return true;
    }
    return false;
}

static bool parse_event(const char *s, size_t n, struct ev *ev)
{
    for (size_t b = 1; b < n; b++) {
        if (s[b] != '[' || !is_space(s[b - 1]))
            continue;
        size_t e = b + 1;
        while (e < n && is_digit(s[e]))
            e++;
        if (e > b + 1 && e < n && s[e] == ']' && event_at(s, n, b, e, ev))
            return true;
    }
    return parse_latency(s, n, ev);
}

static bool starts(const char *s, size_t n, const char *what)
{
    size_t k = strlen(what);
    return n >= k && memcmp(s, what, k) == 0;
}

static bool is_header(const char *s, size_t n)
{
    return (n && s[0] == '#') || starts(s, n, "version = ") || starts(s, n, "cpus=") ||
           starts(s, n, "TRACE:") || starts(s, n, "capturing trace...") ||
           (starts(s, n, "CPU ") && n > 9 && memcmp(s + n - 9, " is empty", 9) == 0) ||
           starts(s, n, "CPU:");
}

static const char *find(const char *s, size_t n, const char *what)
{
    size_t k = strlen(what);
    for (size_t i = 0; i + k <= n; i++)
        if (s[i] == what[0] && memcmp(s + i, what, k) == 0)
            return s + i;
    return NULL;
}

/* The value of `key` ("pid=") in fields s[0 .. n): up to `next` (" pid=")
 * when given and found, else up to a blank. */
static bool field(const char *s, size_t n, const char *key, const char *next, const char **v,
                  size_t *vn)
{
    const char *k = find(s, n, key);
    while (k && k > s && !is_space(k[-1])) /* "next_pid=" is not "pid=" */
        k = find(k + 1, n - (size_t)(k + 1 - s), key);
    if (!k)
        return false;
    *v = k + strlen(key);
    size_t rest = n - (size_t)(*v - s);
    const char *end = next ? find(*v, rest, next) : NULL;
    if (!end) {
        end = *v;
        while (end < s + n && !is_space(*end))
            end++;
    }
    *vn = (size_t)(end - *v);
    return true;
}

static bool field_num(const char *s, size_t n, const char *key, int64_t *v)
{
    const char *t;
    size_t tn;
    return field(s, n, key, NULL, &t, &tn) && num(t, tn, v);
}

/* trace-cmd report's "COMM:PID [PRIO]" (the part before " [" or all). */
static bool comm_pid(const char *s, size_t n, const char **comm, size_t *cn, int64_t *pid)
{
    const char *br = find(s, n, " [");
    size_t m = br ? (size_t)(br - s) : n;
    while (m && is_space(s[m - 1]))
        m--;
    size_t c = m;
    while (c > 0 && s[c - 1] != ':')
        c--;
    if (c == 0 || !num(s + c, m - c, pid))
        return false;
    size_t a = 0;
    while (a < c - 1 && is_space(s[a]))
        a++;
    /* kernels before 2.6.35 print "task COMM:PID [PRIO] (S) ==> ..." */
    if (c - 1 - a > 5 && memcmp(s + a, "task ", 5) == 0)
        a += 5;
    *comm = s + a;
    *cn = c - 1 - a;
    return true;
}

struct sw {
    const char *prev, *next;
    size_t prev_n, next_n;
    int64_t prev_pid, next_pid;
};

static bool parse_switch(const char *s, size_t n, struct sw *w)
{
    if (find(s, n, "next_pid=")) {
        return field(s, n, "prev_comm=", " prev_pid=", &w->prev, &w->prev_n) &&
               field_num(s, n, "prev_pid=", &w->prev_pid) &&
               field(s, n, "next_comm=", " next_pid=", &w->next, &w->next_n) &&
               field_num(s, n, "next_pid=", &w->next_pid);
    }
    const char *arrow = find(s, n, " ==> ");
    if (!arrow)
        return false;
    const char *r = arrow + 5;
    return comm_pid(s, (size_t)(arrow - s), &w->prev, &w->prev_n, &w->prev_pid) &&
           comm_pid(r, n - (size_t)(r - s), &w->next, &w->next_n, &w->next_pid);
}

/* --- events ------------------------------------------------------------------------ */

static bool name_is(const struct ev *e, const char *what)
{
    return e->name_n == strlen(what) && memcmp(e->name, what, e->name_n) == 0;
}

/* A mark's text (tracing_mark_write, Android 4.1's "0", trace-cmd's print
 * with the writer's symbol first), or NULL. */
static const char *mark(const struct ev *e, size_t *n)
{
    const char *s = e->args;
    *n = e->args_n;
    if (!name_is(e, "tracing_mark_write") && !name_is(e, "0")) {
        if (!name_is(e, "print"))
            return NULL;
        size_t k = 0;
        while (k < e->args_n && !is_space(s[k]))
            k++;
        if (k > 1 && s[k - 1] == ':' && k < e->args_n) {
            *n = e->args_n - k - 1;
            s += k + 1;
        }
    }
    /* the writer's own newline, as trace-cmd may print it (a backslash
     * and an 'n'), and blanks after the text */
    for (;;) {
        if (*n && is_space(s[*n - 1]))
            --*n;
        else if (*n >= 2 && s[*n - 2] == '\\' && s[*n - 1] == 'n')
            *n -= 2;
        else
            break;
    }
    return s;
}

static uint32_t str_of(struct tf_ftrace_text *f, const char *s, size_t n)
{
    return pf_str(&f->p, (const uint8_t *)s, n);
}

/* Pass 0: what the line names, and the clock (false: out of memory). */
static bool learn(struct tf_ftrace_text *f, const struct ev *e)
{
    struct pf *p = &f->p;
    bool named = e->task_n && !(e->task_n == 5 && memcmp(e->task, "<...>", 5) == 0) &&
                 e->pid != 0;
    uint32_t task = named ? str_of(f, e->task, e->task_n) : 0;
    if (e->pid != 0) {
        pf_name_thread(p, e->pid, e->tgid, task, 1);
        if (e->tgid > 0 && e->tgid == e->pid)
            pf_name_proc(p, e->tgid, task, 1);
    }
    const char *v;
    size_t vn;
    int64_t pid;
    size_t mn;
    const char *m = mark(e, &mn);
    if (m) {
        p->other_lanes = true;
        if (mn >= 2 && m[1] == '|' && e->pid > 0) {
            if (!pf_map_put(&f->marked, (uint64_t)e->pid, 1))
                return false;
            /* B|tgid|..., C|, S|, F|: the writer's process */
            const char *bar = memchr(m + 2, '|', mn - 2);
            int64_t tgid;
            if (bar && num(m + 2, (size_t)(bar - m - 2), &tgid) && tgid > 0)
                pf_name_thread(p, e->pid, tgid, 0, 0);
        }
        if (starts(m, mn, "trace_event_clock_sync:") && f->json &&
            field(m, mn, "parent_ts=", NULL, &v, &vn)) {
            int64_t parent;
            if (seconds(v, vn, &parent))
                f->offset = parent - e->ts;
        }
        return true;
    }
    if (name_is(e, "sched_switch")) {
        struct sw w;
        p->other_lanes = true;
        if (!parse_switch(e->args, e->args_n, &w))
            return true;
        if (w.prev_pid)
            pf_name_thread(p, w.prev_pid, -1, str_of(f, w.prev, w.prev_n), 1);
        if (w.next_pid)
            pf_name_thread(p, w.next_pid, -1, str_of(f, w.next, w.next_n), 1);
        return true;
    }
    if (starts(e->name, e->name_n, "sched_wak")) {
        if (field_num(e->args, e->args_n, "pid=", &pid) &&
            field(e->args, e->args_n, "comm=", " pid=", &v, &vn)) {
            if (pid)
                pf_name_thread(p, pid, -1, str_of(f, v, vn), 1);
        } else if (comm_pid(e->args, e->args_n, &v, &vn, &pid) && pid) {
            pf_name_thread(p, pid, -1, str_of(f, v, vn), 1);
        }
        return true;
    }
    const char *key = name_is(e, "task_newtask") ? "comm=" : name_is(e, "task_rename")
                                                                  ? "newcomm="
                                                                  : NULL;
    if (key && field_num(e->args, e->args_n, "pid=", &pid) && pid &&
        field(e->args, e->args_n, key, NULL, &v, &vn))
        pf_name_thread(p, pid, -1, str_of(f, v, vn), 1);
    return true;
}

/* Another event: an instant by its name on its thread's lane (its TID),
 * which draws it when the thread has slices (atrace marks) or when --lanes
 * or room in the figure chooses a lane of instants alone: such lanes come
 * after those of slices (rules/chrome/lanes.c), so they neither crowd the
 * threads' slices out nor move the default window, and the CPU lanes keep
 * showing what ran.  The idle task's (pid 0) have no thread: not drawn. */
static bool instant(struct tf_ftrace_text *f, const struct ev *e, int64_t ts)
{
    if (e->pid <= 0)
        return true;
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)e->name_n, e->name);
    int64_t tgid = e->tgid;
    uint64_t k;
    if (tgid <= 0) {
        tgid = e->pid;
        if (pf_map_get(&f->p.thr_of, (uint64_t)e->pid, &k) && f->p.thrs[k - 1].tgid >= 0)
            tgid = f->p.thrs[k - 1].tgid;
    }
    struct tf_tef_rec r;
    memset(&r, 0, sizeof r);
    r.kind = TF_TEF_INSTANT;
    r.ph = 'i';
    r.scope = 't';
    r.pid = (struct tf_id){TF_ID_NUM, tgid, NULL};
    r.tid = (struct tf_id){TF_ID_NUM, e->pid, NULL};
    r.name = name;
    r.cat = "ftrace";
    r.ts = ts;
    return pf_emit(&f->p, &r);
}

/* Passes 1 and 2: the line's records. */
static bool apply(struct tf_ftrace_text *f, const struct ev *e)
{
    struct pf *p = &f->p;
    int64_t ts = e->ts + f->offset;
    size_t mn;
    const char *m = mark(e, &mn);
    if (m) {
        if (starts(m, mn, "trace_event_clock_sync:"))
            return true; /* no event: its time may be 0 */
        return pf_atrace_line(p, e->pid, m, mn, ts);
    }
    if (name_is(e, "sched_switch")) {
        struct sw w;
        if (!parse_switch(e->args, e->args_n, &w))
            return true;
        if (!pf_sched_switch(p, e->cpu, ts, w.next_pid, str_of(f, w.next, w.next_n)))
            return false;
        if (w.prev_pid)
            pf_name_thread(p, w.prev_pid, -1, str_of(f, w.prev, w.prev_n), 1);
        return true;
    }
    if (starts(e->name, e->name_n, "sched_wak") || name_is(e, "task_newtask") ||
        name_is(e, "task_rename"))
        return true; /* names (pass 0) */
    bool freq = name_is(e, "cpu_frequency");
    if (freq || name_is(e, "cpu_idle")) {
        int64_t state, cpu;
        if (p->other_lanes || !field_num(e->args, e->args_n, "state=", &state) ||
            !field_num(e->args, e->args_n, "cpu_id=", &cpu))
            return true; /* off when the figure has other lanes, as for Perfetto */
        return pf_cpu_counter(p, (uint64_t)cpu, freq ? "cpufreq" : "cpuidle", ts,
                              !freq && state == INT64_C(4294967295) ? -1.0 : (double)state);
    }
    return instant(f, e, ts);
}

/* The state of cpu for lost events (NULL: out of memory or past
 * FT_MAX_CPUS, whose events are not drawn either). */
static struct ft_cpu *ft_cpu(struct tf_ftrace_text *f, uint64_t cpu)
{
    if (cpu >= FT_MAX_CPUS)
        return NULL;
    if (cpu >= f->n_cpus) {
        size_t n = (size_t)cpu + 1;
        struct ft_cpu *v = realloc(f->cpus, n * sizeof *v);
        if (!v)
            return NULL;
        memset(v + f->n_cpus, 0, (n - f->n_cpus) * sizeof *v);
        f->cpus = v;
        f->n_cpus = n;
    }
    return &f->cpus[cpu];
}

/* "CPU:N [LOST M EVENTS]" (the tracing file), "CPU:N [M EVENTS DROPPED]"
 * (trace-cmd report), "CPU:N [LOST EVENTS]" or "CPU:N [EVENTS DROPPED]" (a
 * count unknown): true with *cpu and *n (0: unknown). */
static bool lost_line(const char *s, size_t n, uint64_t *cpu, uint64_t *count)
{
    if (!starts(s, n, "CPU:"))
        return false;
    size_t i = 4, b = 4;
    while (i < n && is_digit(s[i]))
        i++;
    int64_t c, k = 0;
    if (!num(s + b, i - b, &c) || !starts(s + i, n - i, " ["))
        return false;
    i += 2;
    bool lost = starts(s + i, n - i, "LOST ");
    if (lost)
        i += 5;
    b = i;
    while (i < n && is_digit(s[i]))
        i++;
    if (i > b && !num(s + b, i - b, &k))
        return false;
    while (i < n && is_space(s[i]))
        i++;
    if (!starts(s + i, n - i, lost ? "EVENTS]" : "EVENTS DROPPED]"))
        return false;
    *cpu = (uint64_t)c;
    *count = (uint64_t)k;
    return true;
}

/* Passes 1, 2: the CPU's events lost before this event of it, drawn as
 * lost from its last event (or the trace's first) to this one. */
static bool lost_before(struct tf_ftrace_text *f, const struct ev *e)
{
    struct ft_cpu *c = ft_cpu(f, e->cpu);
    if (!c)
        return e->cpu >= FT_MAX_CPUS ? true : tf_diag_oom(f->p.d, f->p.file);
    int64_t ts = e->ts + f->offset;
    bool ok = true;
    if (c->waiting)
        ok = pf_cpu_lost(&f->p, e->cpu, c->seen ? c->last : f->first_ts + f->offset, ts,
                         c->pending);
    c->waiting = false;
    c->pending = 0;
    c->seen = true;
    c->last = ts;
    return ok;
}

static bool line(struct tf_ftrace_text *f, const char *s, size_t n)
{
    size_t a = 0;
    while (a < n && is_space(s[a]))
        a++;
    uint64_t lcpu, lcount;
    if (a < n && lost_line(s + a, n - a, &lcpu, &lcount)) {
        struct ft_cpu *c = ft_cpu(f, lcpu);
        if (!c)
            return lcpu >= FT_MAX_CPUS ? true : tf_diag_oom(f->p.d, f->p.file);
        if (f->p.pass == 0) {
            f->n_lost += lcount;
            f->n_lost_lines++;
            c->lost = true;
        } else {
            c->waiting = true;
            c->pending += lcount;
        }
        return true;
    }
    if (a == n || is_header(s + a, n - a))
        return true;
    struct ev e;
    if (!parse_event(s, n, &e)) {
        if (f->p.pass == 0 && f->n_skipped++ == 0)
            f->first_skipped = f->l.lineno;
        return true;
    }
    size_t mn;
    const char *m = mark(&e, &mn);
    bool sync = m && starts(m, mn, "trace_event_clock_sync:"); /* its time may be 0 */
    if (!f->any_ts && !sync) {
        f->any_ts = true;
        f->first_ts = e.ts;
    }
    if (f->p.pass == 0) {
        f->n_lines++;
        return learn(f, &e) || tf_diag_oom(f->p.d, f->p.file);
    }
    if (f->n_lost_lines && !sync && !lost_before(f, &e))
        return false;
    return apply(f, &e);
}

/* A process the text names only through its threads: its main thread's
 * name (its comm), as when the process's own line is missing. */
static void name_processes(struct pf *p)
{
    for (size_t i = 0; i < p->n_thrs; i++) {
        int64_t tgid = p->thrs[i].tgid;
        uint64_t k, j;
        if (tgid <= 0 || !pf_map_get(&p->thr_of, (uint64_t)tgid, &k) || !p->thrs[k - 1].name)
            continue;
        if (pf_map_get(&p->proc_of, (uint64_t)tgid, &j) && p->procs[j - 1].name)
            continue;
        pf_name_proc(p, tgid, p->thrs[k - 1].name, 1);
    }
}

/* One pass over the lines (pftrace.c's p->read). */
static bool read_lines(struct pf *p)
{
    struct tf_ftrace_text *f = p->read_ctx;
    if (!ft_lines_rewind(&f->l))
        return false;
    if (p->pass == 0) {
        f->n_lines = f->n_skipped = 0;
        f->first_skipped = 0;
        f->n_lost = 0;
        f->n_lost_lines = 0;
        f->any_ts = false;
    }
    for (size_t i = 0; i < f->n_cpus; i++) {
        bool lost = f->cpus[i].lost && p->pass != 0;
        f->cpus[i] = (struct ft_cpu){.lost = lost};
    }
    const char *s;
    size_t n;
    int k;
    while ((k = ft_lines_next(&f->l, &s, &n)) > 0)
        if (!line(f, s, n))
            return false;
    if (k == 0 && p->pass == 0)
        name_processes(p);
    return k == 0;
}

/* --- the loaders ------------------------------------------------------------------- */

static struct tf_ftrace_text *text_new(const char *file, const struct tf_tef_sink *sink,
                                       struct tf_diag *d)
{
    struct tf_ftrace_text *f = calloc(1, sizeof *f);
    if (!f) {
        tf_diag_oom(d, file);
        return NULL;
    }
    if (!pf_init(&f->p, file, sink, d)) {
        pf_free(&f->p);
        free(f);
        return NULL;
    }
    f->p.read = read_lines;
    f->p.read_ctx = f;
    /* the text's lines are in time order across CPUs (the tracing file and
     * trace-cmd report merge them): a short wait puts the few ties and
     * stragglers in order, and keeps the memory bounded (atrace.c) */
    f->p.aev_max = FT_AEV_MAX;
    return f;
}

void tf_ftrace_text_free(struct tf_ftrace_text *f)
{
    if (!f)
        return;
    pf_free(&f->p);
    pf_map_fini(&f->marked);
    ft_lines_fini(&f->l);
    free(f->cpus);
    free(f->text);
    free(f);
}

static void warn_skipped(const struct tf_ftrace_text *f)
{
    if (f->n_skipped)
        tf_diag_warn(f->p.d, "%s: %zu line%s neither a header nor an ftrace event, skipped "
                             "(the first: %s %llu)",
                     f->p.file, f->n_skipped, f->n_skipped == 1 ? "" : "s", f->l.where,
                     (unsigned long long)f->first_skipped);
}

/* Lost events: one warning naming the CPUs. */
static void warn_lost(const struct tf_ftrace_text *f)
{
    if (!f->n_lost_lines)
        return;
    struct tf_buf b;
    tf_buf_init(&b);
    size_t k = 0;
    for (size_t i = 0; i < f->n_cpus; i++)
        if (f->cpus[i].lost && k++ < 8)
            tf_buf_printf(&b, "%sCPU %zu", k > 1 ? ", " : "", i);
    if (k > 8)
        tf_buf_printf(&b, " and %zu more", k - 8);
    if (f->n_lost)
        tf_diag_warn(f->p.d, "%s: %llu events lost on %s (the trace's LOST lines): their ranges "
                             "are drawn hatched",
                     f->p.file, (unsigned long long)f->n_lost, b.data ? b.data : "?");
    else
        tf_diag_warn(f->p.d, "%s: events lost on %s (the trace's LOST lines): their ranges are "
                             "drawn hatched",
                     f->p.file, b.data ? b.data : "?");
    tf_buf_fini(&b);
}

static void warn_open(const struct tf_ftrace_text *f)
{
    if (f->p.n_open)
        tf_diag_warn(f->p.d, "%s: %zu atrace slice%s never ended: drawn to the window's end",
                     f->p.file, f->p.n_open, f->p.n_open == 1 ? "" : "s");
}

struct tf_ftrace_text *tf_ftrace_text_new(const char *file, const struct tf_tef_sink *sink,
                                          const unsigned char *json, size_t len,
                                          struct tf_diag *d)
{
    json_error_t err;
    json_t *v = json_loadb((const char *)json, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);
    if (!v || !json_is_string(v)) {
        json_decref(v);
        tf_diag_error(d, TF_EBADINPUT, "%s: systemTraceEvents: expected a string", file);
        return NULL;
    }
    size_t n = json_string_length(v);
    struct tf_ftrace_text *f = text_new(file, sink, d);
    char *text = f ? malloc(n ? n : 1) : NULL;
    if (f && !text) {
        tf_diag_oom(d, file);
        tf_ftrace_text_free(f);
        f = NULL;
    }
    if (f) {
        memcpy(text, json_string_value(v), n);
        f->text = text;
        f->json = true;
        if (!ft_lines_init(&f->l, file, NULL, (const unsigned char *)text, n, FT_TEXT, d)) {
            tf_ftrace_text_free(f);
            f = NULL;
        }
    }
    json_decref(v);
    return f;
}

bool tf_ftrace_text_index(struct tf_ftrace_text *f, size_t idx_base)
{
    f->p.idx_base = idx_base;
    if (!pf_first(&f->p))
        return false;
    warn_skipped(f);
    return true;
}

bool tf_ftrace_text_collect(struct tf_ftrace_text *f, int64_t lo, int64_t hi)
{
    if (!pf_second(&f->p, lo, hi))
        return false;
    warn_open(f);
    return true;
}

static bool html_head(const unsigned char *h, size_t n)
{
    size_t i = 0;
    if (n >= 3 && h[0] == 0xef && h[1] == 0xbb && h[2] == 0xbf)
        i = 3;
    for (;;) {
        while (i < n && (h[i] == ' ' || h[i] == '\t' || h[i] == '\r' || h[i] == '\n'))
            i++;
        if (n - i < 4 || memcmp(h + i, "<!--", 4) != 0)
            break;
        /* a comment before the page's tags (a saved page's note) */
        const char *end = find((const char *)h + i + 4, n - i - 4, "-->");
        if (!end)
            return false;
        i = (size_t)((const unsigned char *)end + 3 - h);
    }
    static const char *const tags[] = {"<!doctype html", "<html"};
    for (size_t t = 0; t < 2; t++) {
        size_t k = strlen(tags[t]);
        bool same = n - i >= k;
        for (size_t j = 0; same && j < k; j++) {
            unsigned char c = h[i + j];
            same = (c >= 'A' && c <= 'Z' ? c + 32 : c) == (unsigned char)tags[t][j];
        }
        if (same)
            return true;
    }
    return false;
}

bool tf_ftrace_looks(const unsigned char *h, size_t n)
{
    if (html_head(h, n))
        return true;
    const char *s = (const char *)h;
    size_t i = 0;
    if (n >= 3 && h[0] == 0xef && h[1] == 0xbb && h[2] == 0xbf)
        i = 3; /* a UTF-8 byte order mark, as some editors save text */
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
        i++;
    if (i < n && (s[i] == '{' || s[i] == '['))
        return false; /* JSON, whatever its strings hold */
    /* a few other lines may come first (adb shell atrace's " done") */
    int others = 0;
    while (i < n) {
        const char *nl = memchr(s + i, '\n', n - i);
        if (!nl)
            return false; /* only whole lines are judged */
        size_t len = (size_t)(nl - (s + i));
        const char *ln = s + i;
        if (len && ln[len - 1] == '\r')
            len--;
        i = (size_t)(nl - s) + 1;
        if (starts(ln, len, "# tracer:") || starts(ln, len, "version = ") ||
            starts(ln, len, "cpus="))
            return true;
        if (starts(ln, len, "TRACE:") || starts(ln, len, "capturing trace..."))
            continue; /* adb shell atrace's own lines */
        if (len == 0 || ln[0] == '#')
            continue;
        struct ev e;
        if (parse_event(ln, len, &e))
            return true;
        if (++others == 4)
            return false;
    }
    return false;
}

bool tf_load_ftrace(struct tf_input *in, const char *file, const struct tf_keep *keep,
                    struct tf_trace *out, struct tf_diag *d)
{
    out->kind = TF_TRACE_CHROME;
    out->generic = true;
    if (!keep->tef.index && !keep->tef.collect)
        return true; /* another mode's: nothing of it is read */
    if (keep->tef.columns)
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: --stats-compat hta: HTA reads the Chrome traces of PyTorch's "
                             "profiler, not ftrace text",
                             file);
    unsigned char head[4096];
    ssize_t nh = tf_input_read(in, head, sizeof head);
    if (nh < 0 || !tf_input_seek(in, 0))
        return false;
    bool html = html_head(head, (size_t)nh);
    struct tf_ftrace_text *f = text_new(file, &keep->tef, d);
    if (!f)
        return false;
    bool ok = ft_lines_init(&f->l, file, in, NULL, 0, html ? FT_HTML : FT_TEXT, d) &&
              pf_first(&f->p);
    if (ok && f->n_lines == 0)
        ok = tf_diag_error(d, TF_EBADINPUT,
                           html && f->l.n_blocks == 0
                               ? "%s: an HTML page without systrace data (no <script "
                                 "class=\"trace-data\"> block or linuxPerfData string)"
                               : "%s: no ftrace event line (TASK-PID [CPU] SECONDS: EVENT: "
                                 "FIELDS) in it",
                           file);
    int64_t lo = INT64_MIN, hi = INT64_MAX;
    if (ok && f->p.sink->window && !f->p.sink->window(f->p.sink->ctx, &lo, &hi, d)) {
        tf_diag_prefix(d, file);
        ok = false;
    }
    ok = ok && pf_second(&f->p, lo, hi);
    if (ok && f->p.sink->finish && !f->p.sink->finish(f->p.sink->ctx, d)) {
        tf_diag_prefix(d, file);
        ok = false;
    }
    if (ok) {
        warn_skipped(f);
        warn_lost(f);
        warn_open(f);
    }
    tf_ftrace_text_free(f);
    return ok;
}
