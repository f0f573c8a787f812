/* jsonlite: numbers as exact fixed point (the Chrome loader's ts and dur,
 * microseconds to nanoseconds), strings decoded, members found. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonlite.h"
#include "harness.h"

static bool fixed(const char *s, int scale, int64_t *v)
{
    return tf_jl_fixed((const unsigned char *)s, strlen(s), scale, v);
}

TF_TEST(jl_fixed_exact_and_rounded)
{
    int64_t v = 0;
    TF_CHECK(fixed("12", 3, &v) && v == 12000);
    TF_CHECK(fixed("-12.5", 3, &v) && v == -12500);
    TF_CHECK(fixed("0.0004", 3, &v) && v == 0);
    TF_CHECK(fixed("1.0005", 3, &v) && v == 1001);   /* half away from zero */
    TF_CHECK(fixed("-1.0005", 3, &v) && v == -1001);
    TF_CHECK(fixed("1.00049", 3, &v) && v == 1000);
    TF_CHECK(fixed("1682725897235145", 3, &v) && v == 1682725897235145000);
    TF_CHECK(fixed("1682725897235145.123", 3, &v) && v == 1682725897235145123);
    TF_CHECK(fixed("1682725897235145.1235", 3, &v) && v == 1682725897235145124);
    TF_CHECK(fixed("9223372036854775.807", 3, &v) && v == INT64_MAX);
    TF_CHECK(!fixed("9223372036854775.808", 3, &v));
    TF_CHECK(!fixed("9223372036854776", 3, &v));
    TF_CHECK(fixed("1.5e3", 3, &v) && v == 1500000);
    TF_CHECK(fixed("2E-3", 3, &v) && v == 2);
    TF_CHECK(fixed("0.000000000000000000001", 3, &v) && v == 0);
    TF_CHECK(fixed("00012.30000000000000000000", 3, &v) && v == 12300);
    TF_CHECK(fixed("-0", 3, &v) && v == 0);
    TF_CHECK(fixed("7", 0, &v) && v == 7);
    TF_CHECK(!fixed("-", 3, &v));
    /* Runs of eight digits, read at once, on both sides of the dot. */
    TF_CHECK(fixed("12345678.12345678", 8, &v) && v == 1234567812345678);
    TF_CHECK(fixed("1234567.812345678", 9, &v) && v == 1234567812345678);
    TF_CHECK(fixed("-0.12345678", 8, &v) && v == -12345678);
    TF_CHECK(fixed("0.123456789", 8, &v) && v == 12345679);
    TF_CHECK(fixed("123456781234567812", 0, &v) && v == 123456781234567812);
    TF_CHECK(fixed("9999999999999999999", 0, &v) == false);
    TF_CHECK(fixed("99999999.99999999", 2, &v) && v == 10000000000);
}

/* The common forms digit by digit: [-]digits[.digits], at most 19 digits
 * in all, scaled and rounded half away from zero; false for anything else
 * (which tf_jl_fixed decomposes: not checked here). */
static bool ref_fixed(const char *s, size_t n, int scale, int64_t *out)
{
    size_t i = n && s[0] == '-', digits = 0;
    int frac = -1;
    uint64_t m = 0;
    for (; i < n; i++) {
        if (s[i] == '.' && frac < 0) {
            frac = 0;
            continue;
        }
        if (s[i] < '0' || s[i] > '9' || ++digits > 19)
            return false;
        m = m * 10 + (uint64_t)(s[i] - '0');
        if (frac >= 0)
            frac++;
    }
    if (frac < 0)
        frac = 0;
    if (digits == 0 || frac - scale > 18 || (n && s[n - 1] == '.'))
        return false;
    if (frac <= scale) {
        for (int k = 0; k < scale - frac; k++) {
            if (m > (uint64_t)INT64_MAX / 10)
                return false;
            m *= 10;
        }
    } else {
        uint64_t p = 1;
        for (int k = 0; k < frac - scale; k++)
            p *= 10;
        uint64_t q = m / p, r = m % p;
        m = q + (r >= p - r ? 1 : 0);
    }
    if (m > (uint64_t)INT64_MAX)
        return false;
    *out = n && s[0] == '-' ? -(int64_t)m : (int64_t)m;
    return true;
}

/* tf_jl_fixed (its digits read eight at a time where there are eight)
 * against the reference on random numbers of every length, with the dot
 * anywhere, each in a buffer of its own exact size (ASan sees a read past
 * it). */
TF_TEST(jl_fixed_matches_digit_reference)
{
    uint64_t seed = 42;
    size_t failures = 0;
    for (int t = 0; t < 200000 && failures < 5; t++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        uint64_t r = seed >> 11;
        char text[48];
        size_t n = 0;
        if (r & 1)
            text[n++] = '-';
        size_t ints = (r >> 1) % 21, frac = (r >> 6) % 21;
        bool dot = (r >> 11) & 1;
        for (size_t k = 0; k < ints + (dot ? 1 + frac : 0); k++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            unsigned d = (unsigned)(seed >> 33) % 13;
            text[n++] = (char)(d >= 10 ? (d == 10 ? '9' : '0') : '0' + d);
        }
        if (dot)
            text[(r & 1) + ints] = '.';
        if (((r >> 12) & 15) == 0 && n) /* now and then a byte no number has */
            text[(r >> 16) % n] = "eE+-.x 9"[(r >> 20) % 8];
        if (n == 0)
            continue;
        int scale = (int)((r >> 24) % 19);
        char *heap = malloc(n);
        memcpy(heap, text, n);
        int64_t want = 0, got = 0;
        bool ref = ref_fixed(heap, n, scale, &want);
        bool ok = tf_jl_fixed((const unsigned char *)heap, n, scale, &got);
        if (ref && (!ok || got != want)) {
            failures++;
            fprintf(stderr, "jl_fixed: \"%.*s\" at scale %d: %lld, want %lld\n", (int)n, text,
                    scale, (long long)got, (long long)want);
        }
        free(heap);
    }
    TF_CHECK(failures == 0);
}

TF_TEST(jl_string_and_members)
{
    struct tf_buf b;
    tf_buf_init(&b);
    const char *raw = "caf\\u00e9 \\u2192 \\\"x\\\"\\t\\ud83d\\ude00";
    tf_jl_string((const unsigned char *)raw, strlen(raw), &b);
    TF_CHECK_STR(b.data, "caf\xC3\xA9 \xE2\x86\x92 \"x\"\t\xF0\x9F\x98\x80");
    tf_buf_fini(&b);
    const char *obj = "{\"a\": {\"name\": 1}, \"name\" : \"top\", \"n\": [1, {\"name\": 2}]}";
    size_t n = 0;
    const unsigned char *v = tf_jl_get((const unsigned char *)obj, strlen(obj), "name", &n);
    TF_CHECK(v && n == 5 && memcmp(v, "\"top\"", 5) == 0);
    TF_CHECK(tf_jl_get((const unsigned char *)obj, strlen(obj), "missing", &n) == NULL);
}
