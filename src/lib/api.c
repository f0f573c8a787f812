/* api.c - the public API of tracefig.h over the pipeline of figure.h and
 * the option table of options.h: diagnostics become error values, and
 * warnings are held with the figure.  Nothing here prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/outfile.h"
#include "lib/figure.h"
#include "lib/options.h"
#include "render/render.h"
#include "tracefig.h"

/* The outcome of a call into err (when given); the code. */
static int outcome(const struct tf_diag *d, struct tracefig_error *err)
{
    if (err) {
        err->code = (int)d->code;
        snprintf(err->message, sizeof err->message, "%s", d->code ? d->msg : "");
    }
    return (int)d->code;
}

static int oom(struct tracefig_error *err)
{
    struct tf_diag d;
    tf_diag_init(&d);
    tf_diag_oom(&d, NULL);
    return outcome(&d, err);
}

const char *tracefig_version(void)
{
    return TRACEFIG_VERSION;
}

struct tracefig_options *tracefig_options_new(void)
{
    struct tracefig_options *o = malloc(sizeof *o);
    if (o)
        tf_options_init(o);
    return o;
}

int tracefig_options_set(struct tracefig_options *o, const char *name, const char *value,
                         struct tracefig_error *err)
{
    struct tf_diag d;
    tf_diag_init(&d);
    d.quiet = true;
    if (!o || !name)
        tf_diag_error(&d, TF_EUSAGE, "tracefig_options_set: no options or no name");
    else
        tf_options_set(o, name, value, &d);
    return outcome(&d, err);
}

int tracefig_options_add_marks(struct tracefig_options *o, const char *json,
                               struct tracefig_error *err)
{
    struct tf_diag d;
    tf_diag_init(&d);
    d.quiet = true;
    if (!o || !json)
        tf_diag_error(&d, TF_EUSAGE, "tracefig_options_add_marks: no options or no marks");
    else
        tf_options_set(o, "marks-json", json, &d);
    return outcome(&d, err);
}

int tracefig_options_parse(struct tracefig_options *o, int argc, const char *const *argv,
                           struct tracefig_error *err)
{
    struct tf_diag d;
    tf_diag_init(&d);
    d.quiet = true;
    if (!o || argc < 0 || (argc > 0 && !argv)) {
        tf_diag_error(&d, TF_EUSAGE, "tracefig_options_parse: no options or no words");
        return outcome(&d, err);
    }
    /* The parser keeps pointers: parse copies the options own. */
    char **words = calloc((size_t)argc + 1, sizeof *words);
    bool ok = words != NULL;
    for (int i = 1; ok && i < argc; i++)
        ok = (words[i] = tf_arena_strdup(&o->arena, argv[i])) != NULL;
    if (!ok) {
        free(words);
        return oom(err);
    }
    tf_options_parse_argv(o, argc, words, &d);
    if (!tf_diag_failed(&d) && o->exit_now)
        tf_diag_error(&d, TF_EUSAGE, "--%s is an option of the command line",
                      o->want_help ? "help" : "version");
    free(words);
    return outcome(&d, err);
}

void tracefig_options_free(struct tracefig_options *o)
{
    if (!o)
        return;
    tf_options_fini(o);
    free(o);
}

struct tracefig_figure *tracefig_figure_new(const struct tracefig_options *o,
                                            const struct tracefig_input *in, size_t n,
                                            struct tracefig_error *err)
{
    struct tracefig_options none;
    if (!o) {
        tf_options_init(&none);
        o = &none;
    }
    struct tracefig_figure *F = malloc(sizeof *F);
    if (!F) {
        if (o == &none)
            tf_options_fini(&none);
        oom(err);
        return NULL;
    }
    struct tf_diag d;
    tf_diag_init(&d);
    struct tf_buf held;
    tf_buf_init(&held);
    d.held = &held;
    bool ok = tf_lib_make(F, o, in, in ? n : 0, true, &d);
    F->warnings = held; /* make initialised F->warnings empty: the held ones replace it */
    if (o == &none)
        tf_options_fini(&none);
    outcome(&d, err);
    if (!ok) {
        tf_lib_fini(F);
        free(F);
        return NULL;
    }
    return F;
}

struct tracefig_figure *tracefig_figure_from_path(const struct tracefig_options *o,
                                                  const char *path,
                                                  struct tracefig_error *err)
{
    struct tracefig_input in = {path, NULL, 0};
    if (!path) {
        struct tf_diag d;
        tf_diag_init(&d);
        tf_diag_error(&d, TF_EUSAGE, "tracefig_figure_from_path: no path");
        outcome(&d, err);
        return NULL;
    }
    return tracefig_figure_new(o, &in, 1, err);
}

struct tracefig_figure *tracefig_figure_from_memory(const struct tracefig_options *o,
                                                    const void *data, size_t len,
                                                    const char *name,
                                                    struct tracefig_error *err)
{
    static const char empty[1];
    struct tracefig_input in = {name, data ? data : empty, data ? len : 0};
    return tracefig_figure_new(o, &in, 1, err);
}

int tracefig_render(struct tracefig_figure *f, const char *format, char **out, size_t *len,
                    struct tracefig_error *err)
{
    struct tf_diag d;
    tf_diag_init(&d);
    if (out)
        *out = NULL;
    if (len)
        *len = 0;
    if (!f || !format || !out) {
        tf_diag_error(&d, TF_EUSAGE, "tracefig_render: no figure, format or output");
        return outcome(&d, err);
    }
    const struct tf_backend *b = NULL;
    enum tf_stats_format st = TF_STATS_NONE;
    if (strcmp(format, "stats") == 0)
        st = TF_STATS_TEXT;
    else if (strcmp(format, "stats-csv") == 0)
        st = TF_STATS_CSV;
    else if (strcmp(format, "palette") == 0)
        b = &tf_backend_palette;
    else if (!(b = tf_backend_by_name(format))) {
        tf_diag_error(&d, TF_EUSAGE, "unknown format '%.200s' (svg, tikz, pdf, png, json, "
                                     "palette, stats or stats-csv)",
                      format);
        return outcome(&d, err);
    }
    d.held = &f->warnings;
    struct tf_buf buf;
    tf_buf_init(&buf);
    if (tf_lib_render(f, b, st, &buf, &d)) {
        tf_buf_putc(&buf, '\0'); /* a NUL after text formats, not counted */
        if (buf.oom) {
            tf_diag_oom(&d, format);
        } else {
            *out = buf.data;
            if (len)
                *len = buf.len - 1;
            return outcome(&d, err);
        }
    }
    tf_buf_fini(&buf);
    return outcome(&d, err);
}

const char *tracefig_figure_warnings(const struct tracefig_figure *f)
{
    return f && f->warnings.data ? f->warnings.data : "";
}

void tracefig_figure_free(struct tracefig_figure *f)
{
    if (!f)
        return;
    tf_lib_fini(f);
    free(f);
}

int tracefig_write(const char *path, const void *data, size_t len, struct tracefig_error *err)
{
    struct tf_diag d;
    tf_diag_init(&d);
    if (!path || (len && !data)) {
        tf_diag_error(&d, TF_EUSAGE, "tracefig_write: no path or no data");
        return outcome(&d, err);
    }
    struct tf_outfile o;
    if (tf_outfile_stage(&o, path, data, len, &d))
        tf_outfile_commit(&o, &d);
    tf_outfile_abort(&o);
    return outcome(&d, err);
}

void tracefig_free(void *p)
{
    free(p);
}
