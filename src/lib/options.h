/* options.h - a figure's options, in the command line's own words.
 *
 * The ONE option table (options.c) is read by the command line (argv) and
 * by the library (tracefig_options_set: a long name and a value), so every
 * option means the same in both and there is no second table.  What the
 * options mean for the rules and the back-ends is here too; what the
 * command line does with files (outputs, formats, --stats on standard
 * output, --help) is main.c's, from the members below.
 *
 * Ownership: tf_options_init/_fini on caller-owned memory.  Values given
 * through tf_options_set are copied (into the arena); tf_options_parse_argv
 * keeps pointers into argv, which must outlive the options.  Every option
 * set is logged in order, so tf_options_copy can replay them into options
 * of the copy's own, as a figure keeps them.
 */
#ifndef TF_LIB_OPTIONS_H
#define TF_LIB_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/diag.h"
#include "model/marks.h"
#include "model/trace.h"
#include "render/render.h"
#include "render/stats.h"
#include "rules/align.h"
#include "rules/mode.h"

enum { TF_MAX_OUTPUTS = 16 };

/* How --stats prints the statistics on standard output. */
enum tf_stats_format { TF_STATS_NONE = 0, TF_STATS_TEXT, TF_STATS_CSV };

/* A mark option as given, in order: a compact one's spec, or a --marks
 * FILE (or --marks-json TEXT) read when the figure is made. */
struct tf_mark_opt {
    struct tf_mark_spec spec;
    const char *file; /* --marks FILE, or NULL */
    const char *json; /* --marks-json TEXT, or NULL */
};

/* One option as it was set: its row (NULL: a positional TRACE) and value. */
struct tf_opt_set {
    const struct tf_optdef *o;
    const char *val;
};

struct tracefig_options {
    const char **traces; /* every trace and model given, in order */
    size_t n_traces, cap_traces;
    const char **titles; /* --titles */
    size_t n_titles, cap_titles;
    enum tf_align align; /* --align */
    const char *breakdown_path;
    const char *palette_path; /* --palette */
    const char *palette_out;  /* --palette-out (the command line's) */
    const char *format;         /* --format, or NULL */
    const struct tf_mode *mode; /* --mode, or NULL for auto */
    struct tf_opts rules;
    struct tf_render_opts render;
    bool companion_png;
    const char *outputs[TF_MAX_OUTPUTS]; /* -o, in order */
    size_t n_outputs;
    /* The recorded options, " --name VALUE" each (and " TRACE" for a
     * positional one), without the leading "tracefig". */
    struct tf_buf cmdline;
    /* The generic mode's lists (strings in `arena`). */
    const char **lanes, **hide;
    size_t n_lanes, cap_lanes; /* set_patterns: the capacity follows the count */
    size_t n_hide, cap_hide;
    struct tf_color_rule *colors;
    size_t n_colors, cap_colors;
    /* The statistics: --stats[=csv], --group, --annotate. */
    enum tf_stats_format stats;
    struct tf_group_opt *groups;
    size_t n_groups, cap_groups;
    bool annotate;
    /* Marks: --span, --measure, --callout, --region, --highlight, --marks. */
    struct tf_mark_opt *marks;
    size_t n_marks, cap_marks;
    /* --zoom SPEC (at most TF_ZOOMS_MAX, as a span's A..B or REF) and
     * --zoom-pad P (% of each zoom's span on each side; default 5). */
    struct tf_mark_spec zooms[TF_ZOOMS_MAX];
    size_t n_zooms;
    double zoom_pad_pct;
    struct tf_opt_int focus; /* --focus-candidate: counts without --start-candidate */
    bool exit_now;           /* --help, --version: done */
    bool want_help, want_version;
    struct tf_opt_set *log;  /* every option set, in order */
    size_t n_log, cap_log;
    struct tf_arena arena;
};

void tf_options_init(struct tracefig_options *c);
void tf_options_fini(struct tracefig_options *c);

/* The command line: argv[1..] (pointers kept).  False with a usage error
 * in d. */
bool tf_options_parse_argv(struct tracefig_options *c, int argc, char **argv, struct tf_diag *d);

/* One option by its long name (either spelling, without "--"); value NULL
 * for a flag.  The value is copied.  False with a usage error in d. */
bool tf_options_set(struct tracefig_options *c, const char *name, const char *value,
                    struct tf_diag *d);

/* A copy of src (dst uninitialised), its values its own. */
bool tf_options_copy(struct tracefig_options *dst, const struct tracefig_options *src,
                     struct tf_diag *d);

/* The checks and defaults that need every option (--to after --from,
 * --focus-candidate, the lists into rules); after the last set, before a
 * figure is made.  False with a usage error in d. */
bool tf_options_finish(struct tracefig_options *c, struct tf_diag *d);

/* A usage error when the trace at `path` and the breakdown both read
 * standard input; true otherwise. */
bool tf_options_check_stdin(const struct tracefig_options *c, const char *path,
                            struct tf_diag *d);

/* --help and --version, on standard output (the command line's). */
void tf_options_print_help(void);
void tf_options_print_version(void);

#endif
