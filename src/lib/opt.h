/* opt.h - command-line options as a table: one row per option, from which
 * parsing, --help and the recorded command line all come (as cmark and jq
 * keep theirs).
 *
 * A row names the option's spellings, its value, its help text, how the
 * recorded command line (TikZ headers) shows it, and the function that
 * sets it.  Setters write into the caller's context (`ctx`, e.g. main.c's
 * struct cli); the generic ones below write the member at `field` (an
 * offsetof into ctx).  What the options mean is main.c's business; this
 * file only reads argv and prints help.
 */
#ifndef TF_OPT_H
#define TF_OPT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/diag.h"
#include "model/trace.h" /* struct tf_opt_int */

struct tf_optdef;
typedef bool tf_opt_setter(void *ctx, const struct tf_optdef *o, const char *val,
                           struct tf_diag *d);

enum tf_opt_value {
    TF_VAL_NONE = 0, /* a flag */
    TF_VAL_REQUIRED, /* --name VALUE or --name=VALUE */
    TF_VAL_OPTIONAL  /* --name or --name=VALUE, never the next argument */
};

/* How the recorded command line shows an option. */
enum tf_opt_record {
    TF_REC_NONE = 0, /* not at all (outputs, formats, resolution) */
    TF_REC_VALUE,    /* " --name VALUE" (" --name" for a flag) */
    TF_REC_PATH      /* " --name BASENAME": no folders in any output */
};

struct tf_optdef {
    const char *name;  /* the long spelling without "--"; NULL: a --help heading */
    const char *alias; /* another long spelling, or NULL */
    char shortname;    /* -x, or 0 */
    enum tf_opt_value value;
    const char *meta;  /* the value in --help ("FILE") */
    enum tf_opt_record record;
    tf_opt_setter *set;
    size_t field, has; /* offsets into ctx for the generic setters; has: 0 for none */
    double lo, hi;     /* the range of a number */
    const char *help;  /* one paragraph, wrapped by --help; a heading's title */
    void (*help_list)(void); /* more --help lines after the text (modes, formats) */
};

/* A --help heading row. */
#define TF_OPT_HEADING(title) {.name = NULL, .help = (title)}

struct tf_opt_parser {
    const struct tf_optdef *table;
    size_t n;
    /* A positional argument (or any argument after "--"). */
    bool (*positional)(void *ctx, const char *arg, struct tf_diag *d);
    struct tf_buf *cmdline; /* the recorded command line, appended to */
    const bool *stop;       /* set by a setter (--help): stop parsing */
    /* Called after each option was set and recorded (NULL: none); val is
     * NULL for a flag.  False stops the parse with its error. */
    bool (*applied)(void *ctx, const struct tf_optdef *o, const char *val, struct tf_diag *d);
};

/* Parses argv[1..] into ctx.  Long options in either spelling
 * (--start_candidate is --start-candidate), "--name=VALUE", short options
 * "-o FILE" and "-oFILE".  False with a usage error (TF_EUSAGE) in d. */
bool tf_opt_parse(const struct tf_opt_parser *p, int argc, char **argv, void *ctx,
                  struct tf_diag *d);

/* The row of a long name (either spelling, without "--"); NULL: none. */
const struct tf_optdef *tf_opt_find(const struct tf_opt_parser *p, const char *name);

/* Sets one option of row o to val (NULL: none given), with the checks
 * tf_opt_parse makes; `a` is the option as the user spelled it, for
 * messages.  Records it and calls p->applied. */
bool tf_opt_apply(const struct tf_opt_parser *p, const struct tf_optdef *o, const char *a,
                  const char *val, void *ctx, struct tf_diag *d);

/* The long name nearest to a misspelled one (len bytes at spelling,
 * without "--"), when it is close enough to suggest; NULL otherwise. */
const char *tf_opt_nearest(const struct tf_opt_parser *p, const char *spelling, size_t len);

/* Appends " ARG" to the recorded command line: printable ASCII only, and
 * only the base name of a path. */
void tf_opt_record(struct tf_buf *cmdline, const char *arg, bool is_path);

/* The option lines of --help, by section, on standard output. */
void tf_opt_help(const struct tf_optdef *table, size_t n);
/* One line of a list under an option's text ("name  text"), for help_list. */
void tf_opt_help_item(const char *name, int name_w, const char *text);

/* The generic setters: true at `field` (bool); a struct tf_opt_int, in
 * [lo, hi] when lo < hi; a long long in [lo, hi]; a double in [lo, hi],
 * setting the bool at `has` when has != 0; the value itself (const char *). */
tf_opt_setter tf_opt_flag, tf_opt_int, tf_opt_count, tf_opt_double, tf_opt_string;
/* A length with its unit (pt as TeX has it, bp, in, cm, mm, px at 96 per
 * inch), in canvas points (1/72 in) in [lo, hi], at `field` (double);
 * sets the bool at `has`. */
tf_opt_setter tf_opt_length;

/* The value checks the setters use, for setters of their own: plain
 * decimal integers in +-1e9, plain decimal numbers in [lo, hi]. */
bool tf_opt_parse_int(const char *opt, const char *s, struct tf_opt_int *out,
                      struct tf_diag *d);
bool tf_opt_parse_double(const char *opt, const char *s, double lo, double hi, double *out,
                         struct tf_diag *d);
bool tf_opt_parse_length(const char *opt, const char *s, double lo, double hi, double *out,
                         struct tf_diag *d);

#endif
