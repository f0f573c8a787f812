/* Number formatting and escaping: the bytes every back-end writes. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/escape.h"
#include "base/num.h"
#include "harness.h"

static const char *num(double v, int dec)
{
    static char buf[TF_NUM_MAX];
    return tf_fmt_num(buf, v, dec);
}

TF_TEST(fmt_num_trims_zeros_and_point)
{
    TF_CHECK_STR(num(1.5, 3), "1.5");
    TF_CHECK_STR(num(200.00000000000003, 3), "200");
    TF_CHECK_STR(num(0.86035, 3), "0.86");
    TF_CHECK_STR(num(123456789.125, 3), "123456789.125");
    TF_CHECK_STR(num(7, 0), "7");
}

TF_TEST(fmt_num_never_negative_zero_or_exponent)
{
    TF_CHECK_STR(num(-0.0, 3), "0");
    TF_CHECK_STR(num(-0.0001, 3), "0");
    TF_CHECK_STR(num(1e-5, 3), "0");
    TF_CHECK_STR(num(1e15, 3), "1000000000000000");
    TF_CHECK_STR(num(-2.5, 3), "-2.5");
}

TF_TEST(fmt_num_rejects_non_finite)
{
    TF_CHECK_STR(num(NAN, 3), "0");
    TF_CHECK_STR(num(INFINITY, 3), "0");
    TF_CHECK_STR(num(1e308, 3)[0] == '1' ? "ok" : "bad", "ok");
}

TF_TEST(fmt_color_is_upper_hex)
{
    char c[8];
    TF_CHECK_STR(tf_fmt_color(c, 0xB8B8B8), "#B8B8B8");
    TF_CHECK_STR(tf_fmt_color(c, 0x004488), "#004488");
}

TF_TEST(buf_grows_and_formats)
{
    struct tf_buf b;
    tf_buf_init(&b);
    for (int i = 0; i < 1000; i++)
        tf_buf_printf(&b, "%d,", i % 10);
    TF_CHECK(b.len == 2000);
    TF_CHECK(!b.oom);
    tf_buf_clear(&b);
    tf_buf_num(&b, 3.14159, 2);
    TF_CHECK_STR(b.data, "3.14");
    tf_buf_fini(&b);
}

TF_TEST(json_string_escapes_controls)
{
    struct tf_buf b;
    tf_buf_init(&b);
    tf_buf_json_str(&b, "a\"b\\c\n\x01");
    TF_CHECK_STR(b.data, "\"a\\\"b\\\\c\\n\\u0001\"");
    tf_buf_clear(&b);
    tf_buf_json_str(&b, "caf\xC3\xA9\x7F\x1f\r\t end");
    TF_CHECK_STR(b.data, "\"caf\xC3\xA9\\u007f\\u001f\\r\\t end\"");
    tf_buf_clear(&b);
    tf_buf_json_str(&b, "");
    TF_CHECK_STR(b.data, "\"\"");
    tf_buf_fini(&b);
}

TF_TEST(json_string_invalid_utf8_as_replacement)
{
    struct tf_buf b;
    tf_buf_init(&b);
    /* a damaged name: FF, a cut C3, a surrogate; a valid U+FFFD kept */
    tf_buf_json_str(&b, "a\xFF\xC3(\xED\xA0\x80" "b\xEF\xBF\xBD");
    TF_CHECK_STR(b.data, "\"a\xEF\xBF\xBD\xEF\xBF\xBD(\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD" "b"
                         "\xEF\xBF\xBD\"");
    tf_buf_clear(&b);
    tf_buf_json_str(&b, "\xC3");
    TF_CHECK_STR(b.data, "\"\xEF\xBF\xBD\"");
    tf_buf_fini(&b);
}

/* Messages are one line of valid UTF-8: invalid bytes as \xNN, controls
 * as '?', a character the cut would split escaped whole. */
TF_TEST(diag_messages_escape_invalid_utf8)
{
    struct tf_diag d;
    tf_diag_init(&d);
    tf_diag_error(&d, TF_EBADINPUT, "x.otf2: region \"%s\"", "\xFF\xC3(NAME\ncaf\xC3\xA9");
    TF_CHECK_STR(d.msg, "x.otf2: region \"\\xFF\\xC3(NAME?caf\xC3\xA9\"");
    tf_diag_prefix(&d, "dir\xFE");
    TF_CHECK_STR(d.msg, "dir\\xFE: x.otf2: region \"\\xFF\\xC3(NAME?caf\xC3\xA9\"");
    /* a long message cut inside a character: no half character left */
    char big[1100];
    memset(big, 'a', sizeof big);
    memcpy(big + 1020, "\xC3\xA9\xC3\xA9", 4);
    big[sizeof big - 1] = '\0';
    tf_diag_init(&d);
    tf_diag_error(&d, TF_EBADINPUT, "%s", big);
    size_t len = strlen(d.msg);
    TF_CHECK(len < sizeof d.msg && len >= 1016);
    for (size_t i = 0; i < len; i++)
        TF_CHECK((unsigned char)d.msg[i] < 0x80 || (i >= 1020 && i < 1024));
    TF_CHECK(len == 1020 || (len == 1022 && strcmp(d.msg + 1020, "\xC3\xA9") == 0));
}

TF_TEST(tex_escape_specials)
{
    struct tf_buf b;
    tf_buf_init(&b);
    tf_buf_tex_escape(&b, "# $ % & _ { } ~ ^ \\ -- [x]");
    TF_CHECK_STR(b.data, "\\# \\$ \\% \\& \\_ \\{ \\} \\textasciitilde{} \\^{} "
                         "\\textbackslash{} -{}- {[}x{]}");
    tf_buf_clear(&b);
    tf_buf_tex_escape(&b, "a\x01\x1f" "b");
    TF_CHECK_STR(b.data, "ab");
    tf_buf_fini(&b);
}

TF_TEST(xml_clean_replaces_controls_and_bad_utf8)
{
    char *s = tf_xml_clean("ok\x01 \xC3\xA9 \xFF \xE2\x86\x92\tx");
    TF_CHECK_STR(s, "ok\xEF\xBF\xBD \xC3\xA9 \xEF\xBF\xBD \xE2\x86\x92\tx");
    free(s);
    s = tf_xml_clean("\xED\xA0\x80"); /* a UTF-16 surrogate encoded in UTF-8 */
    TF_CHECK_STR(s, "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
    free(s);
    s = tf_xml_clean("");
    TF_CHECK_STR(s, "");
    free(s);
}

TF_TEST(buf_uint_prints_as_llu)
{
    static const unsigned long long v[] = {0,   1,    9,          10,        99,
                                           100, 4294967295ULL, 4294967296ULL,
                                           18446744073709551615ULL};
    struct tf_buf b;
    tf_buf_init(&b);
    char want[32];
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        tf_buf_clear(&b);
        tf_buf_uint(&b, v[i]);
        snprintf(want, sizeof want, "%llu", v[i]);
        TF_CHECK_STR(b.data, want);
    }
    /* after text already there, and from a fresh buffer */
    tf_buf_clear(&b);
    tf_buf_puts(&b, "n=");
    tf_buf_uint(&b, 42);
    TF_CHECK_STR(b.data, "n=42");
    tf_buf_fini(&b);
    tf_buf_uint(&b, 7);
    TF_CHECK_STR(b.data, "7");
    tf_buf_fini(&b);
}

TF_TEST(buf_printf_into_a_fresh_buffer)
{
    struct tf_buf b;
    tf_buf_init(&b);
    tf_buf_printf(&b, "%s", "");
    TF_CHECK(b.data && b.len == 0 && b.data[0] == '\0');
    tf_buf_fini(&b);
    char big[600];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    tf_buf_printf(&b, "<%s>", big); /* longer than the first block */
    TF_CHECK(b.len == sizeof big + 1 && b.data[0] == '<' && b.data[b.len - 1] == '>');
    tf_buf_fini(&b);
}

TF_TEST(xml_clean_view_copies_only_when_it_must)
{
    struct tf_buf scratch;
    tf_buf_init(&scratch);
    static const char *const good[] = {"", "plain", "caf\xC3\xA9 \xE2\x86\x92\ttab\nline\r"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        TF_CHECK(tf_xml_clean_view(good[i], &scratch) == good[i]);
    static const char *const bad[] = {"ok\x01 \xC3\xA9 \xFF \xE2\x86\x92\tx", "\xED\xA0\x80",
                                      "\x7F", "end\xC3", "\xEF\xBF\xBE!",
                                      "\xEF\xBF\xBD kept"}; /* U+FFFD: copied, as it was */
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *want = tf_xml_clean(bad[i]);
        const char *got = tf_xml_clean_view(bad[i], &scratch);
        TF_CHECK(got != bad[i]);
        TF_CHECK_STR(got, want);
        free(want);
    }
    tf_buf_fini(&scratch);
}

TF_TEST(fmt_repr_as_python_prints_floats)
{
    char b[40];
    TF_CHECK_STR(tf_fmt_repr(b, 5.0), "5.0");
    TF_CHECK_STR(tf_fmt_repr(b, 5.5), "5.5");
    TF_CHECK_STR(tf_fmt_repr(b, 0.1), "0.1");
    TF_CHECK_STR(tf_fmt_repr(b, -2.25), "-2.25");
    TF_CHECK_STR(tf_fmt_repr(b, 0.0001), "0.0001");
    TF_CHECK_STR(tf_fmt_repr(b, 0.00001), "1e-05");
    TF_CHECK_STR(tf_fmt_repr(b, 1.5e-7), "1.5e-07");
    TF_CHECK_STR(tf_fmt_repr(b, 1e15), "1000000000000000.0");
    TF_CHECK_STR(tf_fmt_repr(b, 1e16), "1e+16");
    TF_CHECK_STR(tf_fmt_repr(b, 123456789.125), "123456789.125");
    TF_CHECK_STR(tf_fmt_repr(b, 1.7976931348623157e308), "1.7976931348623157e+308");
    TF_CHECK_STR(tf_fmt_repr(b, 1.0 / 3.0), "0.3333333333333333");
}

/* tf_fmt_num against glibc's "%.*f" (trimmed as tf_fmt_num trims): ties,
 * their neighbours, powers of two and ten, subnormals, huge values and
 * random bit patterns, each at every number of decimals.  (The formatter
 * was checked on 1.6e9 pairs when it was written; this keeps it honest.) */
static const char *printf_num(char out[TF_NUM_MAX], double v, int d)
{
    if (!isfinite(v))
        v = 0.0;
    snprintf(out, TF_NUM_MAX, "%.*f", d, v);
    char *p = strchr(out, '.');
    if (p) {
        char *end = out + strlen(out);
        while (end > p + 1 && end[-1] == '0')
            *--end = '\0';
        if (end == p + 1)
            *p = '\0';
    }
    if (strcmp(out, "-0") == 0)
        strcpy(out, "0");
    return out;
}

static size_t num_mismatches;

static void num_against_printf(double v)
{
    double vs[6] = {v, nextafter(v, -HUGE_VAL), nextafter(v, HUGE_VAL)};
    vs[3] = -vs[0], vs[4] = -vs[1], vs[5] = -vs[2];
    for (int k = 0; k < 6; k++)
        for (int d = 0; d <= 9; d++) {
            char want[TF_NUM_MAX], got[TF_NUM_MAX];
            printf_num(want, vs[k], d);
            size_t n = tf_fmt_num_len(got, vs[k], d);
            if ((strcmp(want, got) != 0 || n != strlen(got)) && num_mismatches++ < 5)
                fprintf(stderr, "  tf_fmt_num(%a, %d) = \"%s\", printf says \"%s\"\n", vs[k], d,
                        got, want);
        }
}

TF_TEST(fmt_num_is_printf_exactly)
{
    num_mismatches = 0;
    for (int j = 1; j < 4000; j += 2) /* exact ties j / 2^(d+1) */
        for (int d = 0; d <= 9; d++)
            num_against_printf(ldexp(j, -(d + 1)));
    for (int n = 0; n < 3000; n++) /* (n + 0.5) / 10^d */
        for (int d = 0; d <= 9; d++)
            num_against_printf((n + 0.5) / pow(10.0, d));
    for (int e = -1074; e <= 1023; e += e < -80 || e > 80 ? 17 : 1)
        num_against_printf(ldexp(1.0, e));
    for (int e = -30; e <= 308; e += e > 30 ? 23 : 1) {
        num_against_printf(pow(10.0, e));
        num_against_printf(5 * pow(10.0, e));
    }
    num_against_printf(DBL_MAX);
    num_against_printf(DBL_MIN);
    num_against_printf(1.005);
    num_against_printf(2.675);
    uint64_t s = 0x7F4A7C159E3779B9u;
    for (int i = 0; i < 8000; i++) {
        s += 0x9E3779B97F4A7C15u;
        uint64_t z = s;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
        z ^= z >> 31;
        double v;
        memcpy(&v, &z, sizeof v);
        if (i % 8 == 0)
            num_against_printf(v); /* any bit pattern (printf is slow on huge ones) */
        num_against_printf((double)(z >> 11) * 0x1p-53 * 1e4); /* [0, 1e4) */
        num_against_printf((double)(z % 100000000) / 1000.0);  /* ms with 3 decimals */
    }
    TF_CHECK(num_mismatches == 0);
}
