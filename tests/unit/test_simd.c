/* test_simd.c - the scanner's kernels (scan_simd.h): every instruction set
 * this CPU has gives the portable loops' results, byte for byte, on random
 * bytes at every offset and on the edge cases of each kernel; and a whole
 * scan (values located, errors located) is the same under each set. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "harness.h"
#include "load/input.h"
#include "load/scan.h"
#include "load/scan_simd.h"

enum { AREA = 4096, PAD = 64 };

static unsigned long long rnd_state = 0x9E3779B97F4A7C15ull;

static unsigned rnd(void)
{
    rnd_state ^= rnd_state << 13, rnd_state ^= rnd_state >> 7, rnd_state ^= rnd_state << 17;
    return (unsigned)(rnd_state >> 11);
}

/* Bytes drawn from `alpha` (its bytes, or any byte with NULL), with a NUL
 * sentinel at AREA and PAD defined bytes after it, as the scanner's
 * buffer has. */
static void fill(unsigned char *b, const char *alpha, size_t n_alpha)
{
    for (size_t i = 0; i < AREA; i++)
        b[i] = alpha ? (unsigned char)alpha[rnd() % n_alpha] : (unsigned char)rnd();
    b[AREA] = 0;
    for (size_t i = AREA + 1; i < AREA + 1 + PAD; i++)
        b[i] = (unsigned char)rnd();
}

TF_TEST(simd_portable_always_there)
{
    const struct tf_scan_kernels *p = tf_scan_kernels_of(TF_SIMD_PORTABLE);
    TF_CHECK(p && p->level == TF_SIMD_PORTABLE);
    TF_CHECK_STR(p->name, "portable");
    TF_CHECK(tf_scan_kernels() != NULL);
    /* Every set, where there, is what it says. */
    for (int l = 0; l < TF_SIMD_N; l++) {
        const struct tf_scan_kernels *k = tf_scan_kernels_of((enum tf_simd)l);
        TF_CHECK(!k || (int)k->level == l);
    }
    setenv("TRACEFIG_SIMD", "portable", 1);
    TF_CHECK(tf_scan_kernels() == p);
    setenv("TRACEFIG_SIMD", "no-such-set", 1);
    TF_CHECK(tf_scan_kernels() == p);
    unsetenv("TRACEFIG_SIMD");
}

/* Each kernel of each set against the portable one, at every offset of
 * random areas drawn from alphabets that make each kernel stop often. */
TF_TEST(simd_kernels_match_portable)
{
    static const char str[] = "abc \"\\\x01\x1f\x7f\x80\xff\x20\x21xyz0";
    static const char dig[] = "0123456789/:9.-e";
    static const char ws[] = "  \n\r\t\t\x0b\x0c!  ";
    static const char num[] = "0123456789.-+eE,]}x\x80 ";
    const struct tf_scan_kernels *p = tf_scan_kernels_of(TF_SIMD_PORTABLE);
    unsigned char *b = malloc(AREA + 1 + PAD);
    size_t n_sets = 0, diffs = 0;
    for (int l = 1; l < TF_SIMD_N; l++) {
        const struct tf_scan_kernels *k = tf_scan_kernels_of((enum tf_simd)l);
        if (!k)
            continue;
        n_sets++;
        for (int round = 0; round < 40; round++) {
            int which = round % 5;
            if (which == 0)
                fill(b, str, sizeof str - 1);
            else if (which == 1)
                fill(b, dig, sizeof dig - 1);
            else if (which == 2)
                fill(b, ws, sizeof ws - 1);
            else if (which == 3)
                fill(b, num, sizeof num - 1);
            else
                fill(b, NULL, 0);
            for (size_t i = 0; i <= AREA; i++) {
                diffs += k->plain_run(b + i) != p->plain_run(b + i);
                diffs += k->digit_run(b + i) != p->digit_run(b + i);
                diffs += k->ws_run(b + i) != p->ws_run(b + i);
                for (int len = 0; len < 2; len++) {
                    bool ia = false, ib = false;
                    size_t na = k->number_len(b + i, len, &ia), nb = p->number_len(b + i, len, &ib);
                    diffs += na != nb || (na && ia != ib);
                }
            }
        }
        /* Long runs that cross several vectors, ended by the sentinel. */
        memset(b, 'a', AREA);
        diffs += k->plain_run(b) != AREA || k->plain_run(b + 1) != AREA - 1;
        memset(b, '7', AREA);
        diffs += k->digit_run(b + 3) != AREA - 3;
        memset(b, ' ', AREA);
        diffs += k->ws_run(b + 5) != AREA - 5;
    }
    TF_CHECK(diffs == 0);
    if (diffs)
        printf("  %zu differences over %zu sets\n", diffs, n_sets);
    free(b);
}

/* Numbers: the forms number_len takes and those it leaves to the
 * general path, the same under every set. */
TF_TEST(simd_number_len_cases)
{
    static const struct {
        const char *text;
        size_t len; /* strict */
        bool is_int;
    } cases[] = {
        {"0,", 1, true},           {"-0}", 2, true},         {"12.5]", 4, false},
        {"007,", 0, false},        {"1.,", 0, false},        {"-.5,", 0, false},
        {"1e5,", 0, false},        {"1.2.3,", 0, false},     {"123456789012345678,", 18, true},
        {"1234567890123456789,", 0, false},                  {"1718357708060118.811,", 20, false},
        {"1.0000000000000000000000000000000000001,", 39, false},
        {"12345678901234567890123456789012345678901234567890123456789012345.5 ", 67, false},
        {"5", 0, false}, /* then the sentinel: the general path decides */
        {"5\x80", 0, false},       {"-", 0, false},          {"3 ", 1, true},
    };
    char buf[256];
    for (int l = 0; l < TF_SIMD_N; l++) {
        const struct tf_scan_kernels *k = tf_scan_kernels_of((enum tf_simd)l);
        if (!k)
            continue;
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            memset(buf, 0, sizeof buf);
            memcpy(buf, cases[i].text, strlen(cases[i].text));
            bool is_int = !cases[i].is_int;
            size_t n = k->number_len((const unsigned char *)buf, false, &is_int);
            if (n != cases[i].len || (n && is_int != cases[i].is_int))
                printf("  %s: %s: %zu\n", k->name, cases[i].text, n);
            TF_CHECK(n == cases[i].len && (!n || is_int == cases[i].is_int));
        }
    }
}

/* A document scanned element by element, each read whole with members
 * located: a line per element ("OK" with the members' places, or the
 * error), the same under each set and each chunk size. */
static void scan_record(const char *doc, size_t chunk, unsigned mode, struct tf_buf *out)
{
    FILE *f = tmpfile();
    fwrite(doc, 1, strlen(doc), f);
    fflush(f);
    rewind(f);
    struct tf_diag d;
    tf_diag_init(&d);
    struct tf_input *in = tf_input_fdopen(fileno(f), "t.json", NULL, &d);
    struct tf_scan s;
    bool ok = in && tf_scan_init(&s, in, "t.json", chunk, mode, &d);
    enum tf_jtok k;
    ok = ok && tf_scan_begin(&s, &k) && k == TF_JT_ARRAY;
    while (ok) {
        bool more;
        ok = tf_scan_next(&s, &more);
        if (!ok || !more)
            break;
        struct tf_scan_field fl[4] = {{.name = "ph"}, {.name = "name"}, {.name = "ts"},
                                      {.name = "args"}};
        const unsigned char *data;
        size_t len;
        ok = tf_scan_value(&s, &data, &len, fl, 4);
        if (ok) {
            tf_buf_printf(out, "%zu:", len);
            for (int i = 0; i < 4; i++)
                tf_buf_printf(out, " %d@%zu+%zu%c%c", (int)fl[i].type, fl[i].off, fl[i].len,
                              fl[i].escaped ? 'e' : '-', fl[i].is_int ? 'i' : '-');
            tf_buf_printf(out, "\n");
        }
    }
    ok = ok && tf_scan_finish(&s);
    tf_buf_printf(out, "%s\n", ok ? "OK" : d.msg);
    if (in)
        tf_scan_fini(&s);
    tf_input_close(in);
    fclose(f);
}

TF_TEST(simd_whole_scans_agree)
{
    static const char *const docs[] = {
        "[{\"ph\": \"X\", \"name\": \"aten::mm\", \"ts\": 1718357708060118.811, \"dur\": 6.7,"
        "\n    \"args\": {\"External id\": 5, \"Input Dims\": [[2048, 4096], []]}},\n"
        "  {\"ph\":\"B\",\"name\":\"k\\u00e9\",\"ts\":12,\"args\":{}}, {\"ts\": 1e3},"
        " {\"name\": \"caf\xc3\xa9\", \"ts\": -0.5, \"ph\": null, \"args\": [true, false]}]",
        "[{\"ph\": \"X\", \"ph\": \"Y\"}]",                 /* a duplicate key */
        "[{\"name\": \"a\tb\"}]",                          /* a control character */
        "[{\"ts\": 0123}]",                                 /* a leading zero */
        "[{\"ts\": 99999999999999999999}]",                 /* too big */
        "[{\"name\": \"\xc3\x28\"}]",                       /* bad UTF-8 */
        "[{\"a\": [1, 2,]}]",                               /* trailing comma */
        "[{\"a\": {\"b\": [[[[{\"c\": \"d\"}]]]]}}, {\"ph\": \"i\", \"ts\": 1.25 }\n\t\r ]",
        "[{\"ph\": \"X\" , \"name\" :\"n\",\"ts\":1}, {\"ph\": \"X\"",  /* cut off */
    };
    size_t chunks[] = {0, 1, 7, 64};
    for (size_t di = 0; di < sizeof docs / sizeof docs[0]; di++) {
        for (unsigned mode = 0; mode < 2; mode++) {
            struct tf_buf ref;
            tf_buf_init(&ref);
            setenv("TRACEFIG_SIMD", "portable", 1);
            scan_record(docs[di], 0, mode, &ref);
            for (int l = 0; l < TF_SIMD_N; l++) {
                const struct tf_scan_kernels *k = tf_scan_kernels_of((enum tf_simd)l);
                for (size_t ci = 0; k && ci < sizeof chunks / sizeof chunks[0]; ci++) {
                    struct tf_buf got;
                    tf_buf_init(&got);
                    setenv("TRACEFIG_SIMD", k->name, 1);
                    scan_record(docs[di], chunks[ci], mode, &got);
                    bool eq = got.len == ref.len && memcmp(got.data, ref.data, got.len) == 0;
                    if (!eq)
                        printf("  doc %zu mode %u %s chunk %zu:\n%s--- portable:\n%s", di, mode,
                               k->name, chunks[ci], got.data, ref.data);
                    TF_CHECK(eq);
                    tf_buf_fini(&got);
                }
            }
            tf_buf_fini(&ref);
        }
    }
    unsetenv("TRACEFIG_SIMD");
}
