/* jsonlite: numbers as exact fixed point (the Chrome loader's ts and dur,
 * microseconds to nanoseconds), strings decoded, members found. */
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
