/* libFuzzer target: the streaming scanner against jansson.
 *
 * Both read the same bytes.  They must agree on accept/reject, and on
 * accept every top-level member or element the scanner cuts out must parse
 * (with jansson) to exactly the value jansson found at that place in the
 * whole document: same boundaries, same contents.  The first byte picks the
 * scanner's chunk size, so values straddle chunk boundaries. */
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

    int fd = open(path, O_RDONLY);
    if (fd < 0)
        abort();
    struct tf_diag d;
    tf_diag_init(&d);
    struct tf_scan s;
    struct tf_input *in = tf_input_fdopen(fd, "fuzz.json", NULL, &d);
    if (!in)
        abort();
    bool ok = tf_scan_init(&s, in, "fuzz.json", chunk, &d);
    enum tf_jtok kind = TF_JT_NONE;
    ok = ok && tf_scan_begin(&s, &kind);
    size_t i = 0;
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
        ok = tf_scan_value(&s, &bytes, &len, NULL, 0);
        if (ok && root) {
            json_t *want = kind == TF_JT_ARRAY
                               ? json_array_get(root, i)
                               : (key_len < sizeof key ? json_object_get(root, key) : NULL);
            if (key_len < sizeof key || kind == TF_JT_ARRAY)
                same_value(bytes, len, want);
        }
        i++;
    }
    ok = ok && tf_scan_finish(&s);
    tf_scan_fini(&s);
    tf_input_close(in);
    close(fd);
    /* Same verdict; and a rejection is always a located message. */
    if (ok != (root != NULL))
        abort();
    if (!ok && (d.code == TF_OK || strncmp(d.msg, "fuzz.json:", 10) != 0))
        abort();
    if (root && kind == TF_JT_ARRAY && i != json_array_size(root))
        abort();
    if (root && kind == TF_JT_OBJECT && i != json_object_size(root))
        abort();
    json_decref(root);
    return 0;
}
