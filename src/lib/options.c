/* options.c - the option table of the command line and the library, and
 * the setters of the options that are not generic (opt.h has those); see
 * options.h.
 */
#include "lib/options.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "lib/opt.h"
#include "model/overview.h"
#include "rules/chrome.h"
#include "rules/marks.h"
#include "rules/timeline.h"
#include "tracefig.h"

#define TF_VERSION TRACEFIG_VERSION

/* --- the options' own setters (opt.h has the generic ones) --- */

#define FIELD(m) offsetof(struct tracefig_options, m)

static tf_opt_setter set_help;
static tf_opt_setter set_version;

/* --breakdown: one file. */
static bool set_file(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    const char **path = tf_field_of(c, o->field);
    if (*path)
        return tf_diag_usage(d, "more than one %s file: '%.200s'", o->name, val);
    *path = val;
    return true;
}

/* --trace FILE and TRACE: another trace (or figure model), in order. */
static bool add_trace(struct tracefig_options *c, const char *path, struct tf_diag *d)
{
    if (!TF_GROW(c->traces, c->n_traces, c->cap_traces))
        return tf_diag_oom(d, NULL);
    c->traces[c->n_traces++] = path;
    return true;
}

static bool set_trace(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    (void)o;
    return add_trace(ctx, val, d);
}

/* --titles T1,T2,...: one per trace, in their order. */
static bool set_titles(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    (void)o;
    for (const char *p = val;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char *t = tf_arena_strndup(&c->arena, p, len);
        if (!t || !TF_GROW(c->titles, c->n_titles, c->cap_titles))
            return tf_diag_oom(d, NULL);
        c->titles[c->n_titles++] = t;
        if (!comma)
            break;
        p = comma + 1;
    }
    return true;
}

static bool set_align(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    (void)o;
    if (!tf_align_parse(val, &c->align))
        return tf_diag_usage(d, "--align: expected clock, event or start, got '%.200s'", val);
    return true;
}

/* --ranks LIST: ranks and ranges, appended to those given before. */
static bool set_ranks(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    (void)o;
    struct tf_rank_range *v;
    size_t n;
    char err[200];
    if (!tf_ov_parse_ranks(val, &v, &n, err, sizeof err))
        return strcmp(err, "out of memory") == 0 ? tf_diag_oom(d, NULL)
                                                 : tf_diag_usage(d, "%s", err);
    size_t have = c->rules.n_ranks;
    struct tf_rank_range *all = tf_arena_alloc(&c->arena, (have + n) * sizeof *all);
    if (!all) {
        free(v);
        return tf_diag_oom(d, NULL);
    }
    if (have)
        memcpy(all, c->rules.ranks, have * sizeof *all);
    memcpy(all + have, v, n * sizeof *all);
    free(v);
    c->rules.ranks = all;
    c->rules.n_ranks = have + n;
    return true;
}

static bool set_order_ranks(void *ctx, const struct tf_optdef *o, const char *val,
                            struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    (void)o;
    if (strcmp(val, "rank") == 0)
        c->rules.order_ranks = TF_ORDER_RANK;
    else if (strcmp(val, "finish") == 0)
        c->rules.order_ranks = TF_ORDER_FINISH;
    else if (strcmp(val, "busy") == 0)
        c->rules.order_ranks = TF_ORDER_BUSY;
    else
        return tf_diag_usage(d, "--order-ranks: expected rank, finish or busy, got '%.200s'",
                             val);
    return true;
}

static bool add_output(struct tracefig_options *c, const char *path, struct tf_diag *d)
{
    if (c->n_outputs == TF_MAX_OUTPUTS)
        return tf_diag_usage(d, "too many outputs (at most %d)", TF_MAX_OUTPUTS);
    c->outputs[c->n_outputs++] = path;
    return true;
}

static bool set_output(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    (void)o;
    return add_output(c, val, d);
}

static bool set_format(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    (void)o;
    if (!tf_backend_by_name(val))
        return tf_diag_usage(d, "unknown format '%.200s' (see --help)", val);
    if (c->format && strcmp(c->format, val) != 0)
        return tf_diag_usage(d, "more than one --format: '%.50s' and '%.50s'", c->format, val);
    c->format = val;
    return true;
}

static bool set_mode(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    (void)o;
    if (strcmp(val, "auto") == 0)
        c->mode = NULL;
    else if (!(c->mode = tf_mode_by_name(val)))
        return tf_diag_usage(d, "unknown mode '%.200s' (see --help)", val);
    return true;
}

/* --from, --to: a time with its unit, from the trace's origin. */
static bool set_time(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    int64_t ns;
    if (!tf_chrome_parse_time(val, &ns) || ns < 0)
        return tf_diag_usage(d, "--%s: expected a time such as 12.5ms, 300us or 1.2s, got "
                              "'%.200s'",
                           o->name, val);
    *(int64_t *)tf_field_of(c, o->field) = ns;
    *(bool *)tf_field_of(c, o->has) = true;
    return true;
}

/* --counters, --no-counters: the last one given wins. */
static bool set_counters(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    (void)val;
    (void)d;
    c->rules.counters = strncmp(o->name, "no-", 3) == 0 ? -1 : 1;
    return true;
}

/* --lanes / --hide: comma-separated globs, appended in order (the list
 * at `field`, its count at `has`, its capacity right after the count). */
static bool set_patterns(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    const char ***list = tf_field_of(c, o->field);
    size_t *n = tf_field_of(c, o->has), *cap = n + 1;
    for (const char *p = val;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len) {
            char *pat = tf_arena_strndup(&c->arena, p, len);
            if (!pat || !TF_GROW(*list, *n, *cap))
                return tf_diag_oom(d, NULL);
            (*list)[(*n)++] = pat;
        }
        if (!comma)
            break;
        p = comma + 1;
    }
    return true;
}

/* --color PATTERN=#RRGGBB (the last '=' splits them). */
static bool set_color(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    (void)o;
    const char *eq = strrchr(val, '=');
    const char *hex = eq ? eq + 1 : "";
    if (*hex == '#')
        hex++;
    bool ok = eq && eq > val && strlen(hex) == 6 && strspn(hex, "0123456789abcdefABCDEF") == 6;
    if (!ok)
        return tf_diag_usage(d, "--color: expected PATTERN=#RRGGBB, got '%.200s'", val);
    char *pat = tf_arena_strndup(&c->arena, val, (size_t)(eq - val));
    if (!pat || !TF_GROW(c->colors, c->n_colors, c->cap_colors))
        return tf_diag_oom(d, NULL);
    c->colors[c->n_colors++] = (struct tf_color_rule){pat, (uint32_t)strtoul(hex, NULL, 16)};
    return true;
}

/* --group NAME=PATTERN,... (the first '=' splits them; empty patterns
 * between commas are skipped, but one must remain). */
static bool set_group(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    (void)o;
    const char *eq = strchr(val, '=');
    size_t n = 0;
    for (const char *p = eq ? eq + 1 : ""; *p; p++)
        n += *p == ',' ? 0 : (p == eq + 1 || p[-1] == ',');
    if (!eq || eq == val || n == 0)
        return tf_diag_usage(d, "--group: expected NAME=PATTERN,..., got '%.200s'", val);
    char *name = tf_arena_strndup(&c->arena, val, (size_t)(eq - val));
    const char **pats = tf_arena_alloc(&c->arena, n * sizeof *pats);
    if (!name || !pats || !TF_GROW(c->groups, c->n_groups, c->cap_groups))
        return tf_diag_oom(d, NULL);
    size_t k = 0;
    for (const char *p = eq + 1;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len && !(pats[k++] = tf_arena_strndup(&c->arena, p, len)))
            return tf_diag_oom(d, NULL);
        if (!comma)
            break;
        p = comma + 1;
    }
    c->groups[c->n_groups++] = (struct tf_group_opt){name, pats, k};
    return true;
}

/* --labels left|above|none|auto. */
static bool set_labels(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    (void)o;
    static const char *const names[] = {"auto", "left", "above", "none"};
    for (int i = 0; i < 4; i++)
        if (strcmp(val, names[i]) == 0) {
            c->render.size.labels = (enum tf_label_place)i;
            c->render.size.given = true;
            return true;
        }
    return tf_diag_usage(d, "--labels: expected left, above, none or auto, got '%.200s'", val);
}

/* --stats or --stats=FORMAT. */
static bool set_stats(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    (void)o;
    if (!val || strcmp(val, "text") == 0)
        c->stats = TF_STATS_TEXT;
    else if (strcmp(val, "csv") == 0)
        c->stats = TF_STATS_CSV;
    else
        return tf_diag_usage(d, "--stats: expected text or csv, got '%.200s'", val);
    return true;
}

static bool set_color_by(void *ctx, const struct tf_optdef *o, const char *val,
                         struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    (void)o;
    if (strcmp(val, "auto") == 0)
        c->rules.color_by = TF_COLOR_BY_AUTO;
    else if (strcmp(val, "category") == 0)
        c->rules.color_by = TF_COLOR_BY_CATEGORY;
    else if (strcmp(val, "name") == 0)
        c->rules.color_by = TF_COLOR_BY_NAME;
    else
        return tf_diag_usage(d, "--color-by: expected category, name or auto, got '%.200s'", val);
    return true;
}

static bool set_stats_compat(void *ctx, const struct tf_optdef *o, const char *val,
                             struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    (void)o;
    if (strcmp(val, "hta") != 0 && strcmp(val, "none") != 0)
        return tf_diag_usage(d, "--stats-compat: expected hta or none, got '%.200s'", val);
    c->rules.stats_compat_hta = val[0] == 'h';
    return true;
}

static bool set_stats_scope(void *ctx, const struct tf_optdef *o, const char *val,
                            struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    (void)o;
    if (strcmp(val, "window") != 0 && strcmp(val, "trace") != 0)
        return tf_diag_usage(d, "--stats-scope: expected window or trace, got '%.200s'", val);
    c->rules.stats_trace_scope = val[0] == 't';
    return true;
}

/* --kernel-detail irq,syscalls: what a kernel trace draws under each CPU. */
static bool set_kernel_detail(void *ctx, const struct tf_optdef *o, const char *val,
                              struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    (void)o;
    unsigned bits = 0;
    for (const char *p = val;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 3 && strncmp(p, "irq", 3) == 0)
            bits |= TF_KDETAIL_IRQ;
        else if (len == 8 && strncmp(p, "syscalls", 8) == 0)
            bits |= TF_KDETAIL_SYSCALLS;
        else
            return tf_diag_usage(d, "--kernel-detail: expected irq, syscalls or both "
                                    "(irq,syscalls), got '%.200s'", val);
        if (!comma)
            break;
        p = comma + 1;
    }
    c->rules.kernel_detail = bits;
    return true;
}

/* --span, --measure, --callout, --region, --highlight: one mark each, in
 * the compact syntax (rules/marks.h); --marks FILE and --marks-json TEXT:
 * marks read when the figure is made. */
static bool set_mark(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    if (!TF_GROW(c->marks, c->n_marks, c->cap_marks))
        return tf_diag_oom(d, NULL);
    struct tf_mark_opt *m = &c->marks[c->n_marks];
    memset(m, 0, sizeof *m);
    if (strcmp(o->name, "marks") == 0) {
        m->file = val;
    } else if (strcmp(o->name, "marks-json") == 0) {
        m->json = val;
    } else {
        size_t k = 0;
        while (k < TF_MARK_KINDS && strcmp(o->name, tf_mark_kind_names[k]) != 0)
            k++;
        char err[TF_MARKS_ERR];
        if (k == TF_MARK_KINDS || !tf_marks_parse((enum tf_mark_kind)k, val, &c->arena, &m->spec, err))
            return strcmp(err, "out of memory") == 0 ? tf_diag_oom(d, NULL)
                                                     : tf_diag_usage(d, "%s", err);
    }
    c->n_marks++;
    return true;
}

/* --zoom A..B or REF: a span's ends (rules/marks.h), named by --zoom in
 * messages; a fourth is a usage error. */
static bool set_zoom(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    (void)o;
    if (c->n_zooms == TF_ZOOMS_MAX)
        return tf_diag_usage(d, "--zoom: at most %d zooms, side by side in one row",
                             TF_ZOOMS_MAX);
    char err[TF_MARKS_ERR];
    struct tf_mark_spec *z = &c->zooms[c->n_zooms];
    if (strchr(val, '=') || !tf_marks_parse(TF_MARK_SPAN, val, &c->arena, z, err)) {
        if (strcmp(err, "out of memory") == 0)
            return tf_diag_oom(d, NULL);
        return tf_diag_usage(d, "--zoom: expected A..B (each a time such as 12.5ms, "
                                "start:REF, end:REF or REF) or one REF, got '%.200s'", val);
    }
    char where[300];
    snprintf(where, sizeof where, "--zoom '%.240s'", val);
    if (!(z->where = tf_arena_strdup(&c->arena, where)))
        return tf_diag_oom(d, NULL);
    c->n_zooms++;
    return true;
}

static void help_modes(void)
{
    for (size_t i = 0; tf_modes[i]; i++)
        tf_opt_help_item(tf_modes[i]->name, 8, tf_modes[i]->summary);
}

static void help_formats(void)
{
    for (size_t i = 0; tf_backends[i]; i++) {
        const struct tf_backend *b = tf_backends[i];
        char text[256];
        int n = 0;
        for (size_t j = 0; b->exts[j]; j++)
            n += snprintf(text + n, sizeof text - (size_t)n, "%s ", b->exts[j]);
        snprintf(text + n, sizeof text - (size_t)n, "%s%s", b->description,
                 b->available ? "" : " (not built: needs cairo)");
        tf_opt_help_item(b->name, 5, text);
    }
}

static const struct tf_optdef options[] = {
    TF_OPT_HEADING("Input:"),
    {.name = "trace", .alias = "trace-file", .value = TF_VAL_REQUIRED, .meta = "FILE",
     .record = TF_REC_PATH, .set = set_trace,
     .help = "a trace, as TRACE: a pipelined_timeline_v1/_v2, a Chrome trace (traceEvents "
             "or a bare array, plain or gzip), an Nsight Systems SQLite export "
             "(report.sqlite), a rocpd database (rocprofv3's results.db; rocprof's too), "
             "a Perfetto protobuf trace (.perfetto-trace, .pftrace: Android's traced, the "
             "Perfetto SDK, tracing-perfetto; recognised by its bytes, plain or gzip), "
             "an XPlane profile (*.xplane.pb: JAX, TensorFlow, PyTorch/XLA; by its bytes, "
             "plain or gzip), "
             "ftrace text (trace-cmd report, the tracing file, atrace; systrace HTML; "
             "recognised by content, plain or gzip), "
             "or an OTF2 archive (its anchor traces.otf2, or its folder: "
             "Score-P, TAU, APEX, rocprofv3), or a CTF trace (LTTng kernel and user space, "
             "perf data convert --to-ctf, barectf: its folder, its metadata file, or an "
             "LTTng session's folder); '-' reads standard input; repeat, or give "
             "several TRACEs, for "
             "one figure of several traces; a figure model written by --format json is read "
             "as the trace it shows"},
    {.name = "breakdown", .alias = "breakdown-file", .value = TF_VAL_REQUIRED, .meta = "FILE",
     .record = TF_REC_PATH, .set = set_file, .field = FIELD(breakdown_path),
     .help = "a candidate_breakdown_v1 file: adds the GPU runtime panel"},
    {.name = "mode", .value = TF_VAL_REQUIRED, .meta = "MODE", .record = TF_REC_VALUE,
     .set = set_mode, .help = "how to read the trace (default auto: by its kind):",
     .help_list = help_modes},

    TF_OPT_HEADING("Several traces (one group of lanes each, on one time axis):"),
    {.name = "titles", .value = TF_VAL_REQUIRED, .meta = "T1,T2,...", .record = TF_REC_VALUE,
     .set = set_titles,
     .help = "the traces' titles, in their order (default: \"rank N\" for the ranks of one "
             "job, else each file's name without its extensions)"},
    {.name = "align", .value = TF_VAL_REQUIRED, .meta = "HOW", .record = TF_REC_VALUE,
     .set = set_align,
     .help = "clock: the traces' own timestamps, the window the union of theirs (default for "
             "the ranks of one job and for traces whose spans overlap); event: each trace's "
             "--window-event occurrence at 0, the window the longest (default otherwise); "
             "start: each trace's first event at 0"},
    {.name = "ranks", .value = TF_VAL_REQUIRED, .meta = "LIST", .record = TF_REC_VALUE,
     .set = set_ranks,
     .help = "draw only these ranks of a job (several traces, or an OTF2 archive): ranks and "
             "ranges, 0-7,769,1000-1023"},
    {.name = "order-ranks", .value = TF_VAL_REQUIRED, .meta = "rank|finish|busy",
     .record = TF_REC_VALUE, .set = set_order_ranks,
     .help = "the ranks' rows in rank order (the default), by when each rank's work in the "
             "window ends (the last to end at the bottom), or by busy share (the least busy "
             "first)"},

    TF_OPT_HEADING("Pipelined timelines and legacy PyTorch traces:"),
    {.name = "start-candidate", .value = TF_VAL_REQUIRED, .meta = "N", .record = TF_REC_VALUE,
     .set = tf_opt_int, .field = FIELD(rules.start_candidate),
     .help = "first candidate of the window (default: the trace's start_candidate, "
             "timeline_record_from, focus_candidate, else 0); in PyTorch traces picks the "
             "Candidate_Eval_N window"},
    {.name = "focus-candidate", .value = TF_VAL_REQUIRED, .meta = "N", .record = TF_REC_VALUE,
     .set = tf_opt_int, .field = FIELD(focus), .help = "deprecated alias of --start-candidate"},
    {.name = "num-candidates", .value = TF_VAL_REQUIRED, .meta = "N", .record = TF_REC_VALUE,
     .set = tf_opt_int, .field = FIELD(rules.num_candidates), .lo = 1, .hi = TF_MAX_NUM_CANDIDATES,
     .help = "candidates in the core window (default: the trace's num_candidates, else 3)"},
    {.name = "min-runtime-pct", .value = TF_VAL_REQUIRED, .meta = "P", .record = TF_REC_VALUE,
     .set = tf_opt_double, .field = FIELD(rules.min_runtime_pct),
     .has = FIELD(rules.has_min_runtime_pct), .lo = -1e9, .hi = 1e9,
     .help = "breakdown panel: fold ops below P % (the three display groups are always shown)"},
    {.name = "legend-y", .value = TF_VAL_REQUIRED, .meta = "H", .record = TF_REC_VALUE,
     .set = tf_opt_double, .field = FIELD(rules.legend_y), .has = FIELD(rules.has_legend_y),
     .lo = -1e3, .hi = 1e3,
     .help = "legend row height relative to the plot row (default 0.16, at least 0.10)"},

    TF_OPT_HEADING("Window, lanes and colours (every format but pipelined timelines):"),
    {.name = "from", .value = TF_VAL_REQUIRED, .meta = "T", .record = TF_REC_VALUE,
     .set = set_time, .field = FIELD(rules.from_ns), .has = FIELD(rules.has_from),
     .help = "the window's start, from the trace's origin (an export's: its session start; a "
             "rocpd database's: its first drawable event); T "
             "is 12.5ms, 300us, 1.2s, 450000ns, "
             "or a number of ms"},
    {.name = "to", .value = TF_VAL_REQUIRED, .meta = "T", .record = TF_REC_VALUE, .set = set_time,
     .field = FIELD(rules.to_ns), .has = FIELD(rules.has_to),
     .help = "the window's end, from the trace's origin"},
    {.name = "window-event", .value = TF_VAL_REQUIRED, .meta = "NAME", .record = TF_REC_VALUE,
     .set = tf_opt_string, .field = FIELD(rules.window_event),
     .help = "the window is the extent of the event called NAME, or matching the glob NAME "
             "('ProfilerStep#*')"},
    {.name = "occurrence", .value = TF_VAL_REQUIRED, .meta = "K", .record = TF_REC_VALUE,
     .set = tf_opt_count, .field = FIELD(rules.occurrence), .lo = 1, .hi = 100000,
     .help = "... its K-th occurrence (or match) in time order (default 1)"},
    {.name = "pad", .value = TF_VAL_REQUIRED, .meta = "P", .record = TF_REC_VALUE,
     .set = tf_opt_double, .field = FIELD(rules.pad_pct), .hi = 1000,
     .help = "widen the window by P % of its span on each side"},
    {.name = "lanes", .value = TF_VAL_REQUIRED, .meta = "PATTERN[=LABEL],...",
     .record = TF_REC_VALUE, .set = set_patterns, .field = FIELD(lanes), .has = FIELD(n_lanes),
     .help = "draw only the lanes whose label matches a glob, in the order given (and under "
             "LABEL when given)"},
    {.name = "hide", .value = TF_VAL_REQUIRED, .meta = "PATTERN,...", .record = TF_REC_VALUE,
     .set = set_patterns, .field = FIELD(hide), .has = FIELD(n_hide),
     .help = "leave out the lanes whose label matches a glob"},
    {.name = "all-lanes", .value = TF_VAL_NONE, .record = TF_REC_VALUE, .set = tf_opt_flag,
     .field = FIELD(rules.all_lanes),
     .help = "hide no lane by the default rules (aggregates, summaries)"},
    {.name = "max-lanes", .value = TF_VAL_REQUIRED, .meta = "N", .record = TF_REC_VALUE,
     .set = tf_opt_count, .field = FIELD(rules.max_lanes), .lo = 1, .hi = 100000,
     .help = "draw at most N lanes (default 24)"},
    {.name = "counters", .value = TF_VAL_NONE, .record = TF_REC_VALUE, .set = set_counters,
     .help = "draw a track per counter series (C events, Kineto's [memory] events): the "
             "default when the window holds any"},
    {.name = "no-counters", .value = TF_VAL_NONE, .record = TF_REC_VALUE, .set = set_counters,
     .help = "draw no counter tracks"},
    {.name = "max-counters", .value = TF_VAL_REQUIRED, .meta = "N", .record = TF_REC_VALUE,
     .set = tf_opt_count, .field = FIELD(rules.max_counters), .lo = 1, .hi = 100000,
     .help = "draw at most N counter tracks (default 8)"},
    {.name = "depth", .value = TF_VAL_REQUIRED, .meta = "N", .record = TF_REC_VALUE,
     .set = tf_opt_count, .field = FIELD(rules.depth), .lo = 1, .hi = 100000,
     .help = "nesting rows per lane (default 6)"},
    {.name = "color", .value = TF_VAL_REQUIRED, .meta = "PATTERN=COLOR", .record = TF_REC_VALUE,
     .set = set_color,
     .help = "colour events whose name or category matches the glob (COLOR: #RRGGBB); repeat; "
             "the first match wins"},
    {.name = "color-by", .value = TF_VAL_REQUIRED, .meta = "category|name|auto",
     .record = TF_REC_VALUE, .set = set_color_by,
     .help = "colour slices by their category or by their name (the most time first; "
             "--palette keeps them across figures); "
             "auto (the default): by name when the events drawn carry one category or none"},
    {.name = "palette", .value = TF_VAL_REQUIRED, .meta = "FILE", .record = TF_REC_PATH,
     .set = set_file, .field = FIELD(palette_path),
     .help = "colour the classes FILE names (lines '#RRGGBB<TAB>CLASS', as --palette-out "
             "writes them) as it says, the others off its colours: one name, one colour "
             "across a paper's figures"},
    {.name = "palette-out", .value = TF_VAL_REQUIRED, .meta = "FILE", .set = set_file,
     .field = FIELD(palette_out),
     .help = "also write the figure's class -> colour table to FILE, for --palette"},
    {.name = "flows", .value = TF_VAL_NONE, .record = TF_REC_VALUE, .set = tf_opt_flag,
     .field = FIELD(rules.flows),
     .help = "draw flow arrows (s/t/f events, bind_id; an export's or a rocpd database's "
             "launch -> GPU work, by correlation id)"},
    {.name = "async", .value = TF_VAL_NONE, .record = TF_REC_VALUE, .set = tf_opt_flag,
     .field = FIELD(rules.async),
     .help = "draw async events (b/e/n) on a lane per process and category"},

    {.name = "osrt", .value = TF_VAL_NONE, .record = TF_REC_VALUE, .set = tf_opt_flag,
     .field = FIELD(rules.osrt), .help = "Nsight Systems exports: draw OS runtime calls too"},
    {.name = "kernel-detail", .value = TF_VAL_REQUIRED, .meta = "irq,syscalls",
     .record = TF_REC_VALUE, .set = set_kernel_detail,
     .help = "CTF kernel traces (LTTng, perf): draw interrupts and/or system calls as rows "
             "under each CPU"},
    TF_OPT_HEADING("Marks (resolved against the events drawn; see tracefig(1), MARKS):"),
    {.name = "span", .value = TF_VAL_REQUIRED, .meta = "A..B[=TEXT]", .record = TF_REC_VALUE,
     .set = set_mark,
     .help = "a bracket above the plot from A to B, labelled (default TEXT {dur}); A and B "
             "are times (12.5ms), start:REF, end:REF or REF (REF: an event name glob, @K "
             "for its K-th match); one REF spans its event"},
    {.name = "measure", .value = TF_VAL_REQUIRED, .meta = "A..B[=TEXT]", .record = TF_REC_VALUE,
     .set = set_mark, .help = "a dimension line from A to B inside the plot, labelled"},
    {.name = "callout", .value = TF_VAL_REQUIRED, .meta = "REF[=TEXT]", .record = TF_REC_VALUE,
     .set = set_mark, .help = "a label beside one event, with a leader (default TEXT {name})"},
    {.name = "region", .value = TF_VAL_REQUIRED, .meta = "A..B[=TEXT]", .record = TF_REC_VALUE,
     .set = set_mark, .help = "a shaded band across every lane from A to B"},
    {.name = "highlight", .value = TF_VAL_REQUIRED, .meta = "GLOB,...", .record = TF_REC_VALUE,
     .set = set_mark,
     .help = "events whose name matches keep their colours; all other ink is faded"},
    {.name = "marks", .value = TF_VAL_REQUIRED, .meta = "FILE", .record = TF_REC_PATH,
     .set = set_mark,
     .help = "marks from a JSON file: an array of objects (kind, from, to, text, events, "
             "color; ends by event, occurrence, edge, lane, trace, time, offset)"},
    {.name = "marks-json", .value = TF_VAL_REQUIRED, .meta = "JSON", .record = TF_REC_VALUE,
     .set = set_mark, .help = "the same marks as JSON text (the library's marks=)"},

    TF_OPT_HEADING("Zoom (panels of sub-ranges under the figure; see tracefig(1), ZOOM):"),
    {.name = "zoom", .value = TF_VAL_REQUIRED, .meta = "A..B|REF", .record = TF_REC_VALUE,
     .set = set_zoom,
     .help = "a panel of the range A..B (ends as marks write them) or of one event, under "
             "the figure and joined to it; up to 3, side by side"},
    {.name = "zoom-pad", .value = TF_VAL_REQUIRED, .meta = "P", .record = TF_REC_VALUE,
     .set = tf_opt_double, .field = FIELD(zoom_pad_pct), .hi = 1000,
     .help = "widen each zoom by P % of its span on each side (default 5)"},

    TF_OPT_HEADING("Statistics (of the window drawn; man tracefig-stats):"),
    {.name = "stats", .value = TF_VAL_OPTIONAL, .meta = "text|csv", .set = set_stats,
     .help = "print the busy and overlap times on standard output, as an aligned table or as "
             "CSV; write figures only for the -o given (none by default)"},
    {.name = "stats-scope", .value = TF_VAL_REQUIRED, .meta = "SCOPE", .record = TF_REC_VALUE,
     .set = set_stats_scope,
     .help = "the GPU breakdown of the 'window' (default) or of the whole 'trace'"},
    {.name = "critical-path", .value = TF_VAL_NONE, .record = TF_REC_VALUE, .set = tf_opt_flag,
     .field = FIELD(rules.critical_path),
     .help = "draw the window's critical path (HTA's graph); --window-event NAME "
             "is then HTA's annotation, a part of the names ('ProfilerStep')"},
    {.name = "stats-compat", .value = TF_VAL_REQUIRED, .meta = "hta|none", .record = TF_REC_VALUE,
     .set = set_stats_compat,
     .help = "hta: the GPU breakdown and comm/compute overlap exactly as HTA's TraceAnalysis "
             "computes them (its rounding, step filter and kernel classes; man tracefig-stats); "
             "none (default): tracefig's own definitions"},
    {.name = "group", .value = TF_VAL_REQUIRED, .meta = "NAME=PATTERN,...", .record = TF_REC_VALUE,
     .set = set_group,
     .help = "also report the group of the lanes whose label matches a glob; repeat for more "
             "groups"},
    {.name = "annotate", .value = TF_VAL_NONE, .record = TF_REC_VALUE, .set = tf_opt_flag,
     .field = FIELD(annotate),
     .help = "write the one-line summary under the figure (\"I/O hidden 81 %, GPU idle 7 %\")"},

    TF_OPT_HEADING("Output:"),
    {.name = "output", .shortname = 'o', .value = TF_VAL_REQUIRED, .meta = "FILE",
     .set = set_output,
     .help = "write the figure to FILE ('-': standard output); repeat for several formats from "
             "one load (default: overlap_trace.pdf; none with --stats)"},
    {.name = "format", .shortname = 'f', .value = TF_VAL_REQUIRED, .meta = "FMT",
     .set = set_format, .help = "output format, else from each FILE's extension:",
     .help_list = help_formats},
    {.name = "standalone", .value = TF_VAL_NONE, .record = TF_REC_VALUE, .set = tf_opt_flag,
     .field = FIELD(render.standalone), .help = "TikZ: a complete document, not a fragment"},
    {.name = "dpi", .value = TF_VAL_REQUIRED, .meta = "N", .set = tf_opt_double,
     .field = FIELD(render.dpi), .lo = 10, .hi = 2400, .help = "PNG resolution (default 200)"},
    {.name = "companion-png", .value = TF_VAL_NONE, .record = TF_REC_VALUE, .set = tf_opt_flag,
     .field = FIELD(companion_png),
     .help = "with a .pdf output, also write the .png beside it, as the reference script does"},

    TF_OPT_HEADING("Size and layout:"),
    {.name = "width", .value = TF_VAL_REQUIRED, .meta = "LEN", .record = TF_REC_VALUE,
     .set = tf_opt_length, .field = FIELD(render.size.width_pt), .has = FIELD(render.size.given),
     .lo = 36, .hi = 14400,
     .help = "SVG, PDF, PNG: the figure's width, with its unit: pt, bp, in, cm, mm or px (96 "
             "per inch); default 240bp, a paper's column (Chrome traces), 10in (pipelined "
             "timelines). TikZ always fits \\tracefigwidth or \\linewidth"},
    {.name = "height", .value = TF_VAL_REQUIRED, .meta = "LEN", .record = TF_REC_VALUE,
     .set = tf_opt_length, .field = FIELD(render.size.height_pt), .has = FIELD(render.size.given),
     .lo = 36, .hi = 14400,
     .help = "the figure's height (default: what its lanes need, at most 1.25 x the width and "
             "400pt); rows get thinner to fit, then fewer nesting rows and lanes are drawn"},
    {.name = "font-size", .value = TF_VAL_REQUIRED, .meta = "PT", .record = TF_REC_VALUE,
     .set = tf_opt_double, .field = FIELD(render.size.font_pt), .has = FIELD(render.size.given),
     .lo = 4, .hi = 48,
     .help = "SVG, PDF, PNG: the base text size in points (default: 8 from 224pt wide, down to "
             "6 for narrower figures); TikZ uses the document's fonts"},
    {.name = "label-width", .value = TF_VAL_REQUIRED, .meta = "LEN", .record = TF_REC_VALUE,
     .set = tf_opt_length, .field = FIELD(render.size.label_w_pt),
     .has = FIELD(render.size.given), .lo = 1, .hi = 14400,
     .help = "the widest the lane labels left of the plot may be (default: a quarter of the "
             "width)"},
    {.name = "labels", .value = TF_VAL_REQUIRED, .meta = "WHERE", .record = TF_REC_VALUE,
     .set = set_labels,
     .help = "lane labels 'left' of the plot, 'above' their lanes, or 'none'; default auto: "
             "left when they fit, else above"},
    TF_OPT_HEADING("Help:"),
    {.name = "help", .shortname = 'h', .value = TF_VAL_NONE, .set = set_help,
     .help = "show this help and exit"},
    {.name = "version", .shortname = 'V', .value = TF_VAL_NONE, .set = set_version,
     .help = "show the version and the back-ends built in"},
};

enum { N_OPTIONS = sizeof options / sizeof options[0] };

void tf_options_print_help(void)
{
    printf("Usage: tracefig [OPTION]... [TRACE]\n"
           "  or:  tracefig [OPTION]... TRACE TRACE... (one figure of several traces)\n"
           "Turn a performance trace into a publication figure of a chosen window: a\n"
           "pipelined I/O timeline, or any Chrome Trace Event Format file (PyTorch\n"
           "profiler, Chrome, Perfetto, TensorFlow, clang -ftime-trace), gzip'd or not,\n"
           "an Nsight Systems export (nsys export --type sqlite), a rocpd database\n"
           "(rocprofv3 --output-format rocpd; rocprof v1's results.db), a Perfetto\n"
           "protobuf trace (Android system traces with CPU lanes from the scheduler,\n"
           "the Perfetto SDK, Rust's tracing-perfetto), an XPlane profile (*.xplane.pb:\n"
           "JAX, TensorFlow, PyTorch/XLA on GPUs and TPUs), ftrace text (trace-cmd\n"
           "report, the tracing file, atrace, systrace HTML), or an OTF2 archive (Score-P,\n"
           "TAU, APEX, rocprofv3: traces.otf2), drawn rank by rank, or a CTF trace\n"
           "(LTTng kernel and user space, perf --to-ctf: its folder) as CPU lanes\n"
           "and threads.\n"
           "Every long option also has a snake_case spelling (--start_candidate).\n");
    tf_opt_help(options, N_OPTIONS);
    printf("\n"
           "Exit status: 0 ok, 1 bad input, 2 usage error, 3 output I/O error,\n"
           "4 out of memory.\n"
           "The rest is in the manual: 'man tracefig' (options, figure rules),\n"
           "'man tracefig-inputs' (each format), 'man tracefig-model' (the JSON model),\n"
           "'man tracefig-stats' (the statistics); from the sources: man -l man/NAME.N.\n");
}

void tf_options_print_version(void)
{
    printf("tracefig %s\nback-ends:", TF_VERSION);
    for (size_t i = 0; tf_backends[i]; i++)
        printf(" %s%s", tf_backends[i]->name, tf_backends[i]->available ? "" : "(not built)");
    printf("\n");
#ifndef TF_HAVE_CAIRO
    printf("PDF and PNG output are not available: built without cairo.\n");
#endif
}

static bool set_help(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    (void)o;
    (void)val;
    (void)d;
    c->want_help = true;
    c->exit_now = true;
    return true;
}

static bool set_version(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    (void)o;
    (void)val;
    (void)d;
    c->want_version = true;
    c->exit_now = true;
    return true;
}


/* --- parsing ------------------------------------------------------------------------ */

static bool log_set(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    if (!TF_GROW(c->log, c->n_log, c->cap_log))
        return tf_diag_oom(d, NULL);
    c->log[c->n_log++] = (struct tf_opt_set){o, val};
    return true;
}

/* A positional TRACE (recorded as its base name). */
static bool set_positional(void *ctx, const char *a, struct tf_diag *d)
{
    struct tracefig_options *c = ctx;
    tf_opt_record(&c->cmdline, a, true);
    return add_trace(c, a, d) && log_set(c, NULL, a, d);
}

static struct tf_opt_parser parser(struct tracefig_options *c)
{
    struct tf_opt_parser p = {options, N_OPTIONS, set_positional, &c->cmdline, &c->exit_now,
                              log_set};
    return p;
}

void tf_options_init(struct tracefig_options *c)
{
    memset(c, 0, sizeof *c);
    tf_arena_init(&c->arena);
    tf_buf_init(&c->cmdline);
    c->render.dpi = 200.0;
    c->zoom_pad_pct = 5.0;
}

void tf_options_fini(struct tracefig_options *c)
{
    tf_buf_fini(&c->cmdline);
    free(c->traces);
    free(c->titles);
    free(c->lanes);
    free(c->hide);
    free(c->colors);
    free(c->groups);
    free(c->marks);
    free(c->log);
    tf_arena_fini(&c->arena);
    memset(c, 0, sizeof *c);
}

bool tf_options_parse_argv(struct tracefig_options *c, int argc, char **argv, struct tf_diag *d)
{
    struct tf_opt_parser p = parser(c);
    return tf_opt_parse(&p, argc, argv, c, d);
}

/* The options the library cannot take: they name files and streams of the
 * command line (tracefig_render writes into memory). */
static bool cli_only(const struct tf_optdef *o)
{
    static const char *const names[] = {"output", "format", "companion-png", "stats", "help",
                                        "version", "palette-out"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(o->name, names[i]) == 0)
            return true;
    return false;
}

static bool set_copy(struct tracefig_options *c, const struct tf_optdef *o, const char *value,
                     struct tf_diag *d)
{
    char a[80];
    snprintf(a, sizeof a, "--%s", o->name);
    const char *val = value ? tf_arena_strdup(&c->arena, value) : NULL;
    if (value && !val)
        return tf_diag_oom(d, NULL);
    struct tf_opt_parser p = parser(c);
    return tf_opt_apply(&p, o, a, val, c, d);
}

bool tf_options_set(struct tracefig_options *c, const char *name, const char *value,
                    struct tf_diag *d)
{
    struct tf_opt_parser p = parser(c);
    const char *n = strncmp(name, "--", 2) == 0 ? name + 2 : name;
    const struct tf_optdef *o = tf_opt_find(&p, n);
    if (!o) {
        const char *near = tf_opt_nearest(&p, n, strlen(n));
        if (near)
            return tf_diag_usage(d, "unknown option '--%.200s' (did you mean '--%s'?)", n, near);
        return tf_diag_usage(d, "unknown option '--%.200s'", n);
    }
    if (cli_only(o))
        return tf_diag_usage(d, "--%s is an option of the command line: the library renders "
                              "into memory (tracefig_render)",
                           o->name);
    return set_copy(c, o, value, d);
}

bool tf_options_copy(struct tracefig_options *dst, const struct tracefig_options *src,
                     struct tf_diag *d)
{
    tf_options_init(dst);
    for (size_t i = 0; i < src->n_log; i++) {
        const struct tf_opt_set *s = &src->log[i];
        if (s->o) {
            if (!set_copy(dst, s->o, s->val, d))
                return false;
            continue;
        }
        const char *path = tf_arena_strdup(&dst->arena, s->val);
        if (!path || !set_positional(dst, path, d))
            return path ? false : tf_diag_oom(d, NULL);
    }
    return true;
}

bool tf_options_check_stdin(const struct tracefig_options *c, const char *path,
                            struct tf_diag *d)
{
    if (c->breakdown_path && strcmp(path, "-") == 0 && strcmp(c->breakdown_path, "-") == 0)
        return tf_diag_usage(d, "standard input can be read only once: '-' for both the trace "
                              "and the breakdown");
    return true;
}

bool tf_options_finish(struct tracefig_options *c, struct tf_diag *d)
{
    /* The reference: --focus_candidate counts only without --start_candidate. */
    if (!c->rules.start_candidate.set && c->focus.set)
        c->rules.start_candidate = c->focus;
    c->rules.lanes = c->lanes;
    c->rules.n_lanes = c->n_lanes;
    c->rules.hide = c->hide;
    c->rules.n_hide = c->n_hide;
    c->rules.colors = c->colors;
    c->rules.n_colors = c->n_colors;
    c->rules.groups = c->groups;
    c->rules.n_groups = c->n_groups;
    if (c->rules.has_from && c->rules.has_to && c->rules.to_ns <= c->rules.from_ns)
        return tf_diag_usage(d, "--to must come after --from");
    if (c->rules.window_event && (c->rules.has_from || c->rules.has_to))
        return tf_diag_usage(d, "--window-event and --from/--to both choose the window: give one");
    if (c->n_traces > 1 && c->breakdown_path)
        return tf_diag_usage(d, "--breakdown adds the panel of one trace: give one trace with it");
    return c->n_traces != 1 || tf_options_check_stdin(c, c->traces[0], d);
}
