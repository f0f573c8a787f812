/* tracefig.h - libtracefig: performance traces to publication figures.
 *
 * The command line `tracefig` is one client of this library; it adds only
 * its argument handling and the files it writes.  A figure made here from
 * the same trace and the same options has the same bytes as the command
 * line's, in every format.
 *
 *     struct tracefig_error err;
 *     struct tracefig_options *o = tracefig_options_new();
 *     tracefig_options_set(o, "width", "3.3in", &err);
 *     struct tracefig_figure *f = tracefig_figure_from_path(o, "trace.json", &err);
 *     char *svg; size_t n;
 *     if (f && tracefig_render(f, "svg", &svg, &n, &err) == 0) { ... tracefig_free(svg); }
 *     tracefig_figure_free(f);
 *     tracefig_options_free(o);
 *
 * Options are the command line's long options, named without "--" in
 * either spelling ("window-event" or "window_event"), with the value as
 * the command line takes it ("3.3in", "ProfilerStep#*", "a*,b*").  The
 * options that name the command line's files and streams (output, format,
 * companion-png, stats, palette-out, help, version) are not options
 * here: render into memory instead (format "palette" for palette-out's
 * table; the option palette reads such a file).  See tracefig(1) for what each option does, and
 * tracefig(3) for this API.
 *
 * Errors are values: a function that fails returns NULL or a nonzero code
 * and fills the caller's struct tracefig_error with the code (the command
 * line's exit status) and the one-line message the command line prints
 * after "tracefig: ".  The library never exits and never writes to
 * standard output or standard error: warnings are collected with the
 * figure (tracefig_figure_warnings).
 *
 * Ownership: every object is created by its _new/_from function and freed
 * by its _free function (NULL is accepted).  Buffers that tracefig_render
 * returns belong to the caller, who frees them with tracefig_free.
 * Strings passed in are copied; nothing keeps the caller's pointers after
 * a call returns (a trace's bytes are read in place during the call).
 *
 * Threads: the library has no global mutable state but one table, behind
 * a lock, of the traces in memory being loaded.  Different figures
 * and options may be used on different threads at the same time, and give
 * the bytes they give alone.  One object must not be used by two threads
 * at once (a figure makes its layout at its first render).  The libraries
 * the back-ends load on first use (libxml2 for SVG, cairo and FreeType for
 * PDF and PNG, SQLite for Nsight Systems exports and rocpd databases) are
 * loaded once per process, safely from any thread.
 */
#ifndef TRACEFIG_H
#define TRACEFIG_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && defined(TRACEFIG_BUILDING)
#define TRACEFIG_API __attribute__((visibility("default")))
#else
#define TRACEFIG_API
#endif

#define TRACEFIG_VERSION "0.1.0"
/* The SONAME's number: libtracefig.so.0. */
#define TRACEFIG_SOVERSION 0

/* The codes, the command line's exit statuses. */
enum tracefig_code {
    TRACEFIG_OK = 0,
    TRACEFIG_EBADINPUT = 1, /* the trace (or breakdown) cannot be read or used */
    TRACEFIG_EUSAGE = 2,    /* an option or an argument is wrong */
    TRACEFIG_EIO = 3,       /* a file or a library cannot be opened or written */
    TRACEFIG_ENOMEM = 4     /* out of memory */
};

/* Filled by a failing call (caller-owned; any call may take NULL). */
struct tracefig_error {
    int code;           /* enum tracefig_code */
    char message[1024]; /* one line, without "tracefig: " and newline */
};

/* The library's version, TRACEFIG_VERSION of the library loaded. */
TRACEFIG_API const char *tracefig_version(void);

/* --- options ------------------------------------------------------------------------ */

struct tracefig_options;

/* New options, all defaults.  NULL when out of memory. */
TRACEFIG_API struct tracefig_options *tracefig_options_new(void);

/* Sets one option: `name` is a long option without "--" (or with it),
 * `value` its value, NULL for a flag (--flows).  Options are applied in
 * the order set, as on the command line: lists (lanes, hide, color, group)
 * add up, others take the last value.  0, or the code with the command
 * line's message ("--width: expected a length ..."; an unknown name says
 * "unknown option '--widht' (did you mean '--width'?)"). */
TRACEFIG_API int tracefig_options_set(struct tracefig_options *o, const char *name,
                                      const char *value, struct tracefig_error *err);

/* Adds marks (tracefig(1), MARKS): `json`, a JSON array of mark objects
 * as a --marks file holds ([{"kind": "span", "from": {"event":
 * "ProfilerStep#3"}}, ...]), after the marks set so far.  The compact
 * forms are options too: tracefig_options_set(o, "span", "A..B=TEXT"),
 * "measure", "callout", "region", "highlight".  The marks are resolved
 * when a figure is made: a mark that names no event of the window fails
 * there with the command line's message.  0, or the code and message (a
 * bad object is named "marks: [K].field: ..."; bad JSON "marks:LINE:COL"). */
TRACEFIG_API int tracefig_options_add_marks(struct tracefig_options *o, const char *json,
                                            struct tracefig_error *err);

/* Sets options from argv-style words, as the command line reads them
 * (argv[0] is skipped): "--width", "3.3in", "--flows", "--lanes=gpu*".
 * Words that are not options are traces, drawn when a figure is made with
 * no inputs.  0, or the code and message of the first wrong word. */
TRACEFIG_API int tracefig_options_parse(struct tracefig_options *o, int argc,
                                        const char *const *argv, struct tracefig_error *err);

TRACEFIG_API void tracefig_options_free(struct tracefig_options *o);

/* --- figures ------------------------------------------------------------------------ */

/* One trace: a path, or bytes in memory.  With data set, the len bytes
 * at data are the trace (a JSON document, gzip'd or not, an Nsight
 * Systems export or a rocpd database) and `path` only names it, in
 * messages and in the recorded command line (NULL: "<memory>").  The bytes
 * are read where they are, never written to a file: JSON and gzip through
 * the library's own reader, an SQLite database by SQLite in memory
 * (sqlite3_deserialize; a gzip'd one inflated into memory first).  Only
 * what a library reads from a path alone goes to a private folder of
 * $TMPDIR while it loads: an OTF2 anchor (named *.otf2; libotf2 reads an
 * archive from its folder, so give an archive by its path).  The bytes are
 * not copied: they must stay unchanged until the call returns. */
struct tracefig_input {
    const char *path;
    const void *data;
    size_t len;
};

struct tracefig_figure;

/* Loads n traces (n > 1: one figure of several traces, as the command
 * line draws `tracefig A B`) and builds the figure with options o (NULL:
 * the defaults; o may be freed afterwards).  n == 0: the traces the
 * options named (tracefig_options_parse's words, "trace").  The recorded
 * command line in the outputs is "tracefig", the inputs' base names, then
 * the options in the order set.  NULL on failure, with err filled. */
TRACEFIG_API struct tracefig_figure *tracefig_figure_new(const struct tracefig_options *o,
                                                         const struct tracefig_input *in,
                                                         size_t n, struct tracefig_error *err);

/* tracefig_figure_new of one path ("-": standard input). */
TRACEFIG_API struct tracefig_figure *tracefig_figure_from_path(const struct tracefig_options *o,
                                                               const char *path,
                                                               struct tracefig_error *err);

/* tracefig_figure_new of len bytes at data, named `name` (NULL: "<memory>"). */
TRACEFIG_API struct tracefig_figure *tracefig_figure_from_memory(
    const struct tracefig_options *o, const void *data, size_t len, const char *name,
    struct tracefig_error *err);

/* Renders the figure in one format into a new buffer (*out, *len; caller
 * frees *out with tracefig_free; text formats end in a NUL not counted in
 * *len).  Formats: "svg", "tikz", "pdf", "png", "json" (the figure model,
 * with its statistics under "stats"), "stats" (the --stats table) and
 * "stats-csv" (--stats=csv), "palette" (--palette-out's class -> colour
 * table, which the option palette reads back).  Every format of one figure reads the one
 * layout made at the first render.  0, or the code and message. */
TRACEFIG_API int tracefig_render(struct tracefig_figure *f, const char *format, char **out,
                                 size_t *len, struct tracefig_error *err);

/* The warnings of the figure so far, "tracefig: warning: ...\n" lines as
 * the command line prints them ("" when none).  Owned by the figure,
 * valid until its next call. */
TRACEFIG_API const char *tracefig_figure_warnings(const struct tracefig_figure *f);

TRACEFIG_API void tracefig_figure_free(struct tracefig_figure *f);

/* Writes len bytes to path as the command line writes an output: into a
 * temporary file beside it, renamed into place only when complete, so
 * that a failure leaves no half-written file and never clobbers an
 * existing one ("-" is standard output, a symlink is followed, a device
 * is written through).  0, or TRACEFIG_EIO and the message. */
TRACEFIG_API int tracefig_write(const char *path, const void *data, size_t len,
                                struct tracefig_error *err);

/* Frees a buffer tracefig_render returned. */
TRACEFIG_API void tracefig_free(void *p);

#ifdef __cplusplus
}
#endif

#endif
