/* run.c - see run.h. */
#include "lib/run.h"

#include <string.h>

#include "base/str.h"
#include "load/load.h"

void tf_modes_end(struct tf_modes *m)
{
    for (size_t i = 0; i < m->n; i++) {
        if (m->begun[i]->end) {
            struct tf_keep one;
            memset(&one, 0, sizeof one);
            one.state = m->state[i];
            m->begun[i]->end(&one);
        }
        m->state[i] = NULL;
    }
}

void tf_modes_release(struct tf_modes *m, struct tf_trace *trace)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->begun[i]->release)
            m->begun[i]->release(m->kept[i]);
    trace->generic_state = NULL;
}

bool tf_modes_begin(const struct tf_mode *forced, const struct tf_opts *o, struct tf_trace *trace,
                    struct tf_modes *m, struct tf_diag *d)
{
    memset(m, 0, sizeof *m);
    for (size_t i = 0; tf_modes[i] && m->n < sizeof m->begun / sizeof m->begun[0]; i++) {
        const struct tf_mode *mode = tf_modes[i];
        if (forced && mode != forced)
            continue;
        if (!mode->begin)
            continue;
        struct tf_keep one;
        memset(&one, 0, sizeof one);
        if (!mode->begin(o, trace, &one, d)) {
            tf_modes_end(m);
            tf_modes_release(m, trace);
            return false;
        }
        m->begun[m->n] = mode;
        m->kept[m->n] = one.state;
        m->state[m->n++] = one.state;
        if (one.timeline.uses)
            m->keep.timeline = one.timeline;
        if (one.chrome.wants)
            m->keep.chrome = one.chrome;
        if (one.tef.index)
            m->keep.tef = one.tef;
    }
    return true;
}

const struct tf_mode *tf_mode_of_trace(const struct tf_trace *t)
{
    if (t->kind == TF_TRACE_CHROME)
        return t->generic ? &tf_mode_chrome : &tf_mode_pytorch;
    return tf_mode_for_kind(t->kind);
}

bool tf_run_build(const struct tf_run *r, struct tf_trace *trace, struct tf_figure *fig,
                  struct tf_diag *d)
{
    struct tf_breakdown_in bd;
    tf_breakdown_in_init(&bd);
    const char *file = tf_diag_name(r->trace_path);
    const struct tf_mode *mode = tf_mode_of_trace(trace);
    bool ok;
    if (r->breakdown_path && !tf_load_breakdown(r->breakdown_path, &bd, d)) {
        ok = false;
    } else if (!mode || (r->mode && r->mode != mode)) {
        ok = tf_diag_error(d, TF_EUSAGE, "%s: --mode %s reads another kind of trace", file,
                           r->mode ? r->mode->name : "auto");
    } else {
        struct tf_mode_input in = {
            .trace = trace,
            .breakdown = r->breakdown_path ? &bd : NULL,
            .file = file,
            .breakdown_file = r->breakdown_path ? tf_diag_name(r->breakdown_path) : NULL,
        };
        ok = mode->build(&in, r->opts, fig, d);
        if (!ok && d->code != TF_ENOMEM)
            tf_diag_prefix(d, file);
    }
    tf_breakdown_in_fini(&bd);
    return ok;
}

void tf_run_facts(const struct tf_trace_facts *fa, int64_t origin, struct tf_trace_ref *ref)
{
    ref->has_rank = fa->has_rank;
    ref->rank = fa->rank;
    ref->has_world_size = fa->has_world_size;
    ref->world_size = fa->world_size;
    /* Kineto's times count from baseTimeNanoseconds when they are smaller
     * than it: then the base puts the trace on the shared clock. */
    ref->has_base_time = fa->has_base_time && fa->base_time_ns > 0 && origin < fa->base_time_ns;
    ref->base_time_ns = ref->has_base_time ? fa->base_time_ns : 0;
}

/* The figure's entry as one trace of several (figure.h, one_trace), when
 * its trace has facts a figure of several tells traces apart by. */
static bool one_trace(const struct tf_run *r, const struct tf_trace *trace, struct tf_figure *fig,
                      struct tf_diag *d)
{
    const struct tf_mode *mode = tf_mode_of_trace(trace);
    if (!mode || !mode->span || !trace->generic_state || fig->n_traces)
        return true;
    struct tf_span s;
    if (!mode->span(trace->generic_state, &s, d))
        return false;
    struct tf_trace_ref ref;
    memset(&ref, 0, sizeof ref);
    tf_run_facts(&trace->facts, s.origin, &ref);
    if (!ref.has_rank && !ref.has_world_size && !ref.has_base_time)
        return true;
    ref.file = tf_figure_str(fig, tf_base_name(r->trace_path));
    ref.mode = tf_figure_str(fig, fig->mode ? fig->mode : mode->name);
    if (!ref.file || !ref.mode)
        return tf_diag_oom(d, NULL);
    ref.w0_ns = s.w0;
    ref.w1_ns = s.w1;
    ref.event_ns = s.event;
    ref.origin_ns = s.origin;
    ref.end_ns = s.end;
    fig->one_trace = ref;
    fig->has_one_trace = true;
    return true;
}

bool tf_run(const struct tf_run *r, struct tf_trace *trace, struct tf_figure *fig,
            struct tf_diag *d)
{
    struct tf_modes m;
    if (!tf_modes_begin(r->mode, r->opts, trace, &m, d))
        return false;
    bool ok = tf_load_trace(r->trace_path, &m.keep, trace, d);
    tf_modes_end(&m);
    ok = ok && tf_run_build(r, trace, fig, d) && one_trace(r, trace, fig, d);
    const struct tf_mode *mode = ok && r->span ? tf_mode_of_trace(trace) : NULL;
    if (mode && mode->span && trace->generic_state)
        ok = mode->span(trace->generic_state, r->span, d);
    tf_modes_release(&m, trace);
    return ok;
}
