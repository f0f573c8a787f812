/* main.c - the command line: options, the list of outputs, exit codes, and
 * the dispatch through the two tables: modes (rules/mode.h) and back-ends
 * (render/render.h).
 *
 * Loads the trace once (keeping what the mode's filter asks for), builds the
 * figure model once, renders every output into memory, and only when all of
 * them succeeded writes them (each through a temp file renamed into place).
 * A failure therefore writes nothing and never clobbers an existing output.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/outfile.h"
#include "model/figure.h"
#include "model/trace.h"
#include "load/model.h"
#include "render/plan.h"
#include "render/render.h"
#include "render/stats.h"
#include "rules/chrome.h"
#include "rules/mode.h"
#include "rules/remodel.h"
#include "rules/timeline.h"
#include "opt.h"
#include "run.h"

#ifndef TF_VERSION
#define TF_VERSION "0.1.0"
#endif

enum { MAX_OUTPUTS = 16 };

/* How --stats prints the statistics on standard output. */
enum stats_format { STATS_NONE = 0, STATS_TEXT, STATS_CSV };

struct output {
    const char *path; /* "-" for stdout */
    const struct tf_backend *backend; /* NULL: the --stats output */
    struct tf_buf buf;
    bool owned_path; /* path was allocated here (the companion PNG) */
};

struct cli {
    const char *trace_path;
    const char **traces; /* every trace and model given, in order */
    size_t n_traces, cap_traces;
    const char **titles; /* --titles */
    size_t n_titles, cap_titles;
    enum tf_align align; /* --align */
    const char *breakdown_path;
    const char *format; /* --format, or NULL */
    const struct tf_mode *mode; /* --mode, or NULL for auto */
    struct tf_opts rules;
    struct tf_render_opts render;
    bool companion_png;
    struct output outputs[MAX_OUTPUTS];
    size_t n_outputs;
    struct tf_buf cmdline;
    /* The generic mode's lists (strings in `arena`). */
    const char **lanes, **hide;
    size_t n_lanes, cap_lanes; /* set_patterns: the capacity follows the count */
    size_t n_hide, cap_hide;
    struct tf_color_rule *colors;
    size_t n_colors, cap_colors;
    /* The statistics: --stats[=csv], --group, --annotate. */
    enum stats_format stats;
    struct tf_group_opt *groups;
    size_t n_groups, cap_groups;
    bool annotate;
    struct tf_opt_int focus; /* --focus-candidate: counts without --start-candidate */
    bool exit_now;           /* --help, --version: done */
    struct tf_arena arena;
};

static void usage_hint(void)
{
    fputs("Try 'tracefig --help' for more information.\n", stderr);
}

static bool usage_error(struct tf_diag *d, const char *fmt, ...) TF_PRINTF(2, 3);
static bool usage_error(struct tf_diag *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tf_diag_verror(d, TF_EUSAGE, fmt, ap);
    va_end(ap);
    return false;
}

/* --- the options' own setters (opt.h has the generic ones) --- */

#define FIELD(m) offsetof(struct cli, m)

static void *field_of(struct cli *c, size_t off)
{
    return (char *)c + off;
}

static tf_opt_setter set_help;
static tf_opt_setter set_version;

/* --breakdown: one file. */
static bool set_file(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct cli *c = ctx;
    const char **path = field_of(c, o->field);
    if (*path)
        return usage_error(d, "more than one %s file: '%.200s'", o->name, val);
    *path = val;
    return true;
}

/* --trace FILE and TRACE: another trace (or figure model), in order. */
static bool add_trace(struct cli *c, const char *path, struct tf_diag *d)
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
    struct cli *c = ctx;
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
    struct cli *c = ctx;
    (void)o;
    if (!tf_align_parse(val, &c->align))
        return usage_error(d, "--align: expected clock, event or start, got '%.200s'", val);
    return true;
}

static bool add_output(struct cli *c, const char *path, struct tf_diag *d)
{
    if (c->n_outputs == MAX_OUTPUTS)
        return usage_error(d, "too many outputs (at most %d)", MAX_OUTPUTS);
    c->outputs[c->n_outputs].path = path;
    tf_buf_init(&c->outputs[c->n_outputs].buf);
    c->n_outputs++;
    return true;
}

static bool set_output(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct cli *c = ctx;
    (void)o;
    return add_output(c, val, d);
}

static bool set_format(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct cli *c = ctx;
    (void)o;
    if (!tf_backend_by_name(val))
        return usage_error(d, "unknown format '%.200s' (see --help)", val);
    if (c->format && strcmp(c->format, val) != 0)
        return usage_error(d, "more than one --format: '%.50s' and '%.50s'", c->format, val);
    c->format = val;
    return true;
}

static bool set_mode(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct cli *c = ctx;
    (void)o;
    if (strcmp(val, "auto") == 0)
        c->mode = NULL;
    else if (!(c->mode = tf_mode_by_name(val)))
        return usage_error(d, "unknown mode '%.200s' (see --help)", val);
    return true;
}

/* --from, --to: a time with its unit, from the trace's origin. */
static bool set_time(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct cli *c = ctx;
    int64_t ns;
    if (!tf_chrome_parse_time(val, &ns) || ns < 0)
        return usage_error(d, "--%s: expected a time such as 12.5ms, 300us or 1.2s, got "
                              "'%.200s'",
                           o->name, val);
    *(int64_t *)field_of(c, o->field) = ns;
    *(bool *)field_of(c, o->has) = true;
    return true;
}

/* --counters, --no-counters: the last one given wins. */
static bool set_counters(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct cli *c = ctx;
    (void)val;
    (void)d;
    c->rules.counters = strncmp(o->name, "no-", 3) == 0 ? -1 : 1;
    return true;
}

/* --lanes / --hide: comma-separated globs, appended in order (the list
 * at `field`, its count at `has`, its capacity right after the count). */
static bool set_patterns(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct cli *c = ctx;
    const char ***list = field_of(c, o->field);
    size_t *n = field_of(c, o->has), *cap = n + 1;
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
    struct cli *c = ctx;
    (void)o;
    const char *eq = strrchr(val, '=');
    const char *hex = eq ? eq + 1 : "";
    if (*hex == '#')
        hex++;
    bool ok = eq && eq > val && strlen(hex) == 6 && strspn(hex, "0123456789abcdefABCDEF") == 6;
    if (!ok)
        return usage_error(d, "--color: expected PATTERN=#RRGGBB, got '%.200s'", val);
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
    struct cli *c = ctx;
    (void)o;
    const char *eq = strchr(val, '=');
    size_t n = 0;
    for (const char *p = eq ? eq + 1 : ""; *p; p++)
        n += *p == ',' ? 0 : (p == eq + 1 || p[-1] == ',');
    if (!eq || eq == val || n == 0)
        return usage_error(d, "--group: expected NAME=PATTERN,..., got '%.200s'", val);
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
    struct cli *c = ctx;
    (void)o;
    static const char *const names[] = {"auto", "left", "above", "none"};
    for (int i = 0; i < 4; i++)
        if (strcmp(val, names[i]) == 0) {
            c->render.size.labels = (enum tf_label_place)i;
            c->render.size.given = true;
            return true;
        }
    return usage_error(d, "--labels: expected left, above, none or auto, got '%.200s'", val);
}

/* --stats or --stats=FORMAT. */
static bool set_stats(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct cli *c = ctx;
    (void)o;
    if (!val || strcmp(val, "text") == 0)
        c->stats = STATS_TEXT;
    else if (strcmp(val, "csv") == 0)
        c->stats = STATS_CSV;
    else
        return usage_error(d, "--stats: expected text or csv, got '%.200s'", val);
    return true;
}

static bool set_color_by(void *ctx, const struct tf_optdef *o, const char *val,
                         struct tf_diag *d)
{
    struct cli *c = ctx;
    (void)o;
    if (strcmp(val, "auto") == 0)
        c->rules.color_by = TF_COLOR_BY_AUTO;
    else if (strcmp(val, "category") == 0)
        c->rules.color_by = TF_COLOR_BY_CATEGORY;
    else if (strcmp(val, "name") == 0)
        c->rules.color_by = TF_COLOR_BY_NAME;
    else
        return usage_error(d, "--color-by: expected category, name or auto, got '%.200s'", val);
    return true;
}

static bool set_stats_compat(void *ctx, const struct tf_optdef *o, const char *val,
                             struct tf_diag *d)
{
    struct cli *c = ctx;
    (void)o;
    if (strcmp(val, "hta") != 0 && strcmp(val, "none") != 0)
        return usage_error(d, "--stats-compat: expected hta or none, got '%.200s'", val);
    c->rules.stats_compat_hta = val[0] == 'h';
    return true;
}

static bool set_stats_scope(void *ctx, const struct tf_optdef *o, const char *val,
                            struct tf_diag *d)
{
    struct cli *c = ctx;
    (void)o;
    if (strcmp(val, "window") != 0 && strcmp(val, "trace") != 0)
        return usage_error(d, "--stats-scope: expected window or trace, got '%.200s'", val);
    c->rules.stats_trace_scope = val[0] == 't';
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
             "or a bare array, plain or gzip), or an Nsight Systems SQLite export "
             "(report.sqlite); '-' reads standard input; repeat, or give several TRACEs, for "
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

    TF_OPT_HEADING("Chrome traces (the chrome mode):"),
    {.name = "from", .value = TF_VAL_REQUIRED, .meta = "T", .record = TF_REC_VALUE,
     .set = set_time, .field = FIELD(rules.from_ns), .has = FIELD(rules.has_from),
     .help = "the window's start, from the trace's origin (an export's: its session start); T "
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
     .help = "colour slices by their category or by their name (a stable colour per name); "
             "auto (the default): by name when the events drawn carry one category or none"},
    {.name = "flows", .value = TF_VAL_NONE, .record = TF_REC_VALUE, .set = tf_opt_flag,
     .field = FIELD(rules.flows), .help = "draw flow arrows (s/t/f events, bind_id)"},
    {.name = "async", .value = TF_VAL_NONE, .record = TF_REC_VALUE, .set = tf_opt_flag,
     .field = FIELD(rules.async),
     .help = "draw async events (b/e/n) on a lane per process and category"},

    {.name = "osrt", .value = TF_VAL_NONE, .record = TF_REC_VALUE, .set = tf_opt_flag,
     .field = FIELD(rules.osrt), .help = "Nsight Systems exports: draw OS runtime calls too"},
    TF_OPT_HEADING("Statistics (computed on the window drawn; see tracefig(1), STATISTICS):"),
    {.name = "stats", .value = TF_VAL_OPTIONAL, .meta = "text|csv", .set = set_stats,
     .help = "print the busy and overlap times on standard output, as an aligned table or as "
             "CSV; write figures only for the -o given (none by default)"},
    {.name = "stats-scope", .value = TF_VAL_REQUIRED, .meta = "SCOPE", .record = TF_REC_VALUE,
     .set = set_stats_scope,
     .help = "the GPU breakdown of the 'window' (default) or of the whole 'trace'"},
    {.name = "stats-compat", .value = TF_VAL_REQUIRED, .meta = "hta|none", .record = TF_REC_VALUE,
     .set = set_stats_compat,
     .help = "hta: the GPU breakdown and comm/compute overlap exactly as HTA's TraceAnalysis "
             "computes them (its rounding, step filter and kernel classes; see tracefig(1)); "
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
    {.name = "dpi", .value = TF_VAL_REQUIRED, .meta = "N", .set = tf_opt_double,
     .field = FIELD(render.dpi), .lo = 10, .hi = 2400, .help = "PNG resolution (default 200)"},
    {.name = "companion-png", .value = TF_VAL_NONE, .record = TF_REC_VALUE, .set = tf_opt_flag,
     .field = FIELD(companion_png),
     .help = "with a .pdf output, also write the .png beside it, as the reference script does"},

    TF_OPT_HEADING(""),
    {.name = "help", .shortname = 'h', .value = TF_VAL_NONE, .set = set_help,
     .help = "show this help and exit"},
    {.name = "version", .shortname = 'V', .value = TF_VAL_NONE, .set = set_version,
     .help = "show the version and the back-ends built in"},
};

enum { N_OPTIONS = sizeof options / sizeof options[0] };

static void print_help(void)
{
    printf("Usage: tracefig [OPTION]... [TRACE]\n"
           "  or:  tracefig [OPTION]... TRACE TRACE... (one figure of several traces)\n"
           "Turn a performance trace into a publication figure of a chosen window: a\n"
           "pipelined I/O timeline, or any Chrome Trace Event Format file (PyTorch\n"
           "profiler, Chrome, Perfetto, TensorFlow, clang -ftime-trace), gzip'd or not,\n"
           "or an Nsight Systems export (nsys export --type sqlite).\n"
           "Every long option also has a snake_case spelling (--start_candidate).\n");
    tf_opt_help(options, N_OPTIONS);
    printf("\n"
           "Exit status: 0 ok, 1 bad input, 2 usage error, 3 output I/O error,\n"
           "4 out of memory.\n"
           "See tracefig(1) for the figure rules and the JSON model.\n");
}

static void print_version(void)
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
    struct cli *c = ctx;
    (void)o;
    (void)val;
    (void)d;
    print_help();
    c->exit_now = true;
    return true;
}

static bool set_version(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d)
{
    struct cli *c = ctx;
    (void)o;
    (void)val;
    (void)d;
    print_version();
    c->exit_now = true;
    return true;
}

/* A positional TRACE (recorded as its base name). */
static bool set_positional(void *ctx, const char *a, struct tf_diag *d)
{
    struct cli *c = ctx;
    tf_opt_record(&c->cmdline, a, true);
    return add_trace(c, a, d);
}

static bool parse_args(int argc, char **argv, struct cli *c, struct tf_diag *d)
{
    tf_buf_puts(&c->cmdline, "tracefig");
    struct tf_opt_parser p = {options, N_OPTIONS, set_positional, &c->cmdline, &c->exit_now};
    if (!tf_opt_parse(&p, argc, argv, c, d))
        return false;
    if (c->exit_now)
        return true;
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
        return usage_error(d, "--to must come after --from");
    if (c->rules.window_event && (c->rules.has_from || c->rules.has_to))
        return usage_error(d, "--window-event and --from/--to both choose the window: give one");
    if (c->n_traces > 1 && c->breakdown_path)
        return usage_error(d, "--breakdown adds the panel of one trace: give one trace with it");
    if (c->n_traces == 1)
        c->trace_path = c->traces[0];
    return true;
}

/* Assigns each output its back-end; adds the companion PNG, and last the
 * --stats output (standard output, which no figure may then take). */
static bool resolve_outputs(struct cli *c, struct tf_diag *d)
{
    /* TRACEFIG_STATS=off: no statistics, for make bench to price them. */
    const char *st = getenv("TRACEFIG_STATS");
    c->rules.no_stats = st && strcmp(st, "off") == 0 && !c->stats;
    if (c->n_outputs == 0 && !c->stats && !add_output(c, "overlap_trace.pdf", d))
        return false;
    if (c->companion_png) {
        size_t n = c->n_outputs;
        for (size_t i = 0; i < n; i++) {
            const char *p = c->outputs[i].path;
            size_t len = strlen(p);
            if (len > 4 && tf_backend_by_path(p) == &tf_backend_pdf) {
                char *png = malloc(len + 1);
                if (!png)
                    return tf_diag_oom(d, NULL);
                memcpy(png, p, len - 4);
                strcpy(png + len - 4, ".png");
                if (!add_output(c, png, d)) {
                    free(png);
                    return false;
                }
                c->outputs[c->n_outputs - 1].backend = &tf_backend_png;
                c->outputs[c->n_outputs - 1].owned_path = true;
            }
        }
    }
    for (size_t i = 0; i < c->n_outputs; i++) {
        struct output *o = &c->outputs[i];
        if (o->backend)
            continue;
        if (c->format)
            o->backend = tf_backend_by_name(c->format);
        else if (strcmp(o->path, "-") == 0)
            o->backend = &tf_backend_json;
        else
            o->backend = tf_backend_by_path(o->path);
        if (!o->backend)
            return usage_error(d, "cannot tell the format of '%.200s': use --format", o->path);
        if (!o->backend->available)
            return tf_diag_error(d, TF_EUSAGE,
                                 "%s output is not available: tracefig was built without cairo "
                                 "(install libcairo2-dev and rebuild)",
                                 o->backend->name);
        if (c->stats && strcmp(o->path, "-") == 0)
            return usage_error(d, "--stats prints on standard output: write the figure to a "
                                  "file, not '-'");
    }
    if (c->stats && !add_output(c, "-", d))
        return false;
    return true;
}

static void free_cli(struct cli *c)
{
    for (size_t i = 0; i < c->n_outputs; i++) {
        tf_buf_fini(&c->outputs[i].buf);
        if (c->outputs[i].owned_path)
            free((char *)c->outputs[i].path);
    }
    tf_buf_fini(&c->cmdline);
    free(c->traces);
    free(c->titles);
    free(c->lanes);
    free(c->hide);
    free(c->colors);
    free(c->groups);
    tf_arena_fini(&c->arena);
}

/* What the layout leaves out at the size asked (lanes and nesting rows past
 * the height budget) is a note of the figure, said once. */
static bool plan_notes(struct cli *c, struct tf_figure *fig, struct tf_diag *d)
{
    bool figures = false;
    for (size_t i = 0; i < c->n_outputs; i++)
        figures |= c->outputs[i].backend != NULL;
    if (!figures || !tf_plan_fits(fig, &c->render.size))
        return true; /* the reference's layout leaves nothing out */
    struct tf_plan plan;
    bool ok = tf_plan_make(fig, &c->render.size, &plan);
    if (ok && plan.note) {
        ok = tf_figure_add_note(fig, plan.note);
        tf_diag_warn(d, "%s: %s", c->n_traces > 1 ? "the figure" : tf_diag_name(c->trace_path),
                     plan.note);
    }
    tf_plan_fini(&plan);
    return ok || tf_diag_oom(d, NULL);
}

/* Stages every output, then commits them all: standard output and devices
 * first (their writes are the ones that can still fail, e.g. /dev/full),
 * then the renames of the staged files.  Nothing is replaced unless every
 * output could be staged and every direct write succeeded. */
static bool write_outputs(struct cli *c, struct tf_diag *d)
{
    struct tf_outfile files[MAX_OUTPUTS];
    size_t n = 0;
    bool ok = true;
    for (size_t i = 0; i < c->n_outputs && ok; i++, n++) {
        const struct output *o = &c->outputs[i];
        ok = tf_outfile_stage(&files[i], o->path, o->buf.data, o->buf.len, d);
    }
    for (int pass = 0; pass < 2 && ok; pass++)
        for (size_t i = 0; i < n && ok; i++)
            if (files[i].direct == (pass == 0))
                ok = tf_outfile_commit(&files[i], d);
    for (size_t i = 0; i < n; i++)
        tf_outfile_abort(&files[i]);
    return ok;
}

int main(int argc, char **argv)
{
    struct cli c;
    memset(&c, 0, sizeof c);
    tf_arena_init(&c.arena);
    c.render.dpi = 200.0;
    tf_buf_init(&c.cmdline);
    struct tf_diag d;
    tf_diag_init(&d);

    struct tf_trace trace;
    tf_trace_init(&trace);
    struct tf_figure fig;
    tf_figure_init(&fig);

    if (!parse_args(argc, argv, &c, &d) || c.exit_now)
        goto done;
    if (!c.trace_path)
        c.trace_path = "io_overlap_timeline.json"; /* the reference's default */
    if (c.breakdown_path && strcmp(c.trace_path, "-") == 0 && strcmp(c.breakdown_path, "-") == 0) {
        usage_error(&d, "standard input can be read only once: '-' for both the trace and "
                        "the breakdown");
        goto done;
    }
    if (!resolve_outputs(&c, &d))
        goto done;
    c.render.cmdline = c.cmdline.data;

    /* One trace as ever; a figure model of one trace as it is; several
     * traces (or a model of several) as one figure. */
    bool model = false, several = c.n_traces > 1;
    if (!several && strcmp(c.trace_path, "-") != 0 &&
        !tf_load_is_model(c.trace_path, &model, &d))
        goto done;
    if (model && !several && !tf_load_model_figure(c.trace_path, &fig, &several, &d))
        goto done;
    if (model && !several && !tf_remodel(&fig)) {
        tf_diag_oom(&d, NULL);
        goto done;
    }
    if (!several && (c.n_titles || c.align))
        tf_diag_warn(&d, "--titles and --align are for several traces: one trace is drawn as "
                         "it is");
    if (several) {
        const char *one[1] = {c.trace_path};
        struct tf_multi_run multi = {c.n_traces > 1 ? c.traces : one,
                                     c.n_traces > 1 ? c.n_traces : 1,
                                     c.titles,
                                     c.n_titles,
                                     c.align,
                                     c.mode,
                                     &c.rules};
        if (!tf_run_multi(&multi, &fig, &d))
            goto done;
    } else if (!model) {
        struct tf_run run = {c.trace_path, c.breakdown_path, c.mode, &c.rules};
        if (!tf_run(&run, &trace, &fig, &d))
            goto done;
    }
    if (c.annotate) {
        if (fig.stats.summary)
            fig.annotate = true;
        else
            tf_diag_warn(&d, "--annotate: the %s mode has no summary line for this figure",
                         fig.mode ? fig.mode : "chosen");
    }
    if (!plan_notes(&c, &fig, &d))
        goto done;
    for (size_t i = 0; i < c.n_outputs; i++) {
        struct output *o = &c.outputs[i];
        if (!o->backend) {
            if (c.stats == STATS_CSV)
                tf_stats_write_csv(&fig, &o->buf);
            else
                tf_stats_write_table(&fig, &o->buf);
        } else if (!o->backend->render(&fig, &c.render, &o->buf, &d)) {
            goto done;
        }
        if (o->buf.oom) {
            tf_diag_oom(&d, o->path);
            goto done;
        }
    }
    if (!write_outputs(&c, &d))
        goto done;

done:;
    int code = d.code;
    if (tf_diag_failed(&d)) {
        fprintf(stderr, "tracefig: %s\n", d.msg);
        if (d.code == TF_EUSAGE)
            usage_hint();
    }
    tf_figure_fini(&fig);
    tf_trace_fini(&trace);
    free_cli(&c);
    return code;
}
