/* plan_traces.c - the lane labels of a figure of several traces (see
 * plan.h, tf_plan_trace_groups): each trace's lanes under headers that
 * carry its title, so that a figure of ranks reads "rank 0 · GPU 0",
 * "stream 7", "stream 23", ...; a trace of one lane is labelled by its
 * title alone ("rank 12"); without headers (the full labels) a lane is
 * "rank 0 · GPU 0 / stream 7".  The labels then go through the plan's
 * usual levels (elided when the column is narrow).  It decides nothing
 * else of the layout.
 */
#include "render/plan.h"

#include <string.h>

static bool alike(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

/* "TITLE · GROUP", or TITLE alone. */
static const char *header_text(struct tf_arena *a, const char *title, const char *group)
{
    if (!group)
        return title;
    struct tf_buf b;
    tf_buf_init(&b);
    tf_buf_printf(&b, "%s \xC2\xB7 %s", title, group);
    const char *s = b.oom ? NULL : tf_arena_buf(a, &b);
    tf_buf_fini(&b);
    return s;
}

bool tf_plan_process_run(const struct tf_figure *f, size_t i, size_t j, size_t h,
                        struct tf_arena *a, struct tf_label_levels *out, const char **shrt)
{
    for (size_t k = i; k < j; k++) {
        const struct tf_lane *lk = &f->lanes[k];
        bool twin = false;
        for (size_t m = i; m < j; m++)
            twin |= m != k && alike(f->lanes[m].name, lk->name);
        const char *s = lk->name;
        if (twin && lk->id) {
            struct tf_buf b;
            tf_buf_init(&b);
            tf_buf_printf(&b, "%s %s", lk->name, lk->id);
            s = b.oom ? NULL : tf_arena_buf(a, &b);
            tf_buf_fini(&b);
            if (!s)
                return false;
        }
        shrt[k] = s;
        out->header_of[k] = h;
    }
    return true;
}

bool tf_plan_trace_groups(const struct tf_figure *f, size_t n, struct tf_arena *a,
                          struct tf_label_levels *out, const char **shrt)
{
    out->n_headers = 0;
    for (size_t i = 0; i < n; i++)
        out->header_of[i] = (size_t)-1;
    for (size_t i = 0; i < n;) {
        size_t t = f->lanes[i].trace, end = i;
        while (end < n && f->lanes[end].trace == t)
            end++;
        const char *title = t < f->n_traces && f->traces[t].title ? f->traces[t].title : "";
        if (t < f->n_traces && f->traces[t].n_lanes == 1) {
            shrt[i] = title; /* one lane: its trace's title is its label */
            i = end;
            continue;
        }
        /* Runs of two or more lanes of one process: "TITLE · PROCESS";
         * the lanes in between: "TITLE", with their full labels. */
        size_t h_plain = (size_t)-1;
        while (i < end) {
            const struct tf_lane *ln = &f->lanes[i];
            size_t j = i + 1;
            while (ln->group && ln->name && j < end && alike(f->lanes[j].group, ln->group) &&
                   f->lanes[j].name)
                j++;
            if (j - i >= 2) {
                size_t h = out->n_headers++;
                if (!(out->headers[h] = header_text(a, title, ln->group)) ||
                    !tf_plan_process_run(f, i, j, h, a, out, shrt))
                    return false;
                h_plain = (size_t)-1;
            } else {
                if (h_plain == (size_t)-1) {
                    h_plain = out->n_headers++;
                    out->headers[h_plain] = title;
                }
                shrt[i] = ln->label ? ln->label : "";
                out->header_of[i] = h_plain;
            }
            i = j;
        }
    }
    /* The full labels, drawn without headers: the trace's title first. */
    for (size_t i = 0; i < n; i++) {
        size_t t = f->lanes[i].trace;
        const char *title = t < f->n_traces && f->traces[t].title ? f->traces[t].title : "";
        if (t < f->n_traces && f->traces[t].n_lanes == 1)
            out->text[i] = title;
        else if (!(out->text[i] =
                         header_text(a, title, f->lanes[i].label ? f->lanes[i].label : "")))
            return false;
    }
    return true;
}
