/* test_scan.c - the validating JSON scanner: grammar, located errors, chunk
 * boundaries, located members, and agreement with jansson. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "harness.h"
#include "load/scan.h"

/* A temporary file holding data[0 .. n); the caller fcloses it. */
static FILE *tmp_with(const char *data, size_t n)
{
    FILE *f = tmpfile();
    if (!f)
        return NULL;
    fwrite(data, 1, n, f);
    fflush(f);
    rewind(f);
    return f;
}

/* Validates a whole document with the scanner, walking the top level the
 * way the loader does; returns "OK" or the located message. */
static const char *scan_doc_fd(int fd, size_t chunk, char *msg, size_t msgn)
{
    struct tf_diag d;
    tf_diag_init(&d);
    struct tf_scan s;
    struct tf_input *in = tf_input_fdopen(fd, "t.json", NULL, &d);
    bool ok = in && tf_scan_init(&s, in, "t.json", chunk, &d);
    enum tf_jtok k = TF_JT_NONE;
    ok = ok && tf_scan_begin(&s, &k);
    while (ok) {
        bool more;
        if (k == TF_JT_OBJECT) {
            char key[16];
            size_t kl;
            ok = tf_scan_key(&s, key, sizeof key, &kl, &more);
        } else {
            ok = tf_scan_next(&s, &more);
        }
        if (!ok || !more)
            break;
        ok = tf_scan_skip(&s);
    }
    ok = ok && tf_scan_finish(&s);
    if (in)
        tf_scan_fini(&s);
    tf_input_close(in);
    snprintf(msg, msgn, "%s", ok ? "OK" : d.msg);
    return msg;
}

static const char *scan_doc(const char *data, size_t n, size_t chunk, char *msg, size_t msgn)
{
    FILE *f = tmp_with(data, n);
    if (!f)
        return "tmpfile failed";
    scan_doc_fd(fileno(f), chunk, msg, msgn);
    fclose(f);
    return msg;
}

/* jansson's verdict, in the same shape ("t.json:L:C: text" or "OK"), with
 * the newlines of its context turned into spaces as tf_diag does. */
static const char *jansson_doc(const char *data, size_t n, char *msg, size_t msgn)
{
    json_error_t err;
    json_t *j = json_loadb(data, n, JSON_REJECT_DUPLICATES, &err);
    if (j)
        snprintf(msg, msgn, "OK");
    else
        snprintf(msg, msgn, "t.json:%d:%d: %s", err.line, err.column, err.text);
    json_decref(j);
    for (char *p = msg; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    return msg;
}

static const size_t chunks[] = {1, 2, 3, 5, 16, 4096};
#define N_CHUNKS (sizeof chunks / sizeof chunks[0])

static void expect(const char *doc, const char *want)
{
    for (size_t c = 0; c < N_CHUNKS; c++) {
        char got[1100];
        scan_doc(doc, strlen(doc), chunks[c], got, sizeof got);
        if (strcmp(got, want) != 0)
            tf_test_failf(__FILE__, __LINE__, "chunk %zu: %s\n    got  %s\n    want %s",
                          chunks[c], doc, got, want);
    }
}

/* Rejected, with jansson's message, line and column, at every chunk size. */
#define reject(doc) reject_at(__LINE__, doc)
static void reject_at(int line, const char *doc)
{
    char want[1100];
    jansson_doc(doc, strlen(doc), want, sizeof want);
    if (strcmp(want, "OK") == 0)
        tf_test_failf(__FILE__, line, "jansson accepts %s", doc);
    for (size_t c = 0; c < N_CHUNKS; c++) {
        char got[1100];
        scan_doc(doc, strlen(doc), chunks[c], got, sizeof got);
        if (strcmp(got, want) != 0)
            tf_test_failf(__FILE__, line, "chunk %zu: %s\n    got  %s\n    want %s", chunks[c],
                          doc, got, want);
    }
}

TF_TEST(scan_accepts_valid_json)
{
    expect("{}", "OK");
    expect("[]", "OK");
    expect(" \t\r\n[1, -2, 3.5e+10, -0.0, 0E-0, true, false, null, \"s\"]\n", "OK");
    expect("{\"a\":{\"b\":[{},[],[[]]]},\"c\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"}", "OK");
    expect("[\"\\u00e9\\uD83D\\uDE00\xc3\xa9\xf0\x9f\x98\x80\"]", "OK");
    expect("[9223372036854775807, -9223372036854775808, 1e308, 1e-400]", "OK");
    expect("{\"a\":1,\"b\":{\"a\":2}}", "OK");
}

/* Found by fuzz_scan: an empty key as the first key compared bytes at a
 * NULL arena (UBSan: zero offset applied to a null pointer). */
TF_TEST(scan_empty_keys)
{
    expect("{\"\":3,\"a\":{\"\":1}}", "OK");
    reject("{\"\":3,\"\":4}");
}

TF_TEST(scan_rejects_like_jansson)
{
    reject("");
    reject("1");
    reject("[1,]");
    reject("[1 2]");
    reject("{\"a\" 1}");
    reject("{\"a\":1,}");
    reject("{\"a\":1,\"a\":2}");
    reject("[{\"x\":[{\"k\":1,\"k\":1}]}]");
    reject("[01]");
    reject("[1.]");
    reject("[1e+]");
    reject("[9223372036854775808]");
    reject("[-9223372036854775809]");
    reject("[1e309]");
    reject("[tru]");
    reject("[\"a\nb\"]");
    reject("[\"\\x\"]");
    reject("[\"\\uD800\"]");
    reject("[\"\\uDC00\"]");
    reject("[\"\\u0000\"]");
    reject("[\"\xff\"]");
    reject("[\"\xed\xa0\x80\"]");
    reject("[] x");
    reject("[1,\n 2,\n x]");
    reject("[");
    reject("{\"a\":");
}

TF_TEST(scan_depth_limit_is_janssons)
{
    /* 2048 nested arrays are fine, a value inside them is one too deep. */
    size_t n = TF_SCAN_MAX_DEPTH;
    char *ok = malloc(2 * n + 1), *bad = malloc(2 * n + 2);
    memset(ok, '[', n);
    memset(ok + n, ']', n);
    ok[2 * n] = '\0';
    memset(bad, '[', n);
    bad[n] = '1';
    memset(bad + n + 1, ']', n);
    bad[2 * n + 1] = '\0';
    char got[1100], want[1100];
    TF_CHECK_STR(scan_doc(ok, strlen(ok), 7, got, sizeof got),
                 jansson_doc(ok, strlen(ok), want, sizeof want));
    TF_CHECK_STR(scan_doc(bad, strlen(bad), 7, got, sizeof got),
                 jansson_doc(bad, strlen(bad), want, sizeof want));
    TF_CHECK(strstr(got, "maximum parsing depth") != NULL);
    free(ok);
    free(bad);
}

/* Same verdict, line and column as jansson for a set of documents, at every
 * chunk size. */
TF_TEST(scan_differential_against_jansson)
{
    static const char *const docs[] = {
        "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\\u00e9\",\"ts\":1.5,\"dur\":2,"
        "\"args\":{\"k\":[1,2,{\"x\":null}]}},{\"ph\":\"M\"}],\"x\":\"y\"}",
        "{\"traceEvents\":[{\"ph\":\"X\"-,\"name\":\"a\"}]}",
        "[{\"a\":1,\"b\":\"c\"},[],{},[[[]-],\"s\\n8t\",-0.5e-3r,true]",
        "{\"\xc3\xa9\":\"\xc3\xbc\",\"\\ud83d\\ude00\":1,\"n\":12345678901234567890}",
        "[1\x00,2]",     /* jansson drops a NUL right after a number */
        "[true\x00,2]",  /* ... or a word */
        "[1,\x00 2]",    /* but not elsewhere */
        "[\"\\uD800\\u0041\"]",
        "[\"\\uD800x\"]",
        "[\"\\uD83D\\uDE00\\uDE00\"]",
        "{\"a\\u0062\":1,\"ab\":2}",
        "[1.5.3]",
        "[1e5e]",
        "[-]",
        "[--1]",
        "[-01]",
        "[0.00000000000000000000000001e330]",
        "[1e999999999999999999999]",
        "[123e-400]",
        "[\"\\\xc3\xa9\"]",
        "[\"\\u12\xc3\xa9\"]",
        "[\xc3\xa9]",
        "[\xff]",
        "\xef\xbb\xbf[]",
        "[NaN]",
        "[Infinity]",
        "{\"a\":[1,2,3]}}",
        "[}]",
        "{]",
        "[1:2]",
        "{1:2}",
        "[,1]",
        "[\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\" : 1]",
        "[\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\x01\"]",
        "\n\n  [1,\n  2,\n  \xc3\xa9x]",
        "[\"tab\tin string\"]",
        "[\"abc",
        "[\"abc\\",
        "[\"abc\\u00",
        "[\"\xc3",
        "{\"a\":1 \"b\":2}",
        "{\"a\":1,\"b\"}",
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        const char *doc = docs[i];
        size_t n = strlen(doc);
        if (i == 4 || i == 5 || i == 6)
            n = strlen(doc) + strlen(doc + strlen(doc) + 1) + 1; /* holds a NUL */
        char want[1100];
        jansson_doc(doc, n, want, sizeof want);
        for (size_t c = 0; c < N_CHUNKS; c++) {
            char got[1100];
            scan_doc(doc, n, chunks[c], got, sizeof got);
            /* The verdict must agree; the located message too, except
             * where a NUL byte counts differently. */
            bool same_verdict = (strcmp(got, "OK") == 0) == (strcmp(want, "OK") == 0);
            if (!same_verdict || (i < 4 && strcmp(got, want) != 0) ||
                (i >= 7 && strcmp(got, want) != 0)) {
                tf_test_failf(__FILE__, __LINE__, "doc %zu chunk %zu:\n    got  %s\n    want %s",
                              i, chunks[c], got, want);
                bad++;
            }
        }
    }
    TF_CHECK(bad == 0);
}

/* A pseudo-random walk of mutations of valid documents: the scanner and
 * jansson must accept and reject the same ones. */
TF_TEST(scan_mutations_agree_with_jansson)
{
    static const char *const base[] = {
        "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\\u00e9\",\"ts\":1.5,\"dur\":2},{}],"
        "\"x\":[true,false,null]}",
        "{\"format\":\"pipelined_timeline_v2\",\"events\":[{\"lane\":\"io\",\"name\":"
        "\"hdf5_read\",\"start_ms\":1,\"dur_ms\":-2.5e-3,\"candidate\":0}]}",
        "[{\"\\ud83d\\ude00\":\"\xf0\x9f\x98\x80\",\"k\":\"\\\"\",\"n\":123456789012345678}]",
    };
    static const char alphabet[] = "{}[]:,\"\\ u0123456789.eE+-tfnal\n\t\xc3\xa9\xff";
    unsigned long long seed = 88172645463325252ull;
    int disagree = 0, runs = 0;
    char doc[256];
    for (int iter = 0; iter < 3000; iter++) {
        const char *b = base[iter % 3];
        size_t n = strlen(b);
        memcpy(doc, b, n);
        int edits = 1 + iter % 3;
        for (int e = 0; e < edits; e++) {
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            size_t at = (size_t)(seed % (n + 1));
            char ch = alphabet[(seed >> 20) % (sizeof alphabet - 1)];
            int op = (int)((seed >> 40) % 3);
            if (op == 0 && n > 0 && at < n) {
                memmove(doc + at, doc + at + 1, n - at - 1);
                n--;
            } else if (op == 1 && n + 1 < sizeof doc) {
                memmove(doc + at + 1, doc + at, n - at);
                doc[at] = ch;
                n++;
            } else if (at < n) {
                doc[at] = ch;
            }
        }
        char want[1100], got[1100];
        jansson_doc(doc, n, want, sizeof want);
        scan_doc(doc, n, 1 + iter % 7, got, sizeof got);
        runs++;
        if ((strcmp(got, "OK") == 0) != (strcmp(want, "OK") == 0)) {
            if (disagree++ < 5)
                tf_test_failf(__FILE__, __LINE__, "%.*s\n    got  %s\n    want %s", (int)n,
                              doc, got, want);
        }
    }
    TF_CHECK(disagree == 0);
    TF_CHECK(runs == 3000);
}

/* Elements of an array read whole, with members located, across chunk
 * boundaries. */
TF_TEST(scan_elements_and_fields)
{
    const char *doc = "{\"meta\": 1, \"events\": [\n"
                      "  {\"name\": \"a\\\"b\", \"ph\": \"X\", \"args\": {\"ph\": \"no\"}},\n"
                      "  {\"ph\": \"B\", \"n\": [1, 2], \"name\": 12.5e1},\n"
                      "  7\n]}";
    for (size_t c = 0; c < N_CHUNKS; c++) {
        FILE *f = tmp_with(doc, strlen(doc));
        struct tf_diag d;
        tf_diag_init(&d);
        struct tf_scan s;
        struct tf_input *in = tf_input_fdopen(fileno(f), "t.json", NULL, &d);
        TF_CHECK(in && tf_scan_init(&s, in, "t.json", chunks[c], &d));
        enum tf_jtok k;
        TF_CHECK(tf_scan_begin(&s, &k) && k == TF_JT_OBJECT);
        char key[16];
        size_t kl;
        bool more;
        TF_CHECK(tf_scan_key(&s, key, sizeof key, &kl, &more) && more);
        TF_CHECK_STR(key, "meta");
        TF_CHECK(tf_scan_peek(&s) == TF_JT_NUMBER);
        TF_CHECK(tf_scan_skip(&s));
        TF_CHECK(tf_scan_key(&s, key, sizeof key, &kl, &more) && more);
        TF_CHECK_STR(key, "events");
        TF_CHECK(tf_scan_peek(&s) == TF_JT_ARRAY);
        TF_CHECK(tf_scan_enter(&s));
        struct tf_scan_field fl[2] = {{.name = "ph"}, {.name = "name"}};
        const unsigned char *data;
        size_t len;

        TF_CHECK(tf_scan_next(&s, &more) && more);
        TF_CHECK(tf_scan_value(&s, &data, &len, fl, 2));
        TF_CHECK(len == 49 && data[0] == '{' && data[len - 1] == '}');
        TF_CHECK(fl[0].type == TF_JT_STRING && fl[0].len == 1 && data[fl[0].off] == 'X');
        TF_CHECK(fl[1].type == TF_JT_STRING && fl[1].escaped && fl[1].len == 4);
        TF_CHECK(memcmp(data + fl[1].off, "a\\\"b", 4) == 0);
        json_t *j = json_loadb((const char *)data, len, JSON_REJECT_DUPLICATES, NULL);
        TF_CHECK(j != NULL);
        json_decref(j);

        TF_CHECK(tf_scan_next(&s, &more) && more);
        TF_CHECK(tf_scan_value(&s, &data, &len, fl, 2));
        TF_CHECK(fl[0].type == TF_JT_STRING && data[fl[0].off] == 'B');
        TF_CHECK(fl[1].type == TF_JT_NUMBER && !fl[1].is_int && fl[1].len == 6);
        TF_CHECK(memcmp(data + fl[1].off, "12.5e1", 6) == 0);

        TF_CHECK(tf_scan_next(&s, &more) && more);
        TF_CHECK(tf_scan_value(&s, &data, &len, fl, 2));
        TF_CHECK(len == 1 && data[0] == '7' && fl[0].type == TF_JT_NONE);

        TF_CHECK(tf_scan_next(&s, &more) && !more);
        TF_CHECK(tf_scan_key(&s, key, sizeof key, &kl, &more) && !more);
        TF_CHECK(tf_scan_finish(&s));
        TF_CHECK(!tf_diag_failed(&d));
        tf_scan_fini(&s);
        tf_input_close(in);
        fclose(f);
    }
}

/* A syntax error far into a long file, read through a pipe (no lazy
 * position counting) and through a file, is located the same way. */
TF_TEST(scan_error_far_away_is_located)
{
    size_t n_el = 20000;
    size_t cap = n_el * 40 + 64;
    char *doc = malloc(cap);
    size_t n = 0;
    n += (size_t)sprintf(doc + n, "{\"events\": [\n");
    for (size_t i = 0; i < n_el; i++)
        n += (size_t)sprintf(doc + n, "  {\"a\": %zu, \"b\": \"\xc3\xa9\"}%s\n", i,
                             i + 1 < n_el ? "," : "");
    n += (size_t)sprintf(doc + n, "], \"x\": [1 2]}\n");
    char want[1100], got[1100];
    jansson_doc(doc, n, want, sizeof want);
    TF_CHECK_STR(scan_doc(doc, n, 4096, got, sizeof got), want);
    TF_CHECK(strstr(got, ":20002:") != NULL);
    int fds[2];
    TF_CHECK(pipe(fds) == 0);
    if (fork() == 0) {
        close(fds[0]);
        size_t off = 0;
        while (off < n) {
            ssize_t w = write(fds[1], doc + off, n - off);
            if (w <= 0)
                break;
            off += (size_t)w;
        }
        _exit(0);
    }
    close(fds[1]);
    TF_CHECK_STR(scan_doc_fd(fds[0], 1000, got, sizeof got), want);
    close(fds[0]);
    free(doc);
}

/* Marks: come back to an element and read on from there. */
TF_TEST(scan_mark_and_seek)
{
    const char *doc = "{\"e\": [{\"a\": 1}, {\"a\": 2}, {\"a\": 3}], \"z\": 0}";
    FILE *f = tmp_with(doc, strlen(doc));
    struct tf_diag d;
    tf_diag_init(&d);
    struct tf_scan s;
    struct tf_input *in = tf_input_fdopen(fileno(f), "t.json", NULL, &d);
    tf_scan_init(&s, in, "t.json", 3, &d);
    enum tf_jtok k;
    char key[8];
    size_t kl;
    bool more;
    TF_CHECK(tf_scan_begin(&s, &k) && tf_scan_key(&s, key, sizeof key, &kl, &more));
    TF_CHECK(tf_scan_enter(&s));
    struct tf_scan_mark m;
    TF_CHECK(tf_scan_next(&s, &more) && tf_scan_skip(&s));
    TF_CHECK(tf_scan_next(&s, &more) && tf_scan_mark(&s, &m) && tf_scan_skip(&s));
    TF_CHECK(tf_scan_next(&s, &more) && tf_scan_skip(&s));
    TF_CHECK(tf_scan_next(&s, &more) && !more);
    TF_CHECK(tf_scan_seek(&s, &m));
    const unsigned char *data;
    size_t len;
    TF_CHECK(tf_scan_value(&s, &data, &len, NULL, 0));
    TF_CHECK(len == 8 && memcmp(data, "{\"a\": 2}", 8) == 0);
    TF_CHECK(tf_scan_next(&s, &more) && more && tf_scan_value(&s, &data, &len, NULL, 0));
    TF_CHECK(len == 8 && memcmp(data, "{\"a\": 3}", 8) == 0);
    TF_CHECK(tf_scan_next(&s, &more) && !more);
    TF_CHECK(!tf_diag_failed(&d));
    tf_scan_fini(&s);
    tf_input_close(in);
    fclose(f);
}
