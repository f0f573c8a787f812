/* libFuzzer target: the streaming scanner against jansson, in both modes.
 *
 * Both read the same bytes.  Strict mode and jansson must agree on
 * accept/reject, and on accept every top-level member or element the
 * scanner cuts out must parse (with jansson) to exactly the value jansson
 * found at that place in the whole document: same boundaries, same
 * contents.  Lenient mode must accept everything strict mode accepts, with
 * the same values cut out and the same members located; where the two
 * differ, strict mode's reason must be one lenient mode waives, and where
 * lenient mode rejects, its message is strict mode's (unless strict mode
 * stopped earlier for such a reason).  The members located while scanning
 * must be those tf_scan_fields finds in the value's bytes.  The first byte
 * picks the scanner's chunk size, so values straddle chunk boundaries. */
#include <fcntl.h>
#include <jansson.h>

#include "fuzz_common.h"
#include "load/scan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Compares one cut-out value with jansson's. */
static void same_value(const unsigned char *bytes, size_t len, json_t *want)
{
    json_error_t err;
    json_t *got = json_loadb((const char *)bytes, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY,
                             &err);
    if (!got || !want || !json_equal(got, want))
        abort();
    json_decref(got);
}

static const char *const names[] = {"ph", "name", "ts", "dur", "args", "a", "b", "", "k", "1"};
enum { N_NAMES = sizeof names / sizeof names[0], MAX_VALUES = 64 };

/* What one scan found: the verdict, its message, and the first values. */
struct run {
    bool ok;
    char msg[1024];
    size_t n;                                    /* values read */
    size_t off[MAX_VALUES], len[MAX_VALUES];     /* their bytes, from the file start */
    struct tf_scan_field f[MAX_VALUES][N_NAMES]; /* their members */
};

static bool same_fields(const struct tf_scan_field *a, const struct tf_scan_field *b)
{
    for (size_t i = 0; i < N_NAMES; i++)
        if (a[i].type != b[i].type || a[i].off != b[i].off || a[i].len != b[i].len ||
            a[i].escaped != b[i].escaped || a[i].is_int != b[i].is_int)
            return false;
    return true;
}

static void scan_file(const char *path, size_t chunk, unsigned mode, json_t *root,
                      struct run *r)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        abort();
    struct tf_diag d;
    tf_diag_init(&d);
    struct tf_input *in = tf_input_fdopen(fd, "fuzz.json", NULL, &d);
    if (!in)
        abort();
    struct tf_scan s;
    bool ok = tf_scan_init(&s, in, "fuzz.json", chunk, mode, &d);
    enum tf_jtok kind = TF_JT_NONE;
    ok = ok && tf_scan_begin(&s, &kind);
    size_t i = 0;
    r->n = 0;
    while (ok) {
        bool more = false;
        char key[4096];
        size_t key_len = 0;
        if (kind == TF_JT_ARRAY)
            ok = tf_scan_next(&s, &more);
        else
            ok = tf_scan_key(&s, key, sizeof key, &key_len, &more);
        if (!ok || !more)
            break;
        const unsigned char *bytes;
        size_t len;
        struct tf_scan_field f[N_NAMES], again[N_NAMES];
        for (size_t k = 0; k < N_NAMES; k++)
            f[k].name = again[k].name = names[k];
        ok = tf_scan_value(&s, &bytes, &len, f, N_NAMES);
        if (ok) {
            tf_scan_fields(bytes, len, again, N_NAMES);
            if (!same_fields(f, again))
                abort();
        }
        if (ok && root && mode == TF_SCAN_STRICT) {
            json_t *want = kind == TF_JT_ARRAY
                               ? json_array_get(root, i)
                               : (key_len < sizeof key ? json_object_get(root, key) : NULL);
            if (key_len < sizeof key || kind == TF_JT_ARRAY)
                same_value(bytes, len, want);
        }
        if (ok && r->n < MAX_VALUES) {
            r->off[r->n] = (size_t)(s.base + (uint64_t)(bytes - s.buf));
            r->len[r->n] = len;
            memcpy(r->f[r->n], f, sizeof f);
            r->n++;
        }
        i++;
    }
    ok = ok && tf_scan_finish(&s);
    tf_scan_fini(&s);
    tf_input_close(in);
    close(fd);
    /* A rejection is always a located message. */
    if (!ok && (d.code == TF_OK || strncmp(d.msg, "fuzz.json:", 10) != 0))
        abort();
    if (ok && root && kind == TF_JT_ARRAY && i != json_array_size(root) &&
        mode == TF_SCAN_STRICT)
        abort();
    if (ok && root && kind == TF_JT_OBJECT && i != json_object_size(root) &&
        mode == TF_SCAN_STRICT)
        abort();
    r->ok = ok;
    snprintf(r->msg, sizeof r->msg, "%s", ok ? "" : d.msg);
}

/* Strict mode's messages for what lenient mode accepts. */
static bool waived(const char *msg)
{
    static const char *const what[] = {
        "\\u0000 is not allowed", "NUL byte in object key", "too big integer",
        "too big negative integer", "real number overflow", "maximum parsing depth reached",
        "duplicate object key", "near end of file", /* an open top-level array */
        "unexpected token near ']'", "string or '}' expected near '}'", /* trailing commas */
    };
    for (size_t i = 0; i < sizeof what / sizeof what[0]; i++)
        if (strstr(msg, what[i]))
            return true;
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t chunk = 1 + (data[0] % 64);
    if (data[0] >= 192)
        chunk = 0; /* the default, 1 MiB */
    const char *path = fuzz_path("scan");
    if (fuzz_write(path, data + 1, size - 1) != 0)
        return 0;

    json_error_t err;
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &err);
    static struct run strict, lenient;
    scan_file(path, chunk, TF_SCAN_STRICT, root, &strict);
    scan_file(path, chunk, TF_SCAN_LENIENT, root, &lenient);
    /* Strict: jansson's verdict. */
    if (strict.ok != (root != NULL))
        abort();
    if (strict.ok) {
        /* Lenient: the same, and the same values and members. */
        if (!lenient.ok || lenient.n != strict.n)
            abort();
        for (size_t i = 0; i < strict.n; i++)
            if (lenient.off[i] != strict.off[i] || lenient.len[i] != strict.len[i] ||
                !same_fields(lenient.f[i], strict.f[i]))
                abort();
    } else if (!waived(strict.msg) && (lenient.ok || strcmp(lenient.msg, strict.msg) != 0)) {
        abort();
    }
    json_decref(root);
    return 0;
}
