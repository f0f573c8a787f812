/* critpath_inst.c - HTA's instances of an annotation (rules/critpath.h):
 * under --stats-compat hta, --window-event NAME --occurrence K is HTA's
 * critical_path_analysis(annotation=NAME, instance_id=K-1).  HTA's
 * instances are the rows of its trace frame whose name contains NAME (or,
 * tracefig's own, that NAME's glob matches), in the frame's order: the
 * file's order, or, when its load-time filter ran (several ProfilerStep#N
 * names, not MTIA: critpath_join.c's tf_cp_hta_filter), first the GPU rows
 * it kept (those whose correlation a kept CPU row has) and then the CPU
 * rows that start before the last step's start, each part in file order.
 * Pass 1 notes each complete event that matches (tf_cp_inst_note); the
 * window asks for the K-th once pass 1 is over (tf_cp_instance).
 */
#include "rules/critpath_int.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

void tf_cp_instances_on(struct tf_cp *cp, const char *pattern)
{
    cp->inst_pat = pattern;
    cp->inst_glob = pattern && pattern[strcspn(pattern, "*?[\\")] != '\0';
}

bool tf_cp_inst_note(struct tf_cp *cp, const struct tf_tef_rec *r, const struct row *w)
{
    const char *p = cp->inst_pat, *name = r->name;
    if (!p || (r->cat && strcmp(r->cat, "Trace") == 0)) /* HTA drops the profiler's span */
        return true;
    if (!strstr(name, p) && !(cp->inst_glob && fnmatch(p, name, 0) == 0))
        return true;
    if (!TF_GROW(cp->inst, cp->n_inst, cp->cap_inst))
        return false;
    cp->inst[cp->n_inst++] = (struct cp_inst){r->ts, r->ts + r->dur, w->ts, w->corr,
                                              tf_cp_hta_gpu(w, name)};
    return true;
}

bool tf_cp_instance(struct tf_cp *cp, size_t k, int64_t *t0, int64_t *t1, size_t *n_found,
                    bool *oom)
{
    *n_found = 0;
    *oom = false;
    /* HTA's filter (tf_cp_hta_filter's rule, on pass 1's rows: the steps,
     * launches and GPU rows are all among them) */
    bool any;
    int64_t lim;
    bool filt = tf_cp_hta_filters(cp, &any, &lim);
    int64_t *kept = NULL;
    size_t nk = 0;
    bool gpus = false;
    for (size_t i = 0; i < cp->n_inst; i++)
        gpus |= cp->inst[i].gpu;
    if (filt && gpus && !(kept = tf_cp_hta_kept(cp, any, lim, &nk)))
        return *oom = true, false;
    bool found = false;
    /* the filter's frame: its GPU rows, then its CPU rows; else the file */
    for (int part = filt ? 0 : 1; part < 2 && !found; part++) {
        for (size_t i = 0; i < cp->n_inst && !found; i++) {
            const struct cp_inst *m = &cp->inst[i];
            if (filt && m->gpu != (part == 0))
                continue;
            bool keep = !filt || (m->gpu ? m->corr >= 0 && bsearch(&m->corr, kept, nk,
                                                                   sizeof *kept, tf_cp_i64_cmp)
                                         : any && m->hts < lim);
            if (keep && ++*n_found == k) {
                *t0 = m->t0;
                *t1 = m->t1;
                found = true;
            }
        }
    }
    free(kept);
    return found;
}
