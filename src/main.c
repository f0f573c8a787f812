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
#include "render/render.h"
#include "render/stats.h"
#include "rules/chrome.h"
#include "rules/mode.h"
#include "rules/timeline.h"
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

/* --- the option table -----------------------------------------------------
 *
 * Every option is one row: its spellings, its value, the help text, how the
 * command line records it (TikZ headers) and the function that sets it.
 * Parsing, --help and the recorded command line all come from this table,
 * so an option is written in one place.  Rows without a name are the
 * headings of --help. */

struct opt;
typedef bool opt_setter(struct cli *c, const struct opt *o, const char *val,
                        struct tf_diag *d);

enum opt_value {
    VAL_NONE = 0, /* a flag */
    VAL_REQUIRED, /* --name VALUE or --name=VALUE */
    VAL_OPTIONAL  /* --name or --name=VALUE, never the next argument */
};

/* How the recorded command line shows an option. */
enum opt_record {
    REC_NONE = 0, /* not at all (outputs, formats, --dpi, --stats) */
    REC_VALUE,    /* " --name VALUE" (" --name" for a flag) */
    REC_PATH      /* " --name BASENAME": no folders in any output */
};

struct opt {
    const char *name;  /* the long spelling without "--"; NULL: a --help heading */
    const char *alias; /* another long spelling, or NULL */
    char shortname;    /* -x, or 0 */
    enum opt_value value;
    const char *meta;  /* the value in --help ("FILE") */
    enum opt_record record;
    opt_setter *set;
    size_t field, has; /* offsetof(struct cli, ...) for the generic setters; has: 0 none */
    double lo, hi;     /* the range of a number */
    const char *help;  /* lines separated by '\n'; a heading's title */
    void (*help_list)(void); /* more --help lines after the text (modes, formats) */
};

#define FIELD(m) offsetof(struct cli, m)

static void *field_of(struct cli *c, size_t off)
{
    return (char *)c + off;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s && s[1] ? s + 1 : p;
}

/* The command recorded in TikZ headers: no paths, no output names, and
 * printable ASCII only ('?' for anything else, and for '^', which TeX could
 * read as a ^^ escape), so it can sit in a comment of any output language. */
static void record_arg(struct cli *c, const char *arg, bool is_path)
{
    tf_buf_putc(&c->cmdline, ' ');
    for (const char *p = is_path ? base_name(arg) : arg; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        tf_buf_putc(&c->cmdline, ch >= 0x20 && ch < 0x7F && ch != '^' ? (char)ch : '?');
    }
}

static bool parse_int(const char *opt, const char *s, struct tf_opt_int *out,
                      struct tf_diag *d)
{
    char *end;
    errno = 0;
    bool digits = (s[0] >= '0' && s[0] <= '9') || (s[0] == '-' && s[1] >= '0' && s[1] <= '9');
    long long v = digits ? strtoll(s, &end, 10) : 0;
    if (!digits)
        end = (char *)s;
    if (end == s || *end != '\0' || errno == ERANGE || v < -1000000000LL ||
        v > 1000000000LL)
        return usage_error(d, "%s: expected an integer, got '%.200s'", opt, s);
    out->set = true;
    out->v = v;
    return true;
}

static bool parse_double(const char *opt, const char *s, double lo, double hi, double *out,
                         struct tf_diag *d)
{
    char *end;
    errno = 0;
    /* Plain decimal only: no spaces, hex, "inf" or "nan". */
    bool plain = s[0] != '\0' && strspn(s, "0123456789.eE+-") == strlen(s);
    double v = plain ? strtod(s, &end) : 0.0;
    if (!plain)
        end = (char *)s;
    if (end == s || *end != '\0' || errno == ERANGE || !(v >= lo && v <= hi))
        return usage_error(d, "%s: expected a number, got '%.200s'", opt, s);
    *out = v;
    return true;
}

/* "--name" of a row, for messages. */
static const char *dashed(const struct opt *o, char *buf, size_t n)
{
    snprintf(buf, n, "--%s", o->name);
    return buf;
}

/* --- generic setters (the row's field, has, lo, hi) --- */

static bool set_flag(struct cli *c, const struct opt *o, const char *val, struct tf_diag *d)
{
    (void)val;
    (void)d;
    *(bool *)field_of(c, o->field) = true;
    return true;
}

/* A struct tf_opt_int; a range when lo < hi. */
static bool set_opt_int(struct cli *c, const struct opt *o, const char *val, struct tf_diag *d)
{
    char opt[80];
    struct tf_opt_int *v = field_of(c, o->field);
    if (!parse_int(dashed(o, opt, sizeof opt), val, v, d))
        return false;
    if (o->lo < o->hi && !(v->v >= o->lo && v->v <= o->hi))
        return usage_error(d, "%s: expected %.0f to %.0f, got '%.200s'", opt, o->lo, o->hi,
                           val);
    return true;
}

/* A long long in [lo, hi]. */
static bool set_count(struct cli *c, const struct opt *o, const char *val, struct tf_diag *d)
{
    char opt[80];
    struct tf_opt_int v;
    if (!parse_int(dashed(o, opt, sizeof opt), val, &v, d))
        return false;
    if (!(v.v >= o->lo && v.v <= o->hi))
        return usage_error(d, "%s: expected %.0f to %.0f, got '%.200s'", opt, o->lo, o->hi,
                           val);
    *(long long *)field_of(c, o->field) = v.v;
    return true;
}

/* A double in [lo, hi]; the bool at `has` says it was given. */
static bool set_double(struct cli *c, const struct opt *o, const char *val, struct tf_diag *d)
{
    char opt[80];
    if (!parse_double(dashed(o, opt, sizeof opt), val, o->lo, o->hi, field_of(c, o->field), d))
        return false;
    if (o->has)
        *(bool *)field_of(c, o->has) = true;
    return true;
}

static bool set_string(struct cli *c, const struct opt *o, const char *val, struct tf_diag *d)
{
    (void)d;
    *(const char **)field_of(c, o->field) = val;
    return true;
}

/* --- the options' own setters --- */

static bool set_help(struct cli *c, const struct opt *o, const char *val, struct tf_diag *d);
static bool set_version(struct cli *c, const struct opt *o, const char *val,
                        struct tf_diag *d);

/* --trace, --breakdown: one file each. */
static bool set_file(struct cli *c, const struct opt *o, const char *val, struct tf_diag *d)
{
    const char **path = field_of(c, o->field);
    if (*path)
        return usage_error(d, "more than one %s file: '%.200s'", o->name, val);
    *path = val;
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

static bool set_output(struct cli *c, const struct opt *o, const char *val, struct tf_diag *d)
{
    (void)o;
    return add_output(c, val, d);
}

static bool set_format(struct cli *c, const struct opt *o, const char *val, struct tf_diag *d)
{
    (void)o;
    if (!tf_backend_by_name(val))
        return usage_error(d, "unknown format '%.200s' (see --help)", val);
    if (c->format && strcmp(c->format, val) != 0)
        return usage_error(d, "more than one --format: '%.50s' and '%.50s'", c->format, val);
    c->format = val;
    return true;
}

static bool set_mode(struct cli *c, const struct opt *o, const char *val, struct tf_diag *d)
{
    (void)o;
    if (strcmp(val, "auto") == 0)
        c->mode = NULL;
    else if (!(c->mode = tf_mode_by_name(val)))
        return usage_error(d, "unknown mode '%.200s' (see --help)", val);
    return true;
}

/* --from, --to: a time with its unit, from the trace's origin. */
static bool set_time(struct cli *c, const struct opt *o, const char *val, struct tf_diag *d)
{
    int64_t ns;
    if (!tf_chrome_parse_time(val, &ns) || ns < 0)
        return usage_error(d, "--%s: expected a time such as 12.5ms, 300us or 1.2s, got "
                              "'%.200s'",
                           o->name, val);
    *(int64_t *)field_of(c, o->field) = ns;
    *(bool *)field_of(c, o->has) = true;
    return true;
}

/* --lanes / --hide: comma-separated globs, appended in order (the list
 * at `field`, its count at `has`, its capacity right after the count). */
static bool set_patterns(struct cli *c, const struct opt *o, const char *val,
                         struct tf_diag *d)
{
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
static bool set_color(struct cli *c, const struct opt *o, const char *val, struct tf_diag *d)
{
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
static bool set_group(struct cli *c, const struct opt *o, const char *val, struct tf_diag *d)
{
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

/* --stats or --stats=FORMAT. */
static bool set_stats(struct cli *c, const struct opt *o, const char *val, struct tf_diag *d)
{
    (void)o;
    if (!val || strcmp(val, "text") == 0)
        c->stats = STATS_TEXT;
    else if (strcmp(val, "csv") == 0)
        c->stats = STATS_CSV;
    else
        return usage_error(d, "--stats: expected text or csv, got '%.200s'", val);
    return true;
}

static bool set_stats_scope(struct cli *c, const struct opt *o, const char *val,
                            struct tf_diag *d)
{
    (void)o;
    if (strcmp(val, "window") != 0 && strcmp(val, "trace") != 0)
        return usage_error(d, "--stats-scope: expected window or trace, got '%.200s'", val);
    c->rules.stats_trace_scope = val[0] == 't';
    return true;
}

/* The help column: spellings, then the text from column HELP_COL, wrapped
 * at HELP_WIDTH. */
enum { HELP_COL = 26, HELP_WIDTH = 79 };

/* A help text from column `indent` (where the cursor is), in lines of
 * words that continue at the same column. */
static void print_wrapped(const char *text, int indent)
{
    int col = indent;
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, " ");
        if (col > indent && col + 1 + (int)len > HELP_WIDTH) {
            printf("\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            putchar(' ');
            col++;
        }
        printf("%.*s", (int)len, p);
        col += (int)len;
        p += len;
        p += strspn(p, " ");
    }
    putchar('\n');
}

/* The lists under --mode and --format: "name  text", at HELP_COL + 2. */
static void help_item(const char *name, int name_w, const char *text)
{
    printf("%*s%-*s ", HELP_COL + 2, "", name_w, name);
    print_wrapped(text, HELP_COL + 2 + name_w + 1);
}

static void help_modes(void)
{
    for (size_t i = 0; tf_modes[i]; i++)
        help_item(tf_modes[i]->name, 8, tf_modes[i]->summary);
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
        help_item(b->name, 5, text);
    }
}

#define HEADING(title) {.name = NULL, .help = title}

static const struct opt options[] = {
    HEADING("Input:"),
    {"trace", "trace-file", 0, VAL_REQUIRED, "FILE", REC_PATH, set_file, FIELD(trace_path), 0,
     0, 0,
     "the trace, as TRACE: a pipelined_timeline_v1/_v2, or a Chrome trace "
     "(traceEvents or a bare array, plain or gzip); '-' reads standard input", NULL},
    {"breakdown", "breakdown-file", 0, VAL_REQUIRED, "FILE", REC_PATH, set_file,
     FIELD(breakdown_path), 0, 0, 0,
     "a candidate_breakdown_v1 file: adds the GPU runtime panel", NULL},
    {"mode", NULL, 0, VAL_REQUIRED, "MODE", REC_VALUE, set_mode, 0, 0, 0, 0,
     "how to read the trace (default auto: by its kind):", help_modes},

    HEADING("Pipelined timelines and legacy PyTorch traces:"),
    {"start-candidate", NULL, 0, VAL_REQUIRED, "N", REC_VALUE, set_opt_int,
     FIELD(rules.start_candidate), 0, 0, 0,
     "first candidate of the window (default: the trace's start_candidate, "
     "timeline_record_from, focus_candidate, else 0); in PyTorch traces "
     "picks the Candidate_Eval_N window", NULL},
    {"focus-candidate", NULL, 0, VAL_REQUIRED, "N", REC_VALUE, set_opt_int, FIELD(focus), 0, 0,
     0, "deprecated alias of --start-candidate", NULL},
    {"num-candidates", NULL, 0, VAL_REQUIRED, "N", REC_VALUE, set_opt_int,
     FIELD(rules.num_candidates), 0, 1, TF_MAX_NUM_CANDIDATES,
     "candidates in the core window (default: the trace's num_candidates, "
     "else 3)", NULL},
    {"min-runtime-pct", NULL, 0, VAL_REQUIRED, "P", REC_VALUE, set_double,
     FIELD(rules.min_runtime_pct), FIELD(rules.has_min_runtime_pct), -1e9, 1e9,
     "breakdown panel: fold ops below P % (the three display groups are "
     "always shown)", NULL},
    {"legend-y", NULL, 0, VAL_REQUIRED, "H", REC_VALUE, set_double, FIELD(rules.legend_y),
     FIELD(rules.has_legend_y), -1e3, 1e3,
     "legend row height relative to the plot row (default 0.16, at least "
     "0.10)", NULL},

    HEADING("Chrome traces (the chrome mode):"),
    {"from", NULL, 0, VAL_REQUIRED, "T", REC_VALUE, set_time, FIELD(rules.from_ns),
     FIELD(rules.has_from), 0, 0,
     "the window's start, from the trace's origin; T is 12.5ms, 300us, "
     "1.2s, 450000ns, or a number of ms", NULL},
    {"to", NULL, 0, VAL_REQUIRED, "T", REC_VALUE, set_time, FIELD(rules.to_ns),
     FIELD(rules.has_to), 0, 0, "the window's end, from the trace's origin", NULL},
    {"window-event", NULL, 0, VAL_REQUIRED, "NAME", REC_VALUE, set_string,
     FIELD(rules.window_event), 0, 0, 0, "the window is the extent of the event called NAME",
     NULL},
    {"occurrence", NULL, 0, VAL_REQUIRED, "K", REC_VALUE, set_count, FIELD(rules.occurrence), 0,
     1, 100000, "... its K-th occurrence in time (default 1)", NULL},
    {"pad", NULL, 0, VAL_REQUIRED, "P", REC_VALUE, set_double, FIELD(rules.pad_pct), 0, 0,
     1000, "widen the window by P % of its span on each side", NULL},
    {"lanes", NULL, 0, VAL_REQUIRED, "PATTERN[=LABEL],...", REC_VALUE, set_patterns,
     FIELD(lanes), FIELD(n_lanes), 0, 0,
     "draw only the lanes whose label matches a glob, in the order given "
     "(and under LABEL when given)", NULL},
    {"hide", NULL, 0, VAL_REQUIRED, "PATTERN,...", REC_VALUE, set_patterns, FIELD(hide),
     FIELD(n_hide), 0, 0, "leave out the lanes whose label matches a glob", NULL},
    {"all-lanes", NULL, 0, VAL_NONE, NULL, REC_VALUE, set_flag, FIELD(rules.all_lanes), 0, 0, 0,
     "hide no lane by the default rules (aggregates, summaries)", NULL},
    {"max-lanes", NULL, 0, VAL_REQUIRED, "N", REC_VALUE, set_count, FIELD(rules.max_lanes), 0,
     1, 100000, "draw at most N lanes (default 24)", NULL},
    {"depth", NULL, 0, VAL_REQUIRED, "N", REC_VALUE, set_count, FIELD(rules.depth), 0, 1,
     100000, "nesting rows per lane (default 6)", NULL},
    {"color", NULL, 0, VAL_REQUIRED, "PATTERN=COLOR", REC_VALUE, set_color, 0, 0, 0, 0,
     "colour events whose name or category matches the glob (COLOR: "
     "#RRGGBB); repeat; the first match wins", NULL},
    {"flows", NULL, 0, VAL_NONE, NULL, REC_VALUE, set_flag, FIELD(rules.flows), 0, 0, 0,
     "draw flow arrows (s/t/f events, bind_id)", NULL},
    {"async", NULL, 0, VAL_NONE, NULL, REC_VALUE, set_flag, FIELD(rules.async), 0, 0, 0,
     "draw async events (b/e/n) on a lane per process and category", NULL},

    HEADING("Statistics (computed on the window drawn; see tracefig(1), STATISTICS):"),
    {"stats", NULL, 0, VAL_OPTIONAL, "text|csv", REC_NONE, set_stats, 0, 0, 0, 0,
     "print the busy and overlap times on standard output, as an aligned "
     "table or as CSV; write figures only for the -o given (none by default)",
     NULL},
    {"stats-scope", NULL, 0, VAL_REQUIRED, "SCOPE", REC_VALUE, set_stats_scope, 0, 0, 0, 0,
     "the GPU breakdown of the 'window' (default) or of the whole 'trace'", NULL},
    {"group", NULL, 0, VAL_REQUIRED, "NAME=PATTERN,...", REC_VALUE, set_group, 0, 0, 0, 0,
     "also report the group of the lanes whose label matches a glob; "
     "repeat for more groups", NULL},
    {"annotate", NULL, 0, VAL_NONE, NULL, REC_VALUE, set_flag, FIELD(annotate), 0, 0, 0,
     "write the one-line summary under the figure (\"I/O hidden 81 %, GPU "
     "idle 7 %\")", NULL},

    HEADING("Output:"),
    {"output", NULL, 'o', VAL_REQUIRED, "FILE", REC_NONE, set_output, 0, 0, 0, 0,
     "write the figure to FILE ('-': standard output); repeat for several "
     "formats from one load (default: overlap_trace.pdf; none with --stats)", NULL},
    {"format", NULL, 'f', VAL_REQUIRED, "FMT", REC_NONE, set_format, 0, 0, 0, 0,
     "output format, else from each FILE's extension:", help_formats},
    {"standalone", NULL, 0, VAL_NONE, NULL, REC_VALUE, set_flag, FIELD(render.standalone), 0,
     0, 0, "TikZ: a complete document, not a fragment", NULL},
    {"dpi", NULL, 0, VAL_REQUIRED, "N", REC_NONE, set_double, FIELD(render.dpi), 0, 10, 2400,
     "PNG resolution (default 200)", NULL},
    {"companion-png", NULL, 0, VAL_NONE, NULL, REC_VALUE, set_flag, FIELD(companion_png), 0, 0,
     0, "with a .pdf output, also write the .png beside it, as the reference "
        "script does", NULL},

    HEADING(""),
    {"help", NULL, 'h', VAL_NONE, NULL, REC_NONE, set_help, 0, 0, 0, 0,
     "show this help and exit", NULL},
    {"version", NULL, 'V', VAL_NONE, NULL, REC_NONE, set_version, 0, 0, 0, 0,
     "show the version and the back-ends built in", NULL},
};

enum { N_OPTIONS = sizeof options / sizeof options[0] };

static void print_help(void)
{
    printf("Usage: tracefig [OPTION]... [TRACE]\n"
           "Turn a performance trace into a publication figure of a chosen window: a\n"
           "pipelined I/O timeline, or any Chrome Trace Event Format file (PyTorch\n"
           "profiler, Chrome, Perfetto, TensorFlow, clang -ftime-trace), gzip'd or not.\n"
           "Every long option also has a snake_case spelling (--start_candidate).\n");
    for (size_t i = 0; i < N_OPTIONS; i++) {
        const struct opt *o = &options[i];
        if (!o->name) {
            printf("\n%s%s", o->help, *o->help ? "\n" : "");
            continue;
        }
        char head[160];
        int n = 0;
        if (o->shortname)
            n += snprintf(head + n, sizeof head - (size_t)n, "-%c%s%s, ", o->shortname,
                          o->meta && o->value == VAL_REQUIRED ? " " : "",
                          o->value == VAL_REQUIRED ? o->meta : "");
        const char *spell[2] = {o->name, o->alias};
        for (size_t k = 0; k < 2 && spell[k]; k++)
            n += snprintf(head + n, sizeof head - (size_t)n, "%s--%s%s%s%s", k ? ", " : "",
                          spell[k],
                          o->value == VAL_OPTIONAL ? "[=" : o->value == VAL_REQUIRED ? " " : "",
                          o->meta ? o->meta : "", o->value == VAL_OPTIONAL ? "]" : "");
        if (n + 2 <= HELP_COL - 2)
            printf("  %-*s", HELP_COL - 2, head);
        else
            printf("  %s\n%*s", head, HELP_COL, "");
        print_wrapped(o->help, HELP_COL);
        if (o->help_list)
            o->help_list();
    }
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

static bool set_help(struct cli *c, const struct opt *o, const char *val, struct tf_diag *d)
{
    (void)o;
    (void)val;
    (void)d;
    print_help();
    c->exit_now = true;
    return true;
}

static bool set_version(struct cli *c, const struct opt *o, const char *val,
                        struct tf_diag *d)
{
    (void)o;
    (void)val;
    (void)d;
    print_version();
    c->exit_now = true;
    return true;
}

/* The row of a long spelling ("start_candidate" and "start-candidate" are
 * one), or of a short one; NULL when there is none. */
static const struct opt *find_long(const char *spelling, size_t len)
{
    char name[64];
    if (len < 2 || len >= sizeof name) /* "--o" is not a spelling of -o */
        return NULL;
    for (size_t i = 0; i < len; i++)
        name[i] = spelling[i] == '_' ? '-' : spelling[i];
    name[len] = '\0';
    for (size_t i = 0; i < N_OPTIONS; i++)
        if (options[i].name && (strcmp(options[i].name, name) == 0 ||
                                (options[i].alias && strcmp(options[i].alias, name) == 0)))
            return &options[i];
    return NULL;
}

static const struct opt *find_short(char ch)
{
    for (size_t i = 0; i < N_OPTIONS; i++)
        if (options[i].name && options[i].shortname == ch)
            return &options[i];
    return NULL;
}

/* The positional TRACE (recorded as its base name). */
static bool set_positional(struct cli *c, const char *a, struct tf_diag *d)
{
    if (c->trace_path)
        return usage_error(d, "more than one trace file: '%.200s'", a);
    c->trace_path = a;
    record_arg(c, a, true);
    return true;
}

static bool parse_args(int argc, char **argv, struct cli *c, struct tf_diag *d)
{
    tf_buf_puts(&c->cmdline, "tracefig");
    bool only_positional = false;
    for (int i = 1; i < argc && !c->exit_now; i++) {
        const char *a = argv[i];
        if (only_positional || a[0] != '-' || strcmp(a, "-") == 0) {
            if (!set_positional(c, a, d))
                return false;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_positional = true;
            continue;
        }
        const struct opt *o;
        const char *val = NULL;
        if (a[1] == '-') {
            const char *eq = strchr(a, '=');
            o = find_long(a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
            if (eq)
                val = eq + 1;
        } else {
            /* Short options: -o FILE, -oFILE, -f FMT, -h, -V. */
            o = find_short(a[1]);
            if (a[2])
                val = a + 2;
        }
        if (!o)
            return usage_error(d, "unknown option '%.200s'", a);
        if (o->value == VAL_NONE && val)
            return usage_error(d, "option '%.200s' takes no value", a);
        if (o->value == VAL_REQUIRED) {
            if (!val) {
                if (i + 1 >= argc)
                    return usage_error(d, "option '%.200s' needs a value", a);
                val = argv[++i];
            }
            if (val[0] == '\0')
                return usage_error(d, "option '%.200s' needs a value, got an empty one", a);
        }
        if (!o->set(c, o, val, d))
            return false;
        if (o->record != REC_NONE) {
            tf_buf_printf(&c->cmdline, " --%s", o->name);
            if (val)
                record_arg(c, val, o->record == REC_PATH);
        }
    }
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
    free(c->lanes);
    free(c->hide);
    free(c->colors);
    free(c->groups);
    tf_arena_fini(&c->arena);
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

    struct tf_run run = {c.trace_path, c.breakdown_path, c.mode, &c.rules};
    if (!tf_run(&run, &trace, &fig, &d))
        goto done;
    if (c.annotate) {
        if (fig.stats.summary)
            fig.annotate = true;
        else
            tf_diag_warn(&d, "--annotate: the %s mode has no summary line for this figure",
                         fig.mode ? fig.mode : "chosen");
    }
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
