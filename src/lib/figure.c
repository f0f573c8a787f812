/* figure.c - the pipeline of one figure: inputs -> trace -> rules -> figure
 * model, then the one plan and the back-ends; see figure.h.  The command
 * line's files and the public API's error values are not here.
 */
#include "lib/figure.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/str.h"
#include "load/input.h"
#include "load/marks_file.h"
#include "load/model.h"
#include "model/palette.h"
#include "rules/chrome.h"
#include "lib/opt.h"
#include "render/stats.h"
#include "rules/critpath_marks.h"
#include "rules/marks.h"
#include "rules/remodel.h"
#include "lib/run.h"
#include "lib/zoom.h"

/* --- inputs in memory -------------------------------------------------------------- */

/* Input k's path: PREFIX/K/NAME (a folder each, so that two inputs may
 * have one name), PREFIX the staging folder or the memory prefix. */
static bool input_path(const char *prefix, size_t k, const char *name, char *out, size_t cap,
                       bool dir)
{
    int len = dir ? snprintf(out, cap, "%s/%zu", prefix, k)
                  : snprintf(out, cap, "%s/%zu/%s", prefix, k, name);
    return len > 0 && (size_t)len < cap;
}

/* The name an input in memory is known by: its path's base name, with
 * nothing a file name cannot hold. */
static const char *memory_name(const struct tracefig_input *in)
{
    const char *n = in->path && *in->path ? tf_base_name(in->path) : "<memory>";
    return strcmp(n, ".") == 0 || strcmp(n, "..") == 0 || strchr(n, '/') ? "<memory>" : n;
}

/* Whether an input in memory must be a file: an OTF2 archive's anchor
 * (libotf2 reads an archive from its folder alone).  Everything else is
 * read in memory: JSON and gzip through load/input.h, an Nsight Systems
 * export through SQLite's sqlite3_deserialize. */
static bool staged(const struct tracefig_input *in)
{
    const char *n = memory_name(in);
    size_t len = strlen(n);
    return in->data && len >= 5 && strcmp(n + len - 5, ".otf2") == 0;
}

/* The inputs in memory under their paths in memory (F->mem/K/NAME), for
 * the loaders to read where they are. */
static bool name_memory(struct tracefig_figure *F, const struct tracefig_input *in, size_t n,
                        char **paths, struct tf_diag *d)
{
    /* The figure's address tells its inputs from another figure's loading
     * at the same time.  Such a path names memory only while its figure
     * loads, and only the library names one: a command line cannot. */
    snprintf(F->mem, sizeof F->mem, "<tracefig memory %p>", (void *)F);
    for (size_t k = 0; k < n; k++) {
        if (!in[k].data || staged(&in[k]))
            continue;
        char path[512];
        if (!input_path(F->mem, k, memory_name(&in[k]), path, sizeof path, false) ||
            !tf_input_memory_add(path, in[k].data, in[k].len) ||
            !(paths[k] = tf_arena_strdup(&F->opts.arena, path))) {
            if (input_path(F->mem, k, memory_name(&in[k]), path, sizeof path, false))
                tf_input_memory_remove(path);
            return tf_diag_oom(d, NULL);
        }
    }
    return true;
}

static bool write_all(int fd, const unsigned char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* The inputs that must be files (staged), written to TMP/K/NAME in a
 * private folder of $TMPDIR. */
static bool stage(struct tracefig_figure *F, const struct tracefig_input *in, size_t n,
                  char **paths, struct tf_diag *d)
{
    bool any = false;
    for (size_t k = 0; k < n; k++)
        any = any || staged(&in[k]);
    if (!any)
        return true;
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    int len = snprintf(F->tmp, sizeof F->tmp, "%s/tracefig-XXXXXX", dir);
    if (len <= 0 || (size_t)len >= sizeof F->tmp || !mkdtemp(F->tmp)) {
        int e = errno;
        F->tmp[0] = '\0';
        return tf_diag_error(d, TF_EIO,
                             "cannot make a folder in %.300s for an OTF2 archive in memory (it "
                             "is read from files): %s",
                             dir, strerror(e));
    }
    for (size_t k = 0; k < n; k++) {
        if (!staged(&in[k]))
            continue;
        char path[512];
        if (!input_path(F->tmp, k, "", path, sizeof path, true) || mkdir(path, 0700) != 0 ||
            !input_path(F->tmp, k, memory_name(&in[k]), path, sizeof path, false))
            return tf_diag_error(d, TF_EIO, "%s: cannot stage a trace in memory: %s", F->tmp,
                                 strerror(errno));
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        bool ok = fd >= 0 && write_all(fd, in[k].data, in[k].len);
        int e = errno;
        if (fd >= 0 && close(fd) != 0)
            ok = false;
        if (!ok)
            return tf_diag_error(d, TF_EIO, "%s: cannot stage a trace in memory: %s", path,
                                 strerror(e));
        if (!(paths[k] = tf_arena_strdup(&F->opts.arena, path)))
            return tf_diag_oom(d, NULL);
    }
    return true;
}

/* Forgets the inputs' paths in memory, and removes the staged files and
 * their folders (once loaded, or failed). */
static void unstage(struct tracefig_figure *F, const struct tracefig_input *in, size_t n)
{
    char path[512];
    for (size_t k = 0; F->mem[0] && k < n; k++)
        if (in[k].data && !staged(&in[k]) &&
            input_path(F->mem, k, memory_name(&in[k]), path, sizeof path, false))
            tf_input_memory_remove(path);
    if (!F->tmp[0])
        return;
    for (size_t k = 0; k < n; k++) {
        if (!staged(&in[k]))
            continue;
        if (input_path(F->tmp, k, memory_name(&in[k]), path, sizeof path, false))
            unlink(path);
        if (input_path(F->tmp, k, "", path, sizeof path, true))
            rmdir(path);
    }
    rmdir(F->tmp);
}

/* Drops "PREFIX/K/" (PREFIX: F->tmp or F->mem) from a message, so that it
 * names an input in memory as the caller did. */
static size_t unstaged(const struct tracefig_figure *F, char *s, size_t len)
{
    const char *prefixes[2] = {F->tmp, F->mem};
    size_t w = 0;
    for (size_t r = 0; r < len;) {
        bool cut = false;
        for (int i = 0; i < 2 && !cut; i++) {
            size_t tl = strlen(prefixes[i]);
            if (!tl || len - r <= tl + 1 || memcmp(s + r, prefixes[i], tl) != 0 ||
                s[r + tl] != '/')
                continue;
            size_t q = r + tl + 1;
            while (q < len && s[q] >= '0' && s[q] <= '9')
                q++;
            if (q < len && q > r + tl + 1 && s[q] == '/') {
                r = q + 1;
                cut = true;
            }
        }
        if (!cut)
            s[w++] = s[r++];
    }
    s[w] = '\0';
    return w;
}

static void unstage_messages(const struct tracefig_figure *F, struct tf_diag *d)
{
    d->msg[unstaged(F, d->msg, strlen(d->msg))] = '\0';
    if (d->held && d->held->data)
        d->held->len = unstaged(F, d->held->data, d->held->len);
}

/* --- the figure ------------------------------------------------------------------- */

/* --palette: the file's classes in its colours, the others off them. */
static bool apply_palette(struct tracefig_figure *F, const char *path, struct tf_diag *d)
{
    if (strcmp(path, "-") == 0)
        return tf_diag_error(d, TF_EUSAGE, "--palette reads a file, not standard input");
    struct tf_palette p;
    tf_palette_init(&p);
    size_t n_spare;
    const uint32_t *spare = tf_chrome_name_palette(&n_spare);
    bool ok = tf_palette_read(path, &p, d) &&
              (tf_palette_apply(&F->fig, &p, spare, n_spare) || tf_diag_oom(d, NULL));
    tf_palette_fini(&p);
    return ok;
}

/* One trace as ever; a figure model of one trace as it is; several traces
 * (or a model of several) as one figure. */
static bool build(struct tracefig_figure *F, const char *const *paths, size_t n,
                  struct tf_diag *d)
{
    struct tracefig_options *c = &F->opts;
    const char *path = paths[0];
    F->name = n > 1 ? "the figure" : tf_diag_name(path);
    if (!tf_options_check_stdin(c, path, d))
        return false;
    bool model = false, several = n > 1;
    if (!several && strcmp(path, "-") != 0 && !tf_load_is_model(path, &model, d))
        return false;
    if (model && !several && !tf_load_model_figure(path, &F->fig, &several, d))
        return false;
    if (model && !several && !tf_remodel(&F->fig))
        return tf_diag_oom(d, NULL);
    if (!several && (c->n_titles || c->align))
        tf_diag_warn(d, "--titles and --align are for several traces: one trace is drawn as "
                        "it is");
    if (several) {
        struct tf_multi_run multi = {paths,   n,       c->titles,         c->n_titles,
                                     c->align, c->mode, &c->rules,         &c->render.size};
        if (!tf_run_multi(&multi, &F->fig, d))
            return false;
    } else if (!model) {
        struct tf_run run = {path, c->breakdown_path, c->mode, &c->rules,
                             c->n_zooms ? &F->span : NULL};
        F->zoomable = strcmp(path, "-") != 0;
        F->path = path;
        if (!tf_run(&run, &F->trace, &F->fig, d))
            return false;
        if (F->fig.ov_set &&
            !tf_ranks_finish_set(&F->fig, &c->render.size, c->rules.order_ranks, d))
            return false;
    }
    /* (the Chrome mode says so of a trace that is no HPC job's) */
    if (c->rules.n_ranks && !several && !(F->fig.mode && strcmp(F->fig.mode, "chrome") == 0))
        tf_diag_warn(d, "--ranks is for the ranks of a job (several traces, or an OTF2 "
                        "archive): one trace is drawn as it is");
    if (c->palette_path && !apply_palette(F, c->palette_path, d))
        return false;
    if (c->annotate) {
        if (F->fig.stats.summary)
            F->fig.annotate = true;
        else
            tf_diag_warn(d, "--annotate: the %s mode has no summary line for this figure",
                         F->fig.mode ? F->fig.mode : "chosen");
    }
    return true;
}

/* The marks in the order given, every --marks file read (before the
 * trace: a bad file stops the run early). */
static bool read_marks(struct tracefig_figure *F, struct tf_diag *d)
{
    struct tracefig_options *c = &F->opts;
    for (size_t i = 0; i < c->n_marks; i++) {
        const struct tf_mark_opt *m = &c->marks[i];
        if (m->file || m->json) {
            if (!tf_load_marks(m->file ? m->file : "marks", m->json, &c->arena, &F->marks,
                               &F->n_marks, &F->cap_marks, d))
                return false;
        } else if (!TF_GROW(F->marks, F->n_marks, F->cap_marks)) {
            return tf_diag_oom(d, NULL);
        } else {
            F->marks[F->n_marks++] = m->spec;
        }
    }
    /* the events they name, for a mode that keeps them (tf_opts) */
    size_t cap = 2 * (F->n_marks + c->n_zooms);
    const char **g = cap ? tf_arena_alloc(&c->arena, cap * sizeof *g) : NULL;
    if (cap && !g)
        return tf_diag_oom(d, NULL);
    size_t n = 0;
    for (size_t i = 0; i < F->n_marks; i++) {
        const struct tf_mark_spec *s = &F->marks[i];
        if (s->kind == TF_MARK_HIGHLIGHT)
            continue;
        if (!s->from.is_time && s->from.event)
            g[n++] = s->from.event;
        if (!s->to.is_time && s->to.event)
            g[n++] = s->to.event;
    }
    /* --zoom's ends name events the same way */
    for (size_t i = 0; i < c->n_zooms; i++) {
        const struct tf_mark_spec *s = &c->zooms[i];
        if (!s->from.is_time && s->from.event)
            g[n++] = s->from.event;
        if (!s->to.is_time && s->to.event)
            g[n++] = s->to.event;
    }
    c->rules.mark_globs = g;
    c->rules.n_mark_globs = n;
    return true;
}

/* --zoom: the figure of each zoom's range (lib/zoom.h), of one trace read
 * from a file (each zoom reads it again). */
static bool zooms(struct tracefig_figure *F, struct tf_diag *d)
{
    const struct tracefig_options *c = &F->opts;
    if (!c->n_zooms)
        return true;
    if (!F->zoomable)
        return tf_diag_usage(d, "--zoom: draws zooms of one trace read from a file (each zoom "
                                "reads it again), not of standard input, a model or several "
                                "traces");
    struct tf_zoom_in in = {
        .path = F->path,
        .breakdown_path = c->breakdown_path,
        .mode = c->mode,
        .rules = &c->rules,
        .span = &F->span,
        .size = &c->render.size,
        .zooms = c->zooms,
        .n_zooms = c->n_zooms,
        .pad_pct = c->zoom_pad_pct,
        .marks = F->marks,
        .n_marks = F->n_marks,
    };
    return tf_zoom_make(&in, &F->fig, d);
}

static void init(struct tracefig_figure *F)
{
    memset(F, 0, sizeof *F);
    tf_options_init(&F->opts);
    tf_trace_init(&F->trace);
    tf_figure_init(&F->fig);
    tf_buf_init(&F->cmdline);
    tf_buf_init(&F->warnings);
    tf_arena_init(&F->plan.arena);
    tf_arena_init(&F->fit_plan.arena);
}

static bool make(struct tracefig_figure *F, const struct tracefig_input *in, size_t n,
                 bool record_inputs, struct tf_diag *d);

bool tf_lib_make(struct tracefig_figure *F, const struct tracefig_options *c,
                 const struct tracefig_input *in, size_t n, bool record_inputs,
                 struct tf_diag *d)
{
    init(F);
    tf_options_fini(&F->opts);
    if (!tf_options_copy(&F->opts, c, d))
        return false;
    F->opts.rules.no_stats = c->rules.no_stats;
    F->opts.rules.no_fold = c->rules.no_fold;
    return make(F, in, n, record_inputs, d);
}

bool tf_lib_make_taking(struct tracefig_figure *F, struct tracefig_options *c,
                        const struct tracefig_input *in, size_t n, bool record_inputs,
                        struct tf_diag *d)
{
    init(F);
    tf_options_fini(&F->opts);
    F->opts = *c;
    tf_options_init(c);
    return make(F, in, n, record_inputs, d);
}

static bool make(struct tracefig_figure *F, const struct tracefig_input *in, size_t n,
                 bool record_inputs, struct tf_diag *d)
{
    if (!tf_options_finish(&F->opts, d))
        return false;
    if (n == 0 && F->opts.n_traces == 0)
        return tf_diag_error(d, TF_EUSAGE, "no trace given");
    tf_buf_puts(&F->cmdline, "tracefig");
    for (size_t k = 0; k < n && record_inputs; k++)
        tf_opt_record(&F->cmdline, in[k].data ? memory_name(&in[k]) : in[k].path, true);
    tf_buf_puts(&F->cmdline, F->opts.cmdline.data ? F->opts.cmdline.data : "");
    if (F->cmdline.oom)
        return tf_diag_oom(d, NULL);

    const char *const *paths = F->opts.traces;
    size_t np = F->opts.n_traces;
    bool ok = true;
    if (n) {
        char **p = tf_arena_alloc(&F->opts.arena, n * sizeof *p);
        if (!p)
            return tf_diag_oom(d, NULL);
        bool memory = false;
        for (size_t k = 0; k < n; k++) {
            p[k] = (char *)in[k].path;
            memory |= in[k].data != NULL;
            if (!in[k].data && !in[k].path)
                return tf_diag_error(d, TF_EUSAGE, "input %zu has neither a path nor data", k);
        }
        ok = !memory || (name_memory(F, in, n, p, d) && stage(F, in, n, p, d));
        paths = (const char *const *)p;
        np = n;
    }
    ok = ok && read_marks(F, d) && build(F, paths, np, d);
    ok = ok && tf_cp_marks(&F->fig, d) && tf_marks_apply(&F->fig, F->marks, F->n_marks, d);
    ok = ok && zooms(F, d);
    unstage(F, in, n);
    unstage_messages(F, d);
    return ok;
}

/* The plan b draws, once: what the layout leaves out at the size asked
 * (lanes and nesting rows past the height budget) is a note of the figure,
 * said once.  A back-end that always fits (TikZ) of a figure whose size
 * asked keeps the reference layout draws a second plan, the fit one
 * (tf_render_size): its note is only said, the figure's notes are the
 * reference layout's. */
static const struct tf_plan *plan_once(struct tracefig_figure *F, const struct tf_backend *b,
                                       struct tf_diag *d)
{
    const struct tf_size *asked = &F->opts.render.size;
    struct tf_size size = tf_render_size(b, asked);
    bool second = tf_plan_fits(&F->fig, &size) && !tf_plan_fits(&F->fig, asked);
    struct tf_plan *p = second ? &F->fit_plan : &F->plan;
    bool *planned = second ? &F->fit_planned : &F->planned;
    if (*planned)
        return p;
    F->n_plans++;
    if (!tf_plan_make_zoomed(&F->fig, &size, p)) {
        tf_diag_oom(d, NULL);
        return NULL;
    }
    *planned = true;
    if (!tf_plan_fits(&F->fig, &size) || !p->note)
        return p; /* the reference's layout leaves nothing out */
    bool had = false; /* a model drawn again holds its note already */
    for (size_t i = 0; i < F->fig.n_notes && !had; i++)
        had = strcmp(F->fig.notes[i], p->note) == 0;
    if (!second && !had && !tf_figure_add_note(&F->fig, p->note)) {
        tf_diag_oom(d, NULL);
        return NULL;
    }
    tf_diag_warn(d, "%s: %s", F->name, p->note);
    return p;
}

/* --stats with --zoom: each zoom's table (or CSV) under a heading of its
 * own, "Zoom K: --zoom 'SPEC', T0 to T1" (a CSV's heading a "# " line). */
static void stats_zooms(struct tracefig_figure *F, enum tf_stats_format st, struct tf_buf *out)
{
    for (size_t i = 0; i < F->fig.n_zooms; i++) {
        const struct tf_zoom *z = &F->fig.zooms[i];
        struct tf_buf t0, t1;
        tf_buf_init(&t0);
        tf_buf_init(&t1);
        tf_marks_fmt_time(&F->fig, z->t0, &t0);
        tf_marks_fmt_time(&F->fig, z->t1, &t1);
        tf_buf_printf(out, "\n%sZoom %zu: %s, %s to %s\n", st == TF_STATS_CSV ? "# " : "", i + 1,
                      z->spec, t0.data ? t0.data : "", t1.data ? t1.data : "");
        tf_buf_fini(&t0);
        tf_buf_fini(&t1);
        if (st == TF_STATS_CSV)
            tf_stats_write_csv(z->fig, out);
        else
            tf_stats_write_table(z->fig, out);
    }
}

bool tf_lib_render(struct tracefig_figure *F, const struct tf_backend *b,
                   enum tf_stats_format st, struct tf_buf *out, struct tf_diag *d)
{
    bool ok = true;
    const struct tf_plan *plan = NULL;
    if (!b) {
        if (st == TF_STATS_CSV)
            tf_stats_write_csv(&F->fig, out);
        else
            tf_stats_write_table(&F->fig, out);
        stats_zooms(F, st, out);
    } else if (!b->available) {
        ok = tf_diag_error(d, TF_EUSAGE,
                           "%s output is not available: tracefig was built without cairo "
                           "(install libcairo2-dev and rebuild)",
                           b->name);
    } else if (b == &tf_backend_palette) {
        ok = b->render(&F->fig, &F->opts.render, out, d); /* no drawing: no plan */
    } else if ((plan = plan_once(F, b, d))) {
        struct tf_render_opts ro = F->opts.render;
        ro.cmdline = F->cmdline.data;
        ro.plan = plan;
        ro.plans_made = &F->n_plans;
        ok = b->render(&F->fig, &ro, out, d);
    } else {
        ok = false;
    }
    if (ok && out->oom)
        ok = tf_diag_oom(d, b ? b->name : "stats");
    unstage_messages(F, d);
    return ok;
}

void tf_lib_fini(struct tracefig_figure *F)
{
    tf_plan_fini(&F->plan);
    tf_plan_fini(&F->fit_plan);
    tf_figure_fini(&F->fig);
    tf_trace_fini(&F->trace);
    tf_options_fini(&F->opts);
    tf_buf_fini(&F->cmdline);
    tf_buf_fini(&F->warnings);
    free(F->marks);
}
