/* ctf_msg.c - one stream's messages (libbabeltrace2's) as the events
 * tracefig draws (ctf_int.h): what a kernel event, a user-space event, a
 * loss is; the rest are not kept.  See ctf.h for what becomes what.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef TF_HAVE_BT2

#include "load/ctf_bt.h"

/* --- fields ---------------------------------------------------------------------- */

/* Member `name` of the event: its payload's, else its contexts'. */
static const bt_field *member(const bt_event *e, const char *name)
{
    const bt_field *s[3] = {tf_ctf_bt.bt_event_borrow_payload_field_const(e),
                            tf_ctf_bt.bt_event_borrow_common_context_field_const(e),
                            tf_ctf_bt.bt_event_borrow_specific_context_field_const(e)};
    for (int i = 0; i < 3; i++) {
        const bt_field *f =
            s[i] ? tf_ctf_bt.bt_field_structure_borrow_member_field_by_name_const(s[i], name) : NULL;
        if (f)
            return f;
    }
    return NULL;
}

static bool int_of(const bt_field *f, int64_t *v)
{
    if (!f)
        return false;
    bt_field_class_type t = tf_ctf_bt.bt_field_get_class_type(f);
    if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
        *v = (int64_t)tf_ctf_bt.bt_field_integer_unsigned_get_value(f);
    else if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
        *v = tf_ctf_bt.bt_field_integer_signed_get_value(f);
    else
        return false;
    return true;
}

static bool int_field(const bt_event *e, const char *name, int64_t *v)
{
    return int_of(member(e, name), v);
}

static const char *str_field(const bt_event *e, const char *name)
{
    const bt_field *f = member(e, name);
    if (!f || !bt_field_class_type_is(tf_ctf_bt.bt_field_get_class_type(f), BT_FIELD_CLASS_TYPE_STRING))
        return NULL;
    return tf_ctf_bt.bt_field_string_get_value(f);
}

static const char *env_str(const bt_trace *t, const char *name)
{
    const bt_value *v = t ? tf_ctf_bt.bt_trace_borrow_environment_entry_value_by_name_const(t, name) : NULL;
    return v && tf_ctf_bt.bt_value_get_type(v) == BT_VALUE_TYPE_STRING ? tf_ctf_bt.bt_value_string_get(v) : NULL;
}

/* --- the sinks ------------------------------------------------------------------- */



static bool push(struct ctf *x, const struct ctf_ev *e)
{
    if (!TF_GROW(x->ev, x->n_ev, x->cap_ev))
        return tf_diag_oom(x->d, x->file);
    x->ev[x->n_ev++] = *e;
    return true;
}

/* N of a stream file's name `CHANNEL_N` (LTTng writes a channel's
 * stream of CPU N so; a rotated file adds `_K`, and the first `_N` after
 * the channel's name is taken then), or -1. */
static int32_t file_cpu(const char *name)
{
    const char *u = strchr(name, '_');
    while (u) {
        const char *d = u + 1;
        long v = 0;
        while (*d >= '0' && *d <= '9' && v < 100000)
            v = v * 10 + (*d++ - '0');
        if (d > u + 1 && (*d == 0 || *d == '_') && v < 100000)
            return (int32_t)v;
        u = strchr(u + 1, '_');
    }
    return -1;
}

/* The CPU of an event of stream st: the packet context's cpu_id, else the
 * event's own (LTTng's cpu_id context), else its file's name's; -1. */
static int32_t event_cpu(const struct ctf_stream *st, const bt_event *ev)
{
    int64_t v;
    if (st->cpu >= 0)
        return st->cpu;
    if (ev && int_field(ev, "cpu_id", &v) && v >= 0 && v < INT32_MAX)
        return (int32_t)v;
    return st->file_cpu;
}

static struct ctf_stream *stream_of(struct ctf_port *p, const bt_stream *s, uint32_t *idx)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->bs[i] == s) {
            *idx = p->idx[i];
            return &p->x->streams[p->idx[i]];
        }
    struct ctf *x = p->x;
    if (!TF_GROW(x->streams, x->n_streams, x->cap_streams))
        return NULL;
    struct ctf_stream *st = &x->streams[x->n_streams];
    memset(st, 0, sizeof *st);
    st->cpu = -1;
    const char *name = tf_ctf_bt.bt_stream_get_name(s);
    char alt[40];
    if (!name || !*name) {
        snprintf(alt, sizeof alt, "stream %llu", (unsigned long long)tf_ctf_bt.bt_stream_get_id(s));
        name = alt;
    }
    const char *slash = strrchr(name, '/');
    st->name = tf_ctf_str(x, slash ? slash + 1 : name);
    st->file_cpu = file_cpu(slash ? slash + 1 : name);
    if (!p->path[0] && strlen(name) < sizeof p->path)
        snprintf(p->path, sizeof p->path, "%s", name);
    const bt_trace *t = tf_ctf_bt.bt_stream_borrow_trace_const(s);
    const char *tn = t ? tf_ctf_bt.bt_trace_get_name(t) : NULL;
    if (!tn || !*tn) /* DPDK's: no hostname, its tracer's name */
        tn = env_str(t, "tracer_name");
    st->trace = tf_ctf_str(x, tn);
    const char *dom = env_str(t, "domain");
    st->kernel = dom && strcmp(dom, "kernel") == 0;
    *idx = (uint32_t)x->n_streams++;
    if (p->n < 4) {
        p->bs[p->n] = s;
        p->idx[p->n++] = *idx;
    }
    return st;
}

static const char *const softirq_names[] = {"HI",    "TIMER",   "NET_TX", "NET_RX",  "BLOCK",
                                            "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU"};

static bool prefixed(const char *s, const char *pre, const char **rest)
{
    size_t n = strlen(pre);
    if (strncmp(s, pre, n) != 0)
        return false;
    *rest = s + n;
    return true;
}

/* A kernel event (its name without perf's "subsystem:"), into e. */
static bool kernel_event(struct ctf_port *p, const bt_event *ev, const char *name, struct ctf_ev *e)
{
    struct ctf *x = p->x;
    const char *colon = strchr(name, ':'), *rest;
    if (colon)
        name = colon + 1;
    int64_t v;
    char buf[160];
    if (strcmp(name, "sched_switch") == 0) {
        int64_t prev = 0, next = 0;
        if (!int_field(ev, "prev_tid", &prev))
            int_field(ev, "prev_pid", &prev);
        if (!int_field(ev, "next_tid", &next))
            int_field(ev, "next_pid", &next);
        if (int_field(ev, "perf_cpu", &v)) /* perf's CPU, in the payload */
            e->cpu = (int32_t)v;
        e->kind = CTF_SWITCH;
        e->a = prev;
        e->b = next;
        e->name = tf_ctf_str(x, str_field(ev, "next_comm"));
        e->c = tf_ctf_str(x, str_field(ev, "prev_comm"));
        return true;
    }
    if (strcmp(name, "lttng_statedump_process_state") == 0 ||
        strcmp(name, "sched_process_fork") == 0) {
        bool fork = name[0] == 's';
        int64_t tid = -1, pid = -1;
        int_field(ev, fork ? "child_tid" : "tid", &tid);
        if (!int_field(ev, fork ? "child_pid" : "pid", &pid))
            pid = -1;
        e->kind = CTF_NAME;
        e->a = tid;
        e->b = pid;
        e->name = tf_ctf_str(x, str_field(ev, fork ? "child_comm" : "name"));
        return tid >= 0;
    }
    bool irq = x->kernel_detail & TF_KDETAIL_IRQ, sys = x->kernel_detail & TF_KDETAIL_SYSCALLS;
    if (irq && strcmp(name, "irq_handler_entry") == 0) {
        const char *h = str_field(ev, "name");
        if (!int_field(ev, "irq", &v))
            v = -1;
        if (h && *h)
            snprintf(buf, sizeof buf, "irq %lld %s", (long long)v, h);
        else
            snprintf(buf, sizeof buf, "irq %lld", (long long)v);
        e->kind = CTF_IRQ_IN;
        e->name = tf_ctf_str(x, buf);
        return true;
    }
    if (irq && strcmp(name, "irq_handler_exit") == 0) {
        e->kind = CTF_IRQ_OUT;
        return true;
    }
    if (irq && (strcmp(name, "softirq_entry") == 0 || strcmp(name, "softirq_exit") == 0)) {
        if (!int_field(ev, "vec", &v))
            v = -1;
        if (v >= 0 && v < (int64_t)(sizeof softirq_names / sizeof softirq_names[0]))
            snprintf(buf, sizeof buf, "softirq %s", softirq_names[v]);
        else
            snprintf(buf, sizeof buf, "softirq %lld", (long long)v);
        e->kind = name[8] == 'e' && name[9] == 'n' ? CTF_SOFT_IN : CTF_SOFT_OUT;
        e->name = tf_ctf_str(x, buf);
        return true;
    }
    if (!sys)
        return false;
    if (prefixed(name, "syscall_entry_", &rest) || prefixed(name, "compat_syscall_entry_", &rest) ||
        prefixed(name, "sys_enter_", &rest)) {
        e->kind = CTF_SYS_IN;
        e->name = tf_ctf_str(x, rest);
        return true;
    }
    if (prefixed(name, "syscall_exit_", &rest) || prefixed(name, "compat_syscall_exit_", &rest) ||
        prefixed(name, "sys_exit", &rest) || strcmp(name, "exit_syscall") == 0) {
        e->kind = CTF_SYS_OUT;
        return true;
    }
    if (strcmp(name, "sys_enter") == 0) { /* raw_syscalls */
        snprintf(buf, sizeof buf, "syscall %lld", int_field(ev, "id", &v) ? (long long)v : -1LL);
        e->kind = CTF_SYS_IN;
        e->name = tf_ctf_str(x, buf);
        return true;
    }
    if (prefixed(name, "sys_", &rest) && *rest) { /* LTTng before 2.7 */
        e->kind = CTF_SYS_IN;
        e->name = tf_ctf_str(x, rest);
        return true;
    }
    return false;
}

/* The end of a name that pairs with another: 1 begins, 2 ends, 0 neither;
 * *base_len the length of the name without it. */
static int pair_suffix(const char *name, size_t *base_len)
{
    static const struct {
        const char *s;
        int kind;
    } sfx[] = {{"_entry", 1}, {"_begin", 1}, {".begin", 1}, {"_start", 1},
               {"_exit", 2},  {"_end", 2},   {".end", 2}};
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++) {
        size_t k = strlen(sfx[i].s);
        if (n > k && strcmp(name + n - k, sfx[i].s) == 0) {
            *base_len = n - k;
            return sfx[i].kind;
        }
    }
    return 0;
}

/* A user-space event, into e (false: not kept). */
static bool user_event(struct ctf_port *p, const bt_event *ev, const char *name, struct ctf_ev *e)
{
    struct ctf *x = p->x;
    const char *colon = strchr(name, ':');
    char buf[256];
    if (strncmp(name, "lttng_ust_statedump:", 20) == 0 || strncmp(name, "lttng_ust_lib:", 14) == 0)
        return false; /* what the loader's own statedump says, no work */
    if (colon && strncmp(name, "lttng_ust_cyg_profile", 21) == 0) {
        if (strcmp(colon + 1, "func_entry") == 0) {
            int64_t addr = 0;
            int_field(ev, "addr", &addr);
            snprintf(buf, sizeof buf, "0x%llX", (unsigned long long)addr);
            e->kind = CTF_BEGIN;
            e->func = 1;
            e->name = tf_ctf_str(x, buf);
            return true;
        }
        if (strcmp(colon + 1, "func_exit") == 0) {
            e->kind = CTF_END;
            e->func = 1;
            return true;
        }
    }
    /* ROS 2 (ros2_tracing): a callback's symbol, then its runs named by
     * it (a start and an end carry the callback's address) */
    int64_t addr;
    const char *sym;
    if (colon && strcmp(colon + 1, "rclcpp_callback_register") == 0 &&
        int_field(ev, "callback", &addr) && (sym = str_field(ev, "symbol")) != NULL) {
        e->kind = CTF_SYMBOL;
        e->a = addr;
        e->name = tf_ctf_str(x, sym);
        return true;
    }
    size_t base;
    int pk = pair_suffix(name, &base);
    if (pk && colon && strncmp(colon + 1, "callback_", 9) == 0 && int_field(ev, "callback", &addr)) {
        e->func = 2;
        e->a = addr;
    }
    if (pk) {
        snprintf(buf, sizeof buf, "%.*s", (int)(base < 200 ? base : 200), name);
        e->kind = pk == 1 ? CTF_BEGIN : CTF_END;
        e->name = tf_ctf_str(x, buf);
        return true;
    }
    e->kind = CTF_INSTANT;
    e->name = tf_ctf_str(x, name);
    return true;
}

/* The thread of an event from its contexts (vtid, vpid, procname: LTTng-UST;
 * tid, pid; perf_tid, perf_pid: perf), named once per change. */
static bool event_thread(struct ctf_port *p, const bt_event *ev, struct ctf_ev *e, bool *named)
{
    int64_t tid, pid = -1;
    *named = false;
    if (!int_field(ev, "vtid", &tid) && !int_field(ev, "perf_tid", &tid))
        return false;
    if (!int_field(ev, "vpid", &pid) && !int_field(ev, "perf_pid", &pid))
        pid = -1;
    e->tid = tid;
    e->pid = pid;
    if (tid != p->last_tid) {
        p->last_tid = tid;
        *named = true;
    }
    return true;
}

static bool on_event(struct ctf_port *p, const bt_message *m)
{
    struct ctf *x = p->x;
    const bt_event *ev = tf_ctf_bt.bt_message_event_borrow_event_const(m);
    uint32_t si;
    struct ctf_stream *st = stream_of(p, tf_ctf_bt.bt_event_borrow_stream_const(ev), &si);
    if (!st)
        return tf_diag_oom(x->d, x->file);
    if (!tf_ctf_bt.bt_message_event_borrow_stream_class_default_clock_class_const(m))
        return true; /* no time: nothing to draw it at */
    struct ctf_ev e;
    memset(&e, 0, sizeof e);
    if (tf_ctf_bt.bt_clock_snapshot_get_ns_from_origin(
            tf_ctf_bt.bt_message_event_borrow_default_clock_snapshot_const(m), &e.ts) !=
        BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK)
        return true;
    e.stream = si;
    e.cpu = event_cpu(st, ev);
    e.tid = e.pid = -1;
    const char *name = tf_ctf_bt.bt_event_class_get_name(tf_ctf_bt.bt_event_borrow_class_const(ev));
    if (!name)
        name = "";
    bool named = false;
    if (event_thread(p, ev, &e, &named))
        st->threads = true;
    if (named) {
        const char *comm = str_field(ev, "procname");
        if ((comm && *comm) || e.pid >= 0) {
            struct ctf_ev n = e;
            n.kind = CTF_NAME;
            n.a = e.tid;
            n.b = e.pid;
            n.name = tf_ctf_str(x, comm);
            if (!push(x, &n))
                return false;
        }
    }
    bool keep = st->kernel || strstr(name, "sched_switch") ? kernel_event(p, ev, name, &e)
                                                           : user_event(p, ev, name, &e);
    if (!st->kernel && keep && e.kind == CTF_SWITCH)
        st->kernel = true;
    return keep ? push(x, &e) : true;
}

static bool on_lost(struct ctf_port *p, const bt_message *m, bool packets)
{
    struct ctf *x = p->x;
    const bt_stream *s = packets ? tf_ctf_bt.bt_message_discarded_packets_borrow_stream_const(m)
                                 : tf_ctf_bt.bt_message_discarded_events_borrow_stream_const(m);
    uint32_t si;
    struct ctf_stream *st = stream_of(p, s, &si);
    if (!st)
        return tf_diag_oom(x->d, x->file);
    uint64_t count = 0;
    if (packets)
        tf_ctf_bt.bt_message_discarded_packets_get_count(m, &count);
    else
        tf_ctf_bt.bt_message_discarded_events_get_count(m, &count);
    if (packets)
        x->n_lost_packets += count;
    else
        x->n_lost += count;
    const bt_stream_class *sc = tf_ctf_bt.bt_stream_borrow_class_const(s);
    bool times = packets ? tf_ctf_bt.bt_stream_class_discarded_packets_have_default_clock_snapshots(sc)
                         : tf_ctf_bt.bt_stream_class_discarded_events_have_default_clock_snapshots(sc);
    if (!times)
        return true;
    struct ctf_ev e;
    memset(&e, 0, sizeof e);
    const bt_clock_snapshot *b =
        packets ? tf_ctf_bt.bt_message_discarded_packets_borrow_beginning_default_clock_snapshot_const(m)
                : tf_ctf_bt.bt_message_discarded_events_borrow_beginning_default_clock_snapshot_const(m);
    const bt_clock_snapshot *en =
        packets ? tf_ctf_bt.bt_message_discarded_packets_borrow_end_default_clock_snapshot_const(m)
                : tf_ctf_bt.bt_message_discarded_events_borrow_end_default_clock_snapshot_const(m);
    if (tf_ctf_bt.bt_clock_snapshot_get_ns_from_origin(b, &e.ts) != BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK ||
        tf_ctf_bt.bt_clock_snapshot_get_ns_from_origin(en, &e.b) != BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK)
        return true;
    e.kind = CTF_LOST;
    e.a = (int64_t)count;
    e.stream = si;
    e.cpu = event_cpu(st, NULL);
    e.tid = e.pid = -1;
    return push(x, &e);
}

bool tf_ctf_message(struct ctf_port *p, const bt_message *m)
{
    uint32_t si;
    switch (tf_ctf_bt.bt_message_get_type(m)) {
    case BT_MESSAGE_TYPE_STREAM_BEGINNING:
        return stream_of(p, tf_ctf_bt.bt_message_stream_beginning_borrow_stream_const(m), &si)
                   ? true
                   : tf_diag_oom(p->x->d, p->x->file);
    case BT_MESSAGE_TYPE_PACKET_END:
        p->in_packet = false;
        return true;
    case BT_MESSAGE_TYPE_PACKET_BEGINNING: {
        p->n_begun++;
        p->in_packet = true;
        const bt_packet *pk = tf_ctf_bt.bt_message_packet_beginning_borrow_packet_const(m);
        struct ctf_stream *st = stream_of(p, tf_ctf_bt.bt_packet_borrow_stream_const(pk), &si);
        if (!st)
            return tf_diag_oom(p->x->d, p->x->file);
        const bt_field *ctx = tf_ctf_bt.bt_packet_borrow_context_field_const(pk);
        const bt_field *f =
            ctx ? tf_ctf_bt.bt_field_structure_borrow_member_field_by_name_const(ctx, "cpu_id") : NULL;
        int64_t cpu;
        if (int_of(f, &cpu))
            st->cpu = (int32_t)cpu;
        /* A thread's name in the packet context (DPDK's): its stream's
         * lane is named by it. */
        const bt_field *nm =
            ctx ? tf_ctf_bt.bt_field_structure_borrow_member_field_by_name_const(ctx, "name") : NULL;
        if (nm && bt_field_class_type_is(tf_ctf_bt.bt_field_get_class_type(nm),
                                         BT_FIELD_CLASS_TYPE_STRING)) {
            const char *v = tf_ctf_bt.bt_field_string_get_value(nm);
            if (v && *v)
                st->name = tf_ctf_str(p->x, v);
        }
        return true;
    }
    case BT_MESSAGE_TYPE_EVENT: return on_event(p, m);
    case BT_MESSAGE_TYPE_DISCARDED_EVENTS: return on_lost(p, m, false);
    case BT_MESSAGE_TYPE_DISCARDED_PACKETS: return on_lost(p, m, true);
    default: return true;
    }
}

#else
typedef int tf_ctf_msg_empty; /* ISO C wants something in a file */
#endif
