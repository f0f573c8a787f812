/* libFuzzer target: the OTF2 loader on damaged archives.  A template
 * archive (TF_FUZZ_OTF2=DIR, tests/tools/genotf2.py's; run.sh makes one)
 * is copied once into a private folder; each input's first byte picks one
 * of its files (an event file, the global definitions or the anchor), the
 * rest replaces that file's bytes, and the copy is read in the generic
 * mode, then the file put back.  What must hold: an accepted archive
 * gives a figure whose every bar lies inside the axis and that every
 * back-end renders; a refused one fails with one line of valid UTF-8; and
 * every read ends (libFuzzer's -timeout, 10 s in run.sh, turns a read that
 * goes round a damaged chunk list into a crash of its own). */
#include "fuzz_common.h"

#include <dirent.h>
#include <sys/stat.h>

#include "base/utf8.h"
#include "rules/mode.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

#define MAX_FILES 64

struct tfile {
    char path[512];
    unsigned char *bytes;
    size_t len;
};

static struct tfile files[MAX_FILES];
static size_t n_files;
static char anchor[512];

static void check(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_otf2: %s\n", what);
        abort();
    }
}

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct tf_buf b;
    tf_buf_init(&b);
    char chunk[65536];
    size_t k;
    while ((k = fread(chunk, 1, sizeof chunk, f)) > 0)
        tf_buf_putn(&b, chunk, k);
    fclose(f);
    *len = b.len;
    return (unsigned char *)(b.data ? b.data : calloc(1, 1));
}

/* Copies the template's file REL (relative to its folder) into the
 * private copy and keeps its bytes. */
static void keep(const char *from, const char *to, const char *rel)
{
    check(n_files < MAX_FILES, "the template has too many files");
    char src[512];
    snprintf(src, sizeof src, "%s/%s", from, rel);
    struct tfile *t = &files[n_files];
    t->bytes = slurp(src, &t->len);
    check(t->bytes != NULL, "cannot read the template");
    snprintf(t->path, sizeof t->path, "%s/%s", to, rel);
    check(fuzz_write(t->path, t->bytes, t->len) == 0, "cannot copy the template");
    n_files++;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(a, b);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *from = getenv("TF_FUZZ_OTF2");
    check(from != NULL, "TF_FUZZ_OTF2 names no template archive (tests/fuzz/run.sh makes one)");
    char to[256], sub[300];
    snprintf(to, sizeof to, "/dev/shm/tracefig-fuzz-otf2-%ld", (long)getpid());
    snprintf(sub, sizeof sub, "%s/traces", to);
    mkdir(to, 0700);
    mkdir(sub, 0700);
    keep(from, to, "traces.otf2");
    keep(from, to, "traces.def");
    char dir[512];
    snprintf(dir, sizeof dir, "%s/traces", from);
    DIR *d = opendir(dir);
    check(d != NULL, "the template has no traces/ folder");
    /* in name order, so that a selector byte means the same file each run */
    char names[MAX_FILES][64];
    size_t k = 0;
    struct dirent *e;
    while ((e = readdir(d)) && k < MAX_FILES - 2)
        if (e->d_name[0] != '.' && strlen(e->d_name) < 64)
            snprintf(names[k++], sizeof names[0], "%s", e->d_name);
    closedir(d);
    qsort(names, k, sizeof names[0], by_name);
    for (size_t i = 0; i < k; i++) {
        char rel[80];
        snprintf(rel, sizeof rel, "traces/%s", names[i]);
        keep(from, to, rel);
    }
    snprintf(anchor, sizeof anchor, "%s/traces.otf2", to);
    return 0;
}

static bool valid_line(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    for (;;) {
        uint32_t cp;
        size_t len = tf_utf8_next(p, &cp);
        if (len == 0)
            return true;
        if (cp == '\n' || (cp == TF_UTF8_REPLACEMENT && len == 1))
            return false;
        p += len;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    if (n < 1 || n_files == 0)
        return 0;
    struct tfile *t = &files[data[0] % n_files];
    check(fuzz_write(t->path, data + 1, n - 1) == 0, "cannot write the damaged file");
    struct tf_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.flows = data[0] & 0x80;
    struct tf_trace tr;
    tf_trace_init(&tr);
    struct tf_figure f;
    tf_figure_init(&f);
    struct tf_diag d;
    tf_diag_init(&d);
    d.quiet = true;
    struct tf_run run = {anchor, NULL, &tf_mode_chrome, &ro, NULL};
    if (tf_run(&run, &tr, &f, &d)) {
        fuzz_check_figure(&f);
        fuzz_render_all(&f);
    } else {
        check(d.code != 0 && d.msg[0] != '\0', "a failure without a message");
        check(valid_line(d.msg), "a message that is not one line of valid UTF-8");
    }
    tf_figure_fini(&f);
    tf_trace_fini(&tr);
    check(fuzz_write(t->path, t->bytes, t->len) == 0, "cannot restore the template");
    return 0;
}
