/* test_input.c - the input layer: plain and gzip'd files and pipes,
 * concatenated members, truncated and corrupt data, spooled pipes, seeking
 * back across inflate checkpoints, a bomb of zeros, and the scanner reading
 * gzip'd data with the same located messages as plain data. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "harness.h"
#include "load/input.h"
#include "load/scan.h"

/* data[0 .. n) gzip'd as one member; *out_n its size; caller frees. */
static unsigned char *gz(const void *data, size_t n, int level, size_t *out_n)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return NULL;
    size_t cap = deflateBound(&z, (uLong)n) + 64;
    unsigned char *out = malloc(cap);
    z.next_in = (unsigned char *)(uintptr_t)data;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    int rc = out ? deflate(&z, Z_FINISH) : Z_MEM_ERROR;
    *out_n = cap - z.avail_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END) {
        free(out);
        return NULL;
    }
    return out;
}

static FILE *tmp_with(const void *data, size_t n)
{
    FILE *f = tmpfile();
    if (!f)
        return NULL;
    fwrite(data, 1, n, f);
    fflush(f);
    rewind(f);
    return f;
}

/* A pipe whose other end a child process fills with data[0 .. n); the
 * child frees the parent's buffers in `owned` (NULL-ended) before it ends,
 * so valgrind sees no leak in it. */
static int pipe_with(const void *data, size_t n, pid_t *child, void *const *owned)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    *child = fork();
    if (*child == 0) {
        close(fds[0]);
        const unsigned char *p = data;
        size_t off = 0;
        while (off < n) {
            ssize_t w = write(fds[1], p + off, n - off < 4093 ? n - off : 4093);
            if (w <= 0)
                break;
            off += (size_t)w;
        }
        for (size_t i = 0; owned[i]; i++)
            free(owned[i]);
        _exit(0);
    }
    close(fds[1]);
    return fds[0];
}

static void pipe_done(int fd, pid_t child)
{
    close(fd);
    waitpid(child, NULL, 0);
}

/* Text that compresses but not to nothing. */
static char *text_data(size_t n)
{
    char *p = malloc(n);
    unsigned long long x = 88172645463325252ull;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        p[i] = (char)(i % 61 == 60 ? '\n' : 'a' + (int)(x % 16));
    }
    return p;
}

/* Reads everything left, in pieces of `piece` bytes; the count, or -1. */
static long long read_all(struct tf_input *in, unsigned char *out, size_t cap, size_t piece)
{
    size_t n = 0;
    for (;;) {
        size_t want = cap - n < piece ? cap - n : piece;
        ssize_t r = tf_input_read(in, out + n, want);
        if (r < 0)
            return -1;
        if (r == 0 || want == 0)
            return (long long)n;
        n += (size_t)r;
    }
}

TF_TEST(input_plain_and_gzip_read_the_same)
{
    size_t n = 300000;
    char *data = text_data(n);
    size_t zn;
    unsigned char *z = gz(data, n, 6, &zn);
    unsigned char *got = malloc(n + 10);
    for (int kind = 0; kind < 4; kind++) {
        bool gzip = kind & 1;
        FILE *f = gzip ? tmp_with(z, zn) : tmp_with(data, n);
        struct tf_diag d;
        tf_diag_init(&d);
        struct tf_input_opts o = {.thread = kind >= 2}; /* the reader thread too */
        struct tf_input *in = tf_input_fdopen(fileno(f), "t.json", &o, &d);
        TF_CHECK(in && tf_input_is_gzip(in) == gzip && tf_input_can_seek(in));
        TF_CHECK(read_all(in, got, n + 10, 7777) == (long long)n);
        TF_CHECK(memcmp(got, data, n) == 0);
        TF_CHECK(tf_input_offset(in) == n);
        /* Back to the middle. */
        TF_CHECK(tf_input_seek(in, 123457));
        TF_CHECK(tf_input_offset(in) == 123457);
        TF_CHECK(tf_input_read(in, got, 100) == 100 && memcmp(got, data + 123457, 100) == 0);
        tf_input_close(in);
        fclose(f);
    }
    free(got);
    free(z);
    free(data);
}

/* Bytes in memory read where they are: plain and gzip'd, with and without
 * the reader thread, seeking back; through a path named for them, which
 * reads them only while it is named. */
TF_TEST(input_memory)
{
    size_t n = 300000;
    char *data = text_data(n);
    size_t zn;
    unsigned char *z = gz(data, n, 6, &zn);
    unsigned char *got = malloc(n + 10);
    for (int kind = 0; kind < 8; kind++) {
        bool gzip = kind & 1, by_path = kind & 4;
        const void *bytes = gzip ? (const void *)z : data;
        size_t len = gzip ? zn : n;
        struct tf_diag d;
        tf_diag_init(&d);
        struct tf_input_opts o = {.thread = kind & 2};
        const char *path = "<tracefig memory test>/0/t.json";
        if (by_path)
            TF_CHECK(tf_input_memory_add(path, bytes, len));
        struct tf_input *in = by_path ? tf_input_open(path, &o, &d)
                                      : tf_input_memopen(bytes, len, "t.json", &o, &d);
        const void *p = NULL;
        size_t pl = 0;
        TF_CHECK(in && tf_input_is_gzip(in) == gzip && tf_input_can_seek(in));
        TF_CHECK(in && tf_input_bytes(in, &p, &pl) && p == bytes && pl == len);
        TF_CHECK(in && read_all(in, got, n + 10, 7777) == (long long)n);
        TF_CHECK(memcmp(got, data, n) == 0);
        TF_CHECK(in && tf_input_seek(in, 123457));
        TF_CHECK(in && tf_input_read(in, got, 100) == 100 && memcmp(got, data + 123457, 100) == 0);
        tf_input_close(in);
        if (by_path) {
            tf_input_memory_remove(path);
            TF_CHECK(!tf_input_memory_find(path, &p, &pl));
            in = tf_input_open(path, NULL, &d); /* a file of that name now: none */
            TF_CHECK(!in && strstr(d.msg, "cannot open") != NULL);
        }
        TF_CHECK(!by_path || tf_diag_failed(&d));
    }
    /* Empty bytes: read as an empty file. */
    struct tf_diag d;
    tf_diag_init(&d);
    struct tf_input *in = tf_input_memopen(NULL, 0, "e.json", NULL, &d);
    TF_CHECK(in && tf_input_read(in, got, 10) == 0 && !tf_input_is_gzip(in));
    tf_input_close(in);
    free(got);
    free(z);
    free(data);
}

TF_TEST(input_concatenated_members)
{
    const char *a = "{\"traceEvents\": [", *b = "{\"ph\": \"X\"}]}";
    size_t an, bn;
    unsigned char *za = gz(a, strlen(a), 6, &an), *zb = gz(b, strlen(b), 1, &bn);
    unsigned char both[512];
    memcpy(both, za, an);
    memcpy(both + an, zb, bn);
    FILE *f = tmp_with(both, an + bn);
    struct tf_diag d;
    tf_diag_init(&d);
    struct tf_input *in = tf_input_fdopen(fileno(f), "t.json.gz", NULL, &d);
    unsigned char got[128];
    long long n = read_all(in, got, sizeof got, 5);
    TF_CHECK(n == (long long)(strlen(a) + strlen(b)));
    TF_CHECK(n > 0 && memcmp(got, a, strlen(a)) == 0 && memcmp(got + strlen(a), b, strlen(b)) == 0);
    TF_CHECK(!tf_diag_failed(&d));
    tf_input_close(in);
    fclose(f);
    /* Garbage after a member is an error, not silently dropped. */
    memcpy(both + an, "xyz", 3);
    f = tmp_with(both, an + 3);
    tf_diag_init(&d);
    in = tf_input_fdopen(fileno(f), "t.json.gz", NULL, &d);
    TF_CHECK(read_all(in, got, sizeof got, 64) == -1);
    TF_CHECK(strstr(d.msg, "t.json.gz: gzip: invalid compressed data (") == d.msg);
    tf_input_close(in);
    fclose(f);
    free(za);
    free(zb);
}

TF_TEST(input_truncated_and_corrupt_gzip)
{
    size_t n = 200000;
    char *data = text_data(n);
    size_t zn;
    unsigned char *z = gz(data, n, 6, &zn);
    unsigned char *got = malloc(n + 100);
    struct tf_diag d;

    /* Truncated: what was there is read, then one located line (the
     * same with the reader thread: see input_truncated_threaded). */
    FILE *f = tmp_with(z, zn / 2);
    tf_diag_init(&d);
    struct tf_input *in = tf_input_fdopen(fileno(f), "t.json.gz", NULL, &d);
    TF_CHECK(read_all(in, got, n + 100, 4096) == -1);
    TF_CHECK(strstr(d.msg, "t.json.gz: gzip: unexpected end of file after ") == d.msg);
    TF_CHECK(strstr(d.msg, " bytes of JSON") != NULL);
    unsigned long long after = strtoull(d.msg + strlen("t.json.gz: gzip: unexpected end of file after "),
                                        NULL, 10);
    TF_CHECK(after > 0 && after < n && after == tf_input_offset(in));
    TF_CHECK(memcmp(got, data, (size_t)after) == 0);
    TF_CHECK(tf_input_read(in, got, 10) == -1); /* and it stays failed */
    tf_input_close(in);
    fclose(f);

    /* Just the magic bytes. */
    f = tmp_with("\x1f\x8b", 2);
    tf_diag_init(&d);
    in = tf_input_fdopen(fileno(f), "t.json.gz", NULL, &d);
    TF_CHECK(tf_input_read(in, got, 10) == -1);
    TF_CHECK_STR(d.msg, "t.json.gz: gzip: unexpected end of file after 0 bytes of JSON");
    tf_input_close(in);
    fclose(f);

    /* Corrupt: a damaged block, or a damaged checksum. */
    unsigned char *bad = malloc(zn);
    memcpy(bad, z, zn);
    for (size_t i = zn / 2; i < zn / 2 + 64; i++)
        bad[i] ^= 0x5a;
    f = tmp_with(bad, zn);
    tf_diag_init(&d);
    in = tf_input_fdopen(fileno(f), "t.json.gz", NULL, &d);
    TF_CHECK(read_all(in, got, n + 100, 4096) == -1);
    TF_CHECK(strstr(d.msg, "t.json.gz: gzip: invalid compressed data (") == d.msg);
    TF_CHECK(strstr(d.msg, ") at compressed byte ") != NULL);
    tf_input_close(in);
    fclose(f);
    memcpy(bad, z, zn);
    bad[zn - 6] ^= 1; /* CRC-32 */
    f = tmp_with(bad, zn);
    tf_diag_init(&d);
    in = tf_input_fdopen(fileno(f), "t.json.gz", NULL, &d);
    TF_CHECK(read_all(in, got, n + 100, 4096) == -1);
    char want[128];
    snprintf(want, sizeof want,
             "t.json.gz: gzip: invalid compressed data (incorrect data check) at compressed byte %zu",
             zn - 4);
    TF_CHECK_STR(d.msg, want);
    tf_input_close(in);
    fclose(f);
    free(bad);
    free(got);
    free(z);
    free(data);
}

/* With the reader thread, the same bytes and the same error at the same
 * place, whatever the reads' sizes. */
TF_TEST(input_truncated_threaded)
{
    size_t n = 3000000;
    char *data = text_data(n);
    size_t zn;
    unsigned char *z = gz(data, n, 6, &zn);
    unsigned char *got = malloc(n + 100);
    char msgs[2][1024];
    long long counts[2];
    for (int th = 0; th < 2; th++) {
        FILE *f = tmp_with(z, zn * 2 / 3);
        struct tf_diag d;
        tf_diag_init(&d);
        struct tf_input_opts o = {.thread = th};
        struct tf_input *in = tf_input_fdopen(fileno(f), "t.json.gz", &o, &d);
        counts[th] = read_all(in, got, n + 100, th ? 3333 : 65536);
        snprintf(msgs[th], sizeof msgs[th], "%s", d.msg);
        TF_CHECK(memcmp(got, data, tf_input_offset(in)) == 0);
        tf_input_close(in);
        fclose(f);
    }
    TF_CHECK(counts[0] == -1 && counts[1] == -1);
    TF_CHECK(strstr(msgs[0], "gzip: unexpected end of file after ") != NULL);
    TF_CHECK_STR(msgs[1], msgs[0]);
    free(got);
    free(z);
    free(data);
}

/* Seeks to many places, back and forth, with checkpoints every 64 KB (at
 * most 6, so they are thinned), and rereads without moving. */
static void count_bytes(void *ctx, const unsigned char *p, size_t n)
{
    unsigned long long *sum = ctx;
    for (size_t i = 0; i < n; i++)
        *sum += p[i];
}

TF_TEST(input_seek_across_checkpoints)
{
    size_t n = 3u << 20;
    char *data = text_data(n);
    size_t zn;
    unsigned char *z = gz(data, n, 6, &zn);
    unsigned char *got = malloc(n + 1);
    for (int th = 0; th < 2; th++) {
        FILE *f = tmp_with(z, zn);
        struct tf_diag d;
        tf_diag_init(&d);
        struct tf_input_opts o = {.checkpoint_every = 64 << 10, .max_checkpoints = 6, .thread = th};
        struct tf_input *in = tf_input_fdopen(fileno(f), "t.json.gz", &o, &d);
        /* To the end, so the thread (if any) is done with the checkpoints. */
        TF_CHECK(read_all(in, got, n + 1, 65536) == (long long)n && memcmp(got, data, n) == 0);
        TF_CHECK(tf_input_n_checkpoints(in) >= 3 && tf_input_n_checkpoints(in) <= 6);
        unsigned long long x = 12345;
        for (int i = 0; i < 40; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            size_t at = (size_t)(x % n), len = 1 + (size_t)((x >> 32) % 5000);
            if (at + len > n)
                len = n - at;
            if (!tf_input_seek(in, at) || tf_input_offset(in) != at) {
                TF_CHECK(!"seek");
                break;
            }
            if (read_all(in, got, len, len) != (long long)len || memcmp(got, data + at, len) != 0) {
                tf_test_failf(__FILE__, __LINE__, "seek to %zu, %zu bytes", at, len);
                break;
            }
        }
        /* A reread does not move the position. */
        TF_CHECK(tf_input_seek(in, 1000));
        unsigned long long sum = 0, want = 0;
        TF_CHECK(tf_input_reread(in, 2000000, 2100000, count_bytes, &sum));
        count_bytes(&want, (const unsigned char *)data + 2000000, 100000);
        TF_CHECK(sum == want);
        TF_CHECK(tf_input_read(in, got, 10) == 10 && memcmp(got, data + 1000, 10) == 0);
        TF_CHECK(!tf_diag_failed(&d));
        tf_input_close(in);
        fclose(f);
    }
    free(got);
    free(z);
    free(data);
}

/* Standard input through a pipe: plain or gzip'd; unspooled it cannot go
 * back, spooled it can. */
TF_TEST(input_pipes_and_spooling)
{
    size_t n = 500000;
    char *data = text_data(n);
    size_t zn;
    unsigned char *z = gz(data, n, 6, &zn);
    unsigned char *got = malloc(n);
    for (int kind = 0; kind < 8; kind++) {
        bool gzip = kind & 1, spool = kind & 2;
        pid_t child;
        void *owned[] = {data, z, got, NULL};
        int fd = gzip ? pipe_with(z, zn, &child, owned) : pipe_with(data, n, &child, owned);
        struct tf_diag d;
        tf_diag_init(&d);
        struct tf_input_opts o = {.spool = spool, .checkpoint_every = 100000, .thread = kind & 4};
        struct tf_input *in = tf_input_fdopen(fd, "<stdin>", &o, &d);
        TF_CHECK(in && tf_input_is_gzip(in) == gzip && tf_input_can_seek(in) == spool);
        TF_CHECK(read_all(in, got, n, 10000) == (long long)n && memcmp(got, data, n) == 0);
        if (spool) {
            TF_CHECK(tf_input_seek(in, 7) && tf_input_read(in, got, 5) == 5);
            TF_CHECK(memcmp(got, data + 7, 5) == 0);
            TF_CHECK(tf_input_seek(in, 250001) && tf_input_read(in, got, 50) == 50);
            TF_CHECK(memcmp(got, data + 250001, 50) == 0);
            unsigned long long sum = 0, want = 0;
            TF_CHECK(tf_input_reread(in, 0, n, count_bytes, &sum));
            count_bytes(&want, (const unsigned char *)data, n);
            TF_CHECK(sum == want);
            TF_CHECK(!tf_diag_failed(&d));
        } else {
            TF_CHECK(!tf_input_seek(in, 7));
            TF_CHECK_STR(d.msg, "<stdin>: cannot seek: Illegal seek");
        }
        tf_input_close(in);
        pipe_done(fd, child);
    }
    /* Empty and one-byte pipes are plain. */
    for (size_t k = 0; k < 2; k++) {
        pid_t child;
        void *owned[] = {data, z, got, NULL};
        int fd = pipe_with("\x1f", k, &child, owned);
        struct tf_diag d;
        tf_diag_init(&d);
        struct tf_input *in = tf_input_fdopen(fd, "<stdin>", NULL, &d);
        TF_CHECK(in && !tf_input_is_gzip(in));
        TF_CHECK(read_all(in, got, 10, 10) == (long long)k);
        tf_input_close(in);
        pipe_done(fd, child);
    }
    free(got);
    free(z);
    free(data);
}

/* 64 MB of zeros in about 64 KB: read in constant memory, with a bounded
 * number of checkpoints; the scanner stops at its first byte. */
TF_TEST(input_bomb_of_zeros_stays_bounded)
{
    size_t n = 64u << 20;
    unsigned char *zeros = calloc(n, 1);
    size_t zn;
    unsigned char *z = gz(zeros, n, 9, &zn);
    free(zeros);
    TF_CHECK(z && zn < n / 500);
    FILE *f = tmp_with(z, zn);
    struct tf_diag d;
    tf_diag_init(&d);
    struct tf_input_opts o = {.checkpoint_every = 256 << 10, .max_checkpoints = 4};
    struct tf_input *in = tf_input_fdopen(fileno(f), "bomb.gz", &o, &d);
    unsigned char buf[1 << 16];
    unsigned long long total = 0;
    size_t most = 0;
    for (ssize_t r; (r = tf_input_read(in, buf, sizeof buf)) > 0;) {
        total += (unsigned long long)r;
        if (tf_input_n_checkpoints(in) > most)
            most = tf_input_n_checkpoints(in);
    }
    TF_CHECK(total == n && most <= 4 && !tf_diag_failed(&d));
    TF_CHECK(tf_input_seek(in, n - 10) && tf_input_read(in, buf, 100) == 10);
    tf_input_close(in);

    rewind(f);
    tf_diag_init(&d);
    in = tf_input_fdopen(fileno(f), "bomb.gz", &o, &d);
    struct tf_scan s;
    enum tf_jtok k;
    TF_CHECK(tf_scan_init(&s, in, "bomb.gz", 0, TF_SCAN_STRICT, &d) && !tf_scan_begin(&s, &k));
    TF_CHECK_STR(d.msg, "bomb.gz:1:1: '[' or '{' expected near end of file");
    tf_scan_fini(&s);
    tf_input_close(in);
    fclose(f);
    free(z);
}

/* A syntax error far into a gzip'd document is located as in the plain
 * document: the lazy position count rereads the decompressed bytes. */
TF_TEST(input_scan_gzip_errors_located_as_plain)
{
    size_t n_el = 40000;
    char *doc = malloc(n_el * 48 + 64);
    size_t n = (size_t)sprintf(doc, "{\"traceEvents\": [\n");
    for (size_t i = 0; i < n_el; i++)
        n += (size_t)sprintf(doc + n, "  {\"ph\": \"X\", \"ts\": %zu, \"n\": \"\xc3\xa9\"}%s\n", i,
                             i + 1 < n_el ? "," : "");
    n += (size_t)sprintf(doc + n, "], \"x\": [1 2]}\n");
    size_t zn;
    unsigned char *z = gz(doc, n, 6, &zn);
    char msgs[4][1024];
    for (int kind = 0; kind < 4; kind++) {
        FILE *f = kind == 0 ? tmp_with(doc, n) : tmp_with(z, zn);
        struct tf_diag d;
        tf_diag_init(&d);
        struct tf_input_opts o = {.checkpoint_every = kind >= 2 ? 100000 : 0, .thread = kind == 3};
        struct tf_input *in = tf_input_fdopen(fileno(f), "t.json", &o, &d);
        struct tf_scan s;
        enum tf_jtok k;
        bool ok = tf_scan_init(&s, in, "t.json", kind == 2 ? 777 : 0, TF_SCAN_STRICT, &d) &&
                  tf_scan_begin(&s, &k);
        for (bool more = ok; ok && more;) {
            char key[16];
            size_t kl;
            ok = tf_scan_key(&s, key, sizeof key, &kl, &more);
            if (ok && more)
                ok = tf_scan_skip(&s);
        }
        TF_CHECK(!ok);
        snprintf(msgs[kind], sizeof msgs[kind], "%s", d.msg);
        tf_scan_fini(&s);
        tf_input_close(in);
        fclose(f);
    }
    TF_CHECK(strstr(msgs[0], "t.json:40002:") == msgs[0]);
    TF_CHECK_STR(msgs[1], msgs[0]);
    TF_CHECK_STR(msgs[2], msgs[0]);
    TF_CHECK_STR(msgs[3], msgs[0]);
    free(z);
    free(doc);
}

/* A bomb of one endless string: the scanner stops at its buffer limit with
 * a located message, in constant memory, read whole or skipped. */
TF_TEST(input_bomb_of_one_string_stops_at_the_limit)
{
    size_t n = 8u << 20;
    char *doc = malloc(n);
    memset(doc, 'a', n);
    const char *head = "{\"x\": 1,\n \"traceEvents\": [\"";
    memcpy(doc, head, strlen(head));
    size_t zn;
    unsigned char *z = gz(doc, n, 6, &zn);
    free(doc);
    for (int whole = 0; whole < 2; whole++) {
        FILE *f = tmp_with(z, zn);
        struct tf_diag d;
        tf_diag_init(&d);
        struct tf_input *in = tf_input_fdopen(fileno(f), "bomb.gz", NULL, &d);
        struct tf_scan s;
        enum tf_jtok k;
        char key[16];
        size_t kl;
        bool more;
        const unsigned char *data;
        size_t len;
        TF_CHECK(tf_scan_init(&s, in, "bomb.gz", 1 << 16, TF_SCAN_LENIENT, &d));
        s.max_buffer = 1 << 20;
        TF_CHECK(tf_scan_begin(&s, &k) && tf_scan_key(&s, key, sizeof key, &kl, &more));
        TF_CHECK(tf_scan_skip(&s) && tf_scan_key(&s, key, sizeof key, &kl, &more));
        TF_CHECK(tf_scan_enter(&s) && tf_scan_next(&s, &more) && more);
        TF_CHECK(!(whole ? tf_scan_value(&s, &data, &len, NULL, 0) : tf_scan_skip(&s)));
        TF_CHECK_STR(d.msg, "bomb.gz:2:17: value too large to scan (more than 1 MiB)");
        TF_CHECK(s.cap <= 1 << 20);
        tf_scan_fini(&s);
        tf_input_close(in);
        fclose(f);
    }
    free(z);
}

/* Reads all of f (threaded or not) under TRACEFIG_INFLATE=`inflater` (NULL:
 * unset): the bytes into got, the count or -1, the message into msg. */
static long long read_with(FILE *f, const char *inflater, bool thread, unsigned char *got,
                           size_t cap, char *msg, size_t msg_cap)
{
    if (inflater)
        setenv("TRACEFIG_INFLATE", inflater, 1);
    else
        unsetenv("TRACEFIG_INFLATE");
    rewind(f);
    struct tf_diag d;
    tf_diag_init(&d);
    struct tf_input_opts o = {.thread = thread, .checkpoint_every = 50000};
    struct tf_input *in = tf_input_fdopen(fileno(f), "t.json.gz", &o, &d);
    long long n = in ? read_all(in, got, cap, 7001) : -2;
    snprintf(msg, msg_cap, "%s", d.msg);
    tf_input_close(in);
    unsetenv("TRACEFIG_INFLATE");
    return n;
}

/* Whichever inflater runs (ISA-L when built with it, else zlib both
 * times), damaged and cut-off streams give zlib's bytes and messages:
 * random byte changes, cuts at every region, a second member, garbage
 * after the last member. */
TF_TEST(input_isal_and_zlib_agree)
{
    size_t n = 300000;
    char *data = text_data(n);
    size_t zn, zn2;
    unsigned char *z = gz(data, n / 3, 6, &zn);
    unsigned char *z2 = gz(data + n / 3, n - n / 3, 1, &zn2);
    size_t all = zn + zn2 + 8;
    unsigned char *two = malloc(all), *bad = malloc(all);
    memcpy(two, z, zn);
    memcpy(two + zn, z2, zn2);
    memcpy(two + zn + zn2, "garbage!", 8);
    unsigned char *a = malloc(n + 100), *b = malloc(n + 100);
    char ma[1100], mb[1100];
    unsigned long long x = 1234567;
    for (int k = 0; k < 48; k++) {
        size_t len = k < 16 ? zn + zn2 : k < 20 ? all : (size_t)(x % (zn + zn2));
        memcpy(bad, two, all);
        for (int j = 0; k < 16 && j <= k % 3; j++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            bad[x % len] ^= (unsigned char)(1 + x % 255);
        }
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        FILE *f = tmp_with(bad, len);
        for (int th = 0; th < 2; th++) {
            long long na = read_with(f, NULL, th, a, n + 100, ma, sizeof ma);
            long long nb = read_with(f, "zlib", th, b, n + 100, mb, sizeof mb);
            TF_CHECK(na == nb);
            TF_CHECK_STR(ma, mb);
            TF_CHECK(na < 0 || memcmp(a, b, (size_t)na) == 0);
        }
        fclose(f);
    }
    free(a);
    free(b);
    free(bad);
    free(two);
    free(z);
    free(z2);
    free(data);
}
