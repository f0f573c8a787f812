/* main.c - the command line: one client of libtracefig (lib/).
 *
 * It adds only what a command line has: argv (read by the library's one
 * option table, lib/options.c), the list of outputs and their formats,
 * --stats on standard output, --help and --version, the exit codes, and
 * the files.  The library loads the trace once, builds the figure model
 * and its one plan once, and renders every output into memory; only when
 * all of them succeeded are they written (each through a temp file renamed
 * into place).  A failure therefore writes nothing and never clobbers an
 * existing output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/outfile.h"
#include "lib/figure.h"
#include "lib/options.h"
#include "render/render.h"

/* The reference script's trace when none is given. */
#define DEFAULT_TRACE "io_overlap_timeline.json"

struct output {
    const char *path; /* "-" for stdout */
    const struct tf_backend *backend; /* NULL: the --stats output */
    struct tf_buf buf;
    bool owned_path; /* path was allocated here (the companion PNG) */
};

struct cli {
    struct tracefig_options o;
    struct output outputs[TF_MAX_OUTPUTS];
    size_t n_outputs;
};

static void usage_hint(void)
{
    fputs("Try 'tracefig --help' for more information.\n", stderr);
}

static bool add_output(struct cli *c, const char *path, struct tf_diag *d)
{
    if (c->n_outputs == TF_MAX_OUTPUTS)
        return tf_diag_usage(d, "too many outputs (at most %d)", TF_MAX_OUTPUTS);
    c->outputs[c->n_outputs].path = path;
    tf_buf_init(&c->outputs[c->n_outputs].buf);
    c->n_outputs++;
    return true;
}

/* Assigns each output its back-end; adds the companion PNG, and last the
 * --stats output (standard output, which no figure may then take). */
static bool resolve_outputs(struct cli *c, struct tf_diag *d)
{
    /* TRACEFIG_STATS=off: no statistics, for make bench to price them. */
    const char *st = getenv("TRACEFIG_STATS");
    c->o.rules.no_stats = st && strcmp(st, "off") == 0 && !c->o.stats;
    /* TRACEFIG_FOLD=off: the statistics keep every interval (tests compare). */
    const char *fo = getenv("TRACEFIG_FOLD");
    c->o.rules.no_fold = fo && strcmp(fo, "off") == 0;
    for (size_t i = 0; i < c->o.n_outputs; i++)
        if (!add_output(c, c->o.outputs[i], d))
            return false;
    if (c->n_outputs == 0 && !c->o.stats && !add_output(c, "overlap_trace.pdf", d))
        return false;
    if (c->o.companion_png) {
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
        if (c->o.format)
            o->backend = tf_backend_by_name(c->o.format);
        else if (strcmp(o->path, "-") == 0)
            o->backend = &tf_backend_json;
        else
            o->backend = tf_backend_by_path(o->path);
        if (!o->backend)
            return tf_diag_usage(d, "cannot tell the format of '%.200s': use --format", o->path);
        if (!o->backend->available)
            return tf_diag_error(d, TF_EUSAGE,
                                 "%s output is not available: tracefig was built without cairo "
                                 "(install libcairo2-dev and rebuild)",
                                 o->backend->name);
        if (c->o.stats && strcmp(o->path, "-") == 0)
            return tf_diag_usage(d, "--stats prints on standard output: write the figure to a "
                                  "file, not '-'");
    }
    /* --palette-out: the table beside the figures, written with them. */
    if (c->o.palette_out) {
        if (c->o.stats && strcmp(c->o.palette_out, "-") == 0)
            return tf_diag_usage(d, "--stats prints on standard output: write the palette to a "
                                  "file, not '-'");
        if (!add_output(c, c->o.palette_out, d))
            return false;
        c->outputs[c->n_outputs - 1].backend = &tf_backend_palette;
    }
    if (c->o.stats && !add_output(c, "-", d))
        return false;
    return true;
}

/* Stages every output, then commits them all: standard output and devices
 * first (their writes are the ones that can still fail, e.g. /dev/full),
 * then the renames of the staged files.  Nothing is replaced unless every
 * output could be staged and every direct write succeeded. */
static bool write_outputs(struct cli *c, struct tf_diag *d)
{
    struct tf_outfile files[TF_MAX_OUTPUTS];
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

static void free_cli(struct cli *c)
{
    for (size_t i = 0; i < c->n_outputs; i++) {
        tf_buf_fini(&c->outputs[i].buf);
        if (c->outputs[i].owned_path)
            free((char *)c->outputs[i].path);
    }
    tf_options_fini(&c->o);
}

/* The traces to draw: those given, else the reference's default file when
 * it is here; without either, no trace was given (a usage error). */
static bool pick_traces(struct cli *c, struct tracefig_input **in, size_t *n, bool *no_trace,
                        struct tf_diag *d)
{
    static struct tracefig_input def = {DEFAULT_TRACE, NULL, 0};
    *in = NULL;
    *n = 0;
    if (c->o.n_traces)
        return true;
    *no_trace = access(DEFAULT_TRACE, F_OK) != 0;
    if (*no_trace)
        return tf_diag_usage(d, "no trace given (and no " DEFAULT_TRACE " here, the default)");
    *in = &def;
    *n = 1;
    return true;
}

/* Warnings, held while the library ran, in their order. */
static void flush_warnings(struct tf_buf *held)
{
    if (held->len)
        fwrite(held->data, 1, held->len, stderr);
    tf_buf_clear(held);
}

int main(int argc, char **argv)
{
    struct cli c;
    memset(&c, 0, sizeof c);
    tf_options_init(&c.o);
    struct tf_buf held;
    tf_buf_init(&held);
    struct tf_diag d;
    tf_diag_init(&d);
    d.held = &held;
    struct tracefig_figure fig;
    bool made = false, no_trace = false;
    struct tracefig_input *in;
    size_t n_in;

    if (!tf_options_parse_argv(&c.o, argc, argv, &d))
        goto done;
    if (c.o.exit_now) {
        if (c.o.want_help)
            tf_options_print_help();
        else
            tf_options_print_version();
        goto done;
    }
    if (!tf_options_finish(&c.o, &d) || !pick_traces(&c, &in, &n_in, &no_trace, &d) ||
        !resolve_outputs(&c, &d))
        goto done;
    made = true;
    enum tf_stats_format stats = c.o.stats;
    if (!tf_lib_make_taking(&fig, &c.o, in, n_in, false, &d))
        goto done;
    for (size_t i = 0; i < c.n_outputs; i++) {
        struct output *o = &c.outputs[i];
        if (!tf_lib_render(&fig, o->backend, stats, &o->buf, &d))
            goto done;
    }
    flush_warnings(&held);
    if (!write_outputs(&c, &d))
        goto done;

done:;
    int code = d.code;
    flush_warnings(&held);
    if (tf_diag_failed(&d)) {
        fprintf(stderr, "tracefig: %s\n", d.msg);
        if (no_trace)
            fputs("Usage: tracefig [OPTION]... TRACE [TRACE]...\n", stderr);
        if (d.code == TF_EUSAGE)
            usage_hint();
    }
    if (made)
        tf_lib_fini(&fig);
    tf_buf_fini(&held);
    free_cli(&c);
    return code;
}
