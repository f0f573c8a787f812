/* run.c - see run.h. */
#include "run.h"

#include <string.h>

#include "load/load.h"

/* For each trace kind, the mode that reads a trace of that kind: the
 * forced one, or the first of its kind; and its loader state. */
struct modes {
    struct tf_keep keep;
    const struct tf_mode *by_kind[3];
    void *state[3];
};

static void end_modes(struct modes *m)
{
    for (size_t kind = 0; kind < 3; kind++) {
        const struct tf_mode *mode = m->by_kind[kind];
        if (mode && mode->end) {
            struct tf_keep one;
            memset(&one, 0, sizeof one);
            one.state = m->state[kind];
            mode->end(&one);
        }
        m->state[kind] = NULL;
    }
}

static bool begin_modes(const struct tf_run *r, struct tf_trace *trace, struct modes *m,
                        struct tf_diag *d)
{
    memset(m, 0, sizeof *m);
    static const enum tf_trace_kind kinds[] = {TF_TRACE_TIMELINE, TF_TRACE_CHROME};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        enum tf_trace_kind kind = kinds[i];
        const struct tf_mode *mode =
            r->mode && r->mode->kind == kind ? r->mode : tf_mode_for_kind(kind);
        m->by_kind[kind] = mode;
        if (!mode || !mode->begin)
            continue;
        struct tf_keep one;
        memset(&one, 0, sizeof one);
        if (!mode->begin(r->opts, trace, &one, d)) {
            end_modes(m);
            return false;
        }
        m->state[kind] = one.state;
        if (kind == TF_TRACE_TIMELINE)
            m->keep.timeline = one.timeline;
        else
            m->keep.chrome = one.chrome;
    }
    return true;
}

bool tf_run(const struct tf_run *r, struct tf_trace *trace, struct tf_figure *fig,
            struct tf_diag *d)
{
    struct modes m;
    if (!begin_modes(r, trace, &m, d))
        return false;
    bool ok = tf_load_trace(r->trace_path, &m.keep, trace, d);
    end_modes(&m);
    if (!ok)
        return false;
    struct tf_breakdown_in bd;
    tf_breakdown_in_init(&bd);
    const char *file = tf_diag_name(r->trace_path);
    const struct tf_mode *mode = m.by_kind[trace->kind];
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
