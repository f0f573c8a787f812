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
    size_t n_lanes, cap_lanes, n_hide, cap_hide;
    struct tf_color_rule *colors;
    size_t n_colors, cap_colors;
    /* The statistics: --stats[=csv], --group, --annotate. */
    enum stats_format stats;
    struct tf_group_opt *groups;
    size_t n_groups, cap_groups;
    bool annotate;
    struct tf_arena arena;
};

static void usage_hint(void)
{
    fputs("Try 'tracefig --help' for more information.\n", stderr);
}

static void print_help(void)
{
    printf("Usage: tracefig [OPTION]... [TRACE]\n"
           "Turn a performance trace into a publication figure of a chosen window: a\n"
           "pipelined I/O timeline, or any Chrome Trace Event Format file (PyTorch\n"
           "profiler, Chrome, Perfetto, TensorFlow, clang -ftime-trace), gzip'd or not,\n"
           "or an Nsight Systems export (nsys export --type sqlite).\n"
           "\n"
           "Input:\n"
           "  TRACE, --trace FILE, --trace_file FILE\n"
           "                          pipelined_timeline_v1/_v2, a Chrome trace\n"
           "                          (traceEvents or a bare array, plain or gzip), or\n"
           "                          an Nsight Systems SQLite export (report.sqlite);\n"
           "                          '-' reads standard input\n"
           "  --breakdown FILE, --breakdown_file FILE\n"
           "                          candidate_breakdown_v1: adds the GPU runtime panel\n"
           "\n"
           "Window and content:\n"
           "  --start-candidate N, --start_candidate N\n"
           "                          first candidate of the window (default: the trace's\n"
           "                          start_candidate, timeline_record_from,\n"
           "                          focus_candidate, else 0); in PyTorch traces picks\n"
           "                          the Candidate_Eval_N window\n"
           "  --focus-candidate N, --focus_candidate N\n"
           "                          deprecated alias of --start-candidate\n"
           "  --num-candidates N, --num_candidates N\n"
           "                          candidates in the core window (default: the trace's\n"
           "                          num_candidates, else 3)\n"
           "  --min-runtime-pct P, --min_runtime_pct P\n"
           "                          breakdown panel: fold ops below P %% (the three\n"
           "                          display groups are always shown)\n"
           "  --legend-y H, --legend_y H\n"
           "                          legend row height relative to the plot row\n"
           "                          (default 0.16, at least 0.10)\n"
           "\n"
           "Chrome traces (the chrome mode):\n"
           "  --from T, --to T        the window, from the trace's origin (an export's:\n"
           "                          its session start); T is 12.5ms, 300us, 1.2s,\n"
           "                          450000ns, or a number of ms\n"
           "  --window-event NAME     the window is the extent of the event called NAME\n"
           "  --occurrence K          ... its K-th occurrence in time (default 1)\n"
           "  --pad P                 widen the window by P %% of its span on each side\n"
           "  --lanes PATTERN[=LABEL],...\n"
           "                          draw only the lanes whose label matches a glob, in\n"
           "                          the order given (and under LABEL when given)\n"
           "  --hide PATTERN,...      leave out the lanes whose label matches a glob\n"
           "  --all-lanes             hide no lane by the default rules (aggregates,\n"
           "                          summaries)\n"
           "  --max-lanes N           draw at most N lanes (default 24)\n"
           "  --depth N               nesting rows per lane (default 6)\n"
           "  --color PATTERN=COLOR   colour events whose name or category matches the\n"
           "                          glob (COLOR: #RRGGBB); repeat; the first match wins\n"
           "  --flows                 draw flow arrows (s/t/f events, bind_id)\n"
           "  --async                 draw async events (b/e/n) on a lane per process and\n"
           "                          category\n"
           "  --osrt                  Nsight Systems exports: draw OS runtime calls too\n"
           "\n"
           "Statistics (computed on the window drawn; see tracefig(1), STATISTICS):\n"
           "  --stats[=text|csv]      print the busy and overlap times on standard output,\n"
           "                          as an aligned table or as CSV; write figures only\n"
           "                          for the -o given (none by default)\n"
           "  --stats-scope SCOPE     the GPU breakdown of the 'window' (default) or of\n"
           "                          the whole 'trace'\n"
           "  --group NAME=PATTERN,...\n"
           "                          also report the group of the lanes whose label\n"
           "                          matches a glob; repeat for more groups\n"
           "  --annotate              write the one-line summary under the figure\n"
           "                          (\"I/O hidden 81 %%, GPU idle 7 %%\")\n"
           "\n"
           "  --mode MODE             how to read the trace (default auto: by its kind):\n");
    for (size_t i = 0; tf_modes[i]; i++)
        printf("                            %-9s %s\n", tf_modes[i]->name, tf_modes[i]->summary);
    printf("\n"
           "Output:\n"
           "  -o FILE, --output FILE  write the figure to FILE ('-': standard output);\n"
           "                          repeat for several formats from one load\n"
           "                          (default: overlap_trace.pdf; none with --stats)\n"
           "  -f FMT, --format FMT    output format, else from each FILE's extension:\n");
    for (size_t i = 0; tf_backends[i]; i++) {
        const struct tf_backend *b = tf_backends[i];
        char exts[64] = "";
        for (size_t j = 0; b->exts[j]; j++) {
            if (j)
                strcat(exts, " ");
            strcat(exts, b->exts[j]);
        }
        printf("                            %-6s %-10s %s%s\n", b->name, exts, b->description,
               b->available ? "" : " (not built: needs cairo)");
    }
    printf("  --standalone            TikZ: a complete document, not a fragment\n"
           "  --dpi N                 PNG resolution (default 200)\n"
           "  --companion-png         with a .pdf output, also write the .png beside it,\n"
           "                          as the reference script does\n"
           "\n"
           "  -h, --help              show this help and exit\n"
           "  -V, --version           show the version and the back-ends built in\n"
           "\n"
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

static bool usage_error(struct tf_diag *d, const char *fmt, ...) TF_PRINTF(2, 3);
static bool usage_error(struct tf_diag *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tf_diag_verror(d, TF_EUSAGE, fmt, ap);
    va_end(ap);
    return false;
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
        v > 1000000000LL) {
        char msg[300];
        snprintf(msg, sizeof msg, "%s: expected an integer, got '%.200s'", opt, s);
        return tf_diag_error(d, TF_EUSAGE, "%s", msg);
    }
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
    if (end == s || *end != '\0' || errno == ERANGE || !(v >= lo && v <= hi)) {
        char msg[300];
        snprintf(msg, sizeof msg, "%s: expected a number, got '%.200s'", opt, s);
        return tf_diag_error(d, TF_EUSAGE, "%s", msg);
    }
    *out = v;
    return true;
}

/* The spelling of an option without its leading dashes, with '-' for '_'. */
static void canon(const char *arg, char *out, size_t n)
{
    size_t i = 0;
    for (; *arg && *arg != '=' && i + 1 < n; arg++)
        out[i++] = *arg == '_' ? '-' : *arg;
    out[i] = '\0';
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

/* --lanes / --hide: comma-separated globs, appended in order. */
static bool add_patterns(struct cli *c, bool lanes, const char *val, struct tf_diag *d)
{
    const char ***list = lanes ? &c->lanes : &c->hide;
    size_t *n = lanes ? &c->n_lanes : &c->n_hide, *cap = lanes ? &c->cap_lanes : &c->cap_hide;
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
static bool add_color(struct cli *c, const char *val, struct tf_diag *d)
{
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
static bool add_group(struct cli *c, const char *val, struct tf_diag *d)
{
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

static bool parse_args(int argc, char **argv, struct cli *c, struct tf_diag *d,
                       bool *exit_now)
{
    tf_buf_puts(&c->cmdline, "tracefig");
    struct tf_opt_int focus = {false, 0};
    bool only_positional = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (only_positional || a[0] != '-' || strcmp(a, "-") == 0) {
            if (c->trace_path)
                return usage_error(d, "more than one trace file: '%.200s'", a);
            c->trace_path = a;
            record_arg(c, a, true);
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_positional = true;
            continue;
        }
        char name[64];
        const char *val = NULL;
        if (a[1] == '-') {
            canon(a + 2, name, sizeof name);
            const char *eq = strchr(a, '=');
            if (eq)
                val = eq + 1;
            if (strlen(name) < 2) /* "--o" is not a spelling of -o */
                return usage_error(d, "unknown option '%.200s'", a);
        } else {
            /* Short options: -o FILE, -oFILE, -f FMT, -h, -V. */
            name[0] = a[1];
            name[1] = '\0';
            if (a[2])
                val = a + 2;
        }
        if (strcmp(name, "stats") == 0) {
            /* --stats or --stats=FORMAT: never the next argument. */
            if (!val || strcmp(val, "text") == 0)
                c->stats = STATS_TEXT;
            else if (strcmp(val, "csv") == 0)
                c->stats = STATS_CSV;
            else
                return usage_error(d, "--stats: expected text or csv, got '%.200s'", val);
            continue;
        }
        if (strcmp(name, "osrt") == 0) { /* Nsight Systems exports: OSRT_API too */
            if (val)
                return usage_error(d, "option '%.200s' takes no value", a);
            c->rules.osrt = true;
            record_arg(c, "--osrt", false);
            continue;
        }
        if (strcmp(name, "annotate") == 0) {
            if (val)
                return usage_error(d, "option '%.200s' takes no value", a);
            c->annotate = true;
            record_arg(c, "--annotate", false);
            continue;
        }
        bool flag = strcmp(name, "help") == 0 || strcmp(name, "h") == 0 ||
                    strcmp(name, "version") == 0 || strcmp(name, "V") == 0 ||
                    strcmp(name, "standalone") == 0 || strcmp(name, "companion-png") == 0 ||
                    strcmp(name, "flows") == 0 || strcmp(name, "all-lanes") == 0 ||
                    strcmp(name, "async") == 0;
        if (flag && val)
            return usage_error(d, "option '%.200s' takes no value", a);
        if (strcmp(name, "help") == 0 || strcmp(name, "h") == 0) {
            print_help();
            *exit_now = true;
            return true;
        }
        if (strcmp(name, "version") == 0 || strcmp(name, "V") == 0) {
            print_version();
            *exit_now = true;
            return true;
        }
        if (strcmp(name, "standalone") == 0 || strcmp(name, "companion-png") == 0 ||
            strcmp(name, "flows") == 0 || strcmp(name, "all-lanes") == 0 ||
            strcmp(name, "async") == 0) {
            if (name[0] == 's')
                c->render.standalone = true;
            else if (name[0] == 'c')
                c->companion_png = true;
            else if (name[0] == 'f')
                c->rules.flows = true;
            else if (name[1] == 's')
                c->rules.async = true;
            else
                c->rules.all_lanes = true;
            record_arg(c, a, false);
            continue;
        }
        static const char *const with_value[] = {
            "trace-file", "trace", "output", "o", "format", "f", "start-candidate",
            "num-candidates", "focus-candidate", "breakdown-file", "breakdown",
            "min-runtime-pct", "legend-y", "dpi", "mode", "from", "to", "window-event",
            "occurrence", "pad", "lanes", "hide", "max-lanes", "depth", "color",
            "stats-scope", "group", NULL,
        };
        bool known = false;
        for (size_t k = 0; with_value[k]; k++)
            known |= strcmp(name, with_value[k]) == 0;
        if (!known)
            return usage_error(d, "unknown option '%.200s'", a);
        if (!val) {
            if (i + 1 >= argc)
                return usage_error(d, "option '%.200s' needs a value", a);
            val = argv[++i];
        }
        if (val[0] == '\0')
            return usage_error(d, "option '%.200s' needs a value, got an empty one", a);
        if (strcmp(name, "trace-file") == 0 || strcmp(name, "trace") == 0) {
            if (c->trace_path)
                return usage_error(d, "more than one trace file: '%.200s'", val);
            c->trace_path = val;
            tf_buf_puts(&c->cmdline, " --trace");
            record_arg(c, val, true);
        } else if (strcmp(name, "output") == 0 || strcmp(name, "o") == 0) {
            if (!add_output(c, val, d))
                return false;
        } else if (strcmp(name, "format") == 0 || strcmp(name, "f") == 0) {
            if (!tf_backend_by_name(val))
                return usage_error(d, "unknown format '%.200s' (see --help)", val);
            if (c->format && strcmp(c->format, val) != 0)
                return usage_error(d, "more than one --format: '%.50s' and '%.50s'", c->format,
                                   val);
            c->format = val;
        } else if (strcmp(name, "start-candidate") == 0) {
            if (!parse_int("--start-candidate", val, &c->rules.start_candidate, d))
                return false;
            tf_buf_puts(&c->cmdline, " --start-candidate");
            record_arg(c, val, false);
        } else if (strcmp(name, "focus-candidate") == 0) {
            if (!parse_int("--focus-candidate", val, &focus, d))
                return false;
            tf_buf_puts(&c->cmdline, " --focus-candidate");
            record_arg(c, val, false);
        } else if (strcmp(name, "num-candidates") == 0) {
            if (!parse_int("--num-candidates", val, &c->rules.num_candidates, d))
                return false;
            if (c->rules.num_candidates.v < 1 ||
                c->rules.num_candidates.v > TF_MAX_NUM_CANDIDATES)
                return usage_error(d, "--num-candidates: expected 1 to %d, got '%.200s'",
                                   TF_MAX_NUM_CANDIDATES, val);
            tf_buf_puts(&c->cmdline, " --num-candidates");
            record_arg(c, val, false);
        } else if (strcmp(name, "breakdown-file") == 0 || strcmp(name, "breakdown") == 0) {
            if (c->breakdown_path)
                return usage_error(d, "more than one breakdown file: '%.200s'", val);
            c->breakdown_path = val;
            tf_buf_puts(&c->cmdline, " --breakdown");
            record_arg(c, val, true);
        } else if (strcmp(name, "min-runtime-pct") == 0) {
            if (!parse_double("--min-runtime-pct", val, -1e9, 1e9, &c->rules.min_runtime_pct, d))
                return false;
            c->rules.has_min_runtime_pct = true;
            tf_buf_puts(&c->cmdline, " --min-runtime-pct");
            record_arg(c, val, false);
        } else if (strcmp(name, "legend-y") == 0) {
            if (!parse_double("--legend-y", val, -1e3, 1e3, &c->rules.legend_y, d))
                return false;
            c->rules.has_legend_y = true;
            tf_buf_puts(&c->cmdline, " --legend-y");
            record_arg(c, val, false);
        } else if (strcmp(name, "dpi") == 0) {
            if (!parse_double("--dpi", val, 10, 2400, &c->render.dpi, d))
                return false;
        } else if (strcmp(name, "from") == 0 || strcmp(name, "to") == 0) {
            int64_t ns;
            if (!tf_chrome_parse_time(val, &ns) || ns < 0)
                return usage_error(d, "--%s: expected a time such as 12.5ms, 300us or 1.2s, "
                                      "got '%.200s'",
                                   name, val);
            if (name[0] == 'f') {
                c->rules.has_from = true;
                c->rules.from_ns = ns;
            } else {
                c->rules.has_to = true;
                c->rules.to_ns = ns;
            }
            tf_buf_printf(&c->cmdline, " --%s", name);
            record_arg(c, val, false);
        } else if (strcmp(name, "window-event") == 0) {
            c->rules.window_event = val;
            tf_buf_puts(&c->cmdline, " --window-event");
            record_arg(c, val, false);
        } else if (strcmp(name, "occurrence") == 0 || strcmp(name, "max-lanes") == 0 ||
                   strcmp(name, "depth") == 0) {
            struct tf_opt_int v;
            char opt[80];
            snprintf(opt, sizeof opt, "--%s", name);
            if (!parse_int(opt, val, &v, d))
                return false;
            if (v.v < 1 || v.v > 100000)
                return usage_error(d, "%s: expected 1 to 100000, got '%.200s'", opt, val);
            if (name[0] == 'o')
                c->rules.occurrence = v.v;
            else if (name[0] == 'm')
                c->rules.max_lanes = v.v;
            else
                c->rules.depth = v.v;
            tf_buf_printf(&c->cmdline, " %s", opt);
            record_arg(c, val, false);
        } else if (strcmp(name, "pad") == 0) {
            if (!parse_double("--pad", val, 0, 1000, &c->rules.pad_pct, d))
                return false;
            tf_buf_puts(&c->cmdline, " --pad");
            record_arg(c, val, false);
        } else if (strcmp(name, "lanes") == 0 || strcmp(name, "hide") == 0) {
            if (!add_patterns(c, name[0] == 'l', val, d))
                return false;
            tf_buf_printf(&c->cmdline, " --%s", name);
            record_arg(c, val, false);
        } else if (strcmp(name, "color") == 0) {
            if (!add_color(c, val, d))
                return false;
            tf_buf_puts(&c->cmdline, " --color");
            record_arg(c, val, false);
        } else if (strcmp(name, "stats-scope") == 0) {
            if (strcmp(val, "window") != 0 && strcmp(val, "trace") != 0)
                return usage_error(d, "--stats-scope: expected window or trace, got '%.200s'",
                                   val);
            c->rules.stats_trace_scope = val[0] == 't';
            tf_buf_puts(&c->cmdline, " --stats-scope");
            record_arg(c, val, false);
        } else if (strcmp(name, "group") == 0) {
            if (!add_group(c, val, d))
                return false;
            tf_buf_puts(&c->cmdline, " --group");
            record_arg(c, val, false);
        } else if (strcmp(name, "mode") == 0) {
            if (strcmp(val, "auto") == 0) {
                c->mode = NULL;
            } else if (!(c->mode = tf_mode_by_name(val))) {
                return usage_error(d, "unknown mode '%.200s' (see --help)", val);
            }
            tf_buf_puts(&c->cmdline, " --mode");
            record_arg(c, val, false);
        }
    }
    /* The reference: --focus_candidate counts only without --start_candidate. */
    if (!c->rules.start_candidate.set && focus.set)
        c->rules.start_candidate = focus;
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
    bool exit_now = false;

    struct tf_trace trace;
    tf_trace_init(&trace);
    struct tf_figure fig;
    tf_figure_init(&fig);

    if (!parse_args(argc, argv, &c, &d, &exit_now))
        goto done;
    if (exit_now)
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
