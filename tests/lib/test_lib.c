/* test_lib.c - libtracefig through its installed header and pkg-config:
 * draws one trace from a path, from memory and from two threads at once,
 * into OUTDIR/{path,memory,thread0,thread1}.{svg,tex,pdf,png,json,txt}
 * for run.sh to compare with the command line's bytes; checks the error
 * values and that nothing is printed.
 *
 *   test_lib TRACE OUTDIR [LONG-OPTION VALUE]...   (VALUE "-" for a flag)
 *
 * Prints "ok NAME" / "FAIL NAME: why" per check.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracefig.h>

static const char *const formats[] = {"svg", "tikz", "pdf", "png", "json", "stats"};
static const char *const exts[] = {"svg", "tex", "pdf", "png", "json", "txt"};
enum { N_FORMATS = 6 };

static int failed;

static void check(int ok, const char *name, const char *why)
{
    if (ok)
        printf("ok %s\n", name);
    else {
        printf("FAIL %s: %s\n", name, why ? why : "");
        failed = 1;
    }
}

static const char *trace_path, *out_dir;
static int n_opts;
static char **opts;

static struct tracefig_options *make_options(struct tracefig_error *err)
{
    struct tracefig_options *o = tracefig_options_new();
    for (int i = 0; o && i + 1 < n_opts; i += 2)
        if (tracefig_options_set(o, opts[i], strcmp(opts[i + 1], "-") ? opts[i + 1] : NULL,
                                 err) != 0) {
            tracefig_options_free(o);
            return NULL;
        }
    return o;
}

/* Renders every format of f into OUTDIR/TAG.EXT; 0 or the first error. */
static int render_all(struct tracefig_figure *f, const char *tag, struct tracefig_error *err)
{
    for (int i = 0; i < N_FORMATS; i++) {
        char *data;
        size_t len;
        int rc = tracefig_render(f, formats[i], &data, &len, err);
        if (rc)
            return rc;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.%s", out_dir, tag, exts[i]);
        FILE *fp = fopen(path, "wb");
        if (!fp || fwrite(data, 1, len, fp) != len || fclose(fp) != 0) {
            tracefig_free(data);
            snprintf(err->message, sizeof err->message, "cannot write %.900s", path);
            return err->code = 3;
        }
        tracefig_free(data);
    }
    return 0;
}

static int draw_path(const char *tag, struct tracefig_error *err)
{
    struct tracefig_options *o = make_options(err);
    if (!o)
        return err->code;
    struct tracefig_figure *f = tracefig_figure_from_path(o, trace_path, err);
    tracefig_options_free(o); /* the figure keeps its own copy */
    int rc = f ? render_all(f, tag, err) : err->code;
    tracefig_figure_free(f);
    return rc;
}

static void *thread_main(void *arg)
{
    static const char *const tags[] = {"thread0", "thread1"};
    struct tracefig_error *err = arg;
    int k = err->code; /* which thread */
    err->code = 0;
    draw_path(tags[k], err);
    return NULL;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, fp)) > 0) {
        n += got;
        if (n == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    fclose(fp);
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_lib TRACE OUTDIR [OPTION VALUE]...\n");
        return 2;
    }
    trace_path = argv[1];
    out_dir = argv[2];
    opts = argv + 3;
    n_opts = argc - 3;
    struct tracefig_error err;

    check(strcmp(tracefig_version(), TRACEFIG_VERSION) == 0, "version", tracefig_version());
    check(draw_path("path", &err) == 0, "from a path", err.message);

    /* From memory, named as the file is: the same recorded command line.
     * Read where it is: with TEST_LIB_RO_TMPDIR, TMPDIR is a folder that
     * cannot be written meanwhile (no other thread runs yet), so a copy
     * staged on disk would fail. */
    size_t len = 0;
    char *bytes = read_file(trace_path, &len);
    const char *base = strrchr(trace_path, '/') ? strrchr(trace_path, '/') + 1 : trace_path;
    struct tracefig_options *o = make_options(&err);
    const char *ro = getenv("TEST_LIB_RO_TMPDIR"), *old_tmp = getenv("TMPDIR");
    char *saved = old_tmp ? strdup(old_tmp) : NULL;
    if (ro)
        setenv("TMPDIR", ro, 1);
    struct tracefig_figure *f =
        bytes && o ? tracefig_figure_from_memory(o, bytes, len, base, &err) : NULL;
    if (ro && saved)
        setenv("TMPDIR", saved, 1);
    else if (ro)
        unsetenv("TMPDIR");
    free(saved);
    check(f && render_all(f, "memory", &err) == 0,
          ro ? "from memory, TMPDIR a folder that cannot be written" : "from memory",
          err.message);
    tracefig_figure_free(f);
    tracefig_options_free(o);
    free(bytes);

    /* Two figures on two threads at once. */
    struct tracefig_error terr[2] = {{0, ""}, {1, ""}};
    pthread_t th[2];
    int started = 0;
    for (int k = 0; k < 2; k++)
        started += pthread_create(&th[k], NULL, thread_main, &terr[k]) == 0;
    for (int k = 0; k < started; k++)
        pthread_join(th[k], NULL);
    check(started == 2 && terr[0].code == 0, "thread 0", terr[0].message);
    check(started == 2 && terr[1].code == 0, "thread 1", terr[1].message);

    /* Errors are values with the command line's messages. */
    o = tracefig_options_new();
    int rc = tracefig_options_set(o, "widht", "3in", &err);
    check(rc == TRACEFIG_EUSAGE &&
              strcmp(err.message, "unknown option '--widht' (did you mean '--width'?)") == 0,
          "an unknown option", err.message);
    rc = tracefig_options_set(o, "width", "3 furlongs", &err);
    check(rc == TRACEFIG_EUSAGE && strncmp(err.message, "--width: expected a length", 26) == 0,
          "a bad value", err.message);
    rc = tracefig_options_set(o, "output", "x.svg", &err);
    check(rc == TRACEFIG_EUSAGE, "a command-line option", err.message);
    f = tracefig_figure_from_path(o, "/nonexistent/trace.json", &err);
    check(!f && err.code == TRACEFIG_EBADINPUT &&
              strcmp(err.message, "/nonexistent/trace.json: cannot open: No such file or "
                                  "directory") == 0,
          "a missing file", err.message);
    static const char broken[] = "{\"traceEvents\": [1,";
    f = tracefig_figure_from_memory(o, broken, sizeof broken - 1, "broken.json", &err);
    check(!f && err.code == TRACEFIG_EBADINPUT && strncmp(err.message, "broken.json:", 12) == 0,
          "bad bytes in memory", err.message);
    const char *argv2[] = {"tracefig", "--flows", "--lanes=a*,b*", "--max-lanes", "0"};
    rc = tracefig_options_parse(o, 5, argv2, &err);
    check(rc == TRACEFIG_EUSAGE && strstr(err.message, "--max-lanes") != NULL, "argv words",
          err.message);
    tracefig_options_free(o);
    return failed;
}
