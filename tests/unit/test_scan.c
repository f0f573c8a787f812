/* test_scan.c - the validating JSON scanner: grammar, located errors, chunk
 * boundaries, located members, and agreement with jansson. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "harness.h"
#include "base/jsonlite.h"
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

/* The mode scan_doc and scan_doc_fd scan in. */
static unsigned scan_mode = TF_SCAN_STRICT;

/* Validates a whole document with the scanner, walking the top level the
 * way the loader does; returns "OK" or the located message. */
static const char *scan_doc_fd(int fd, size_t chunk, char *msg, size_t msgn)
{
    struct tf_diag d;
    tf_diag_init(&d);
    struct tf_scan s;
    struct tf_input *in = tf_input_fdopen(fd, "t.json", NULL, &d);
    bool ok = in && tf_scan_init(&s, in, "t.json", chunk, scan_mode, &d);
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
    /* as a message shows it: valid UTF-8 (jansson's "near" text may cut a
     * character) */
    struct tf_diag d;
    tf_diag_init(&d);
    tf_diag_error(&d, TF_EBADINPUT, "%s", msg);
    snprintf(msg, msgn, "%s", d.msg);
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
        /* A bad UTF-8 byte right after a number or a word: jansson reads
         * it as the token's lookahead (found by fuzz_stream). */
        "[0.\x91]",
        "[0\x91]",
        "[true\x91]",
        "[tru\x91]",
        "[1e\x91]",
        "[-\x91]",
        "[99999999999999999999\x91]",
        "{\"a\":nul\xff}",
        "[0\xc3\xa9]",
        "[1.5\xe2\x82]",
        /* \u0000 is a parser error of values and keys: where the parser
         * wants something else, that is the error, near the string
         * (found by fuzz_stream). */
        "{\"a\":false\"\\u0000\"}",
        "[1 \"\\u0000\"]",
        "[\"\\u0000\"]",
        "{\"\\u0000\":1}",
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

/* NUL bytes jansson drops after a token, then something it rejects: the
 * position counts the NUL or not as jansson does (found by fuzz_stream). */
TF_TEST(scan_nul_after_token_then_errors)
{
    static const struct {
        const char *doc;
        size_t n;
    } docs[] = {
        {"[15\0\xe3\xf3\x01]", 8}, {"[15\0\xff]", 6}, {"[15\0x]", 6},  {"[15\0\0]", 6},
        {"[true\0\xff]", 8},        {"[15\0\xe3\x80\x80]", 8}, {"{\"a\":1\0\xc3}", 10},
        {"{\"a\":4\0", 7},          {"[1\0", 3},                {"[true\0", 6},
        {"[1,\0", 4},
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        char want[1100], got[1100];
        jansson_doc(docs[i].doc, docs[i].n, want, sizeof want);
        for (size_t c = 0; c < N_CHUNKS; c++) {
            scan_doc(docs[i].doc, docs[i].n, chunks[c], got, sizeof got);
            if (strcmp(got, want) != 0) {
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
        TF_CHECK(in && tf_scan_init(&s, in, "t.json", chunks[c], TF_SCAN_STRICT, &d));
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
    tf_scan_init(&s, in, "t.json", 3, TF_SCAN_STRICT, &d);
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

/* --- lenient mode ---------------------------------------------------------- */

/* Strict mode's messages for what lenient mode accepts. */
static bool lenient_accepts_msg(const char *msg)
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

/* Lenient accepts doc at every chunk size; strict rejects it as jansson. */
#define lenient_only(doc) lenient_only_at(__LINE__, doc, strlen(doc))
static void lenient_only_at(int line, const char *doc, size_t n)
{
    char want[1100], got[1100];
    jansson_doc(doc, n, want, sizeof want);
    if (!lenient_accepts_msg(want))
        tf_test_failf(__FILE__, line, "jansson says %s", want);
    for (size_t c = 0; c < N_CHUNKS; c++) {
        scan_doc(doc, n, chunks[c], got, sizeof got);
        if (strcmp(got, want) != 0)
            tf_test_failf(__FILE__, line, "strict, chunk %zu: got %s, want %s", chunks[c], got,
                          want);
        scan_mode = TF_SCAN_LENIENT;
        scan_doc(doc, n, chunks[c], got, sizeof got);
        scan_mode = TF_SCAN_STRICT;
        if (strcmp(got, "OK") != 0)
            tf_test_failf(__FILE__, line, "lenient, chunk %zu: %s", chunks[c], got);
    }
}

/* Lenient rejects doc with jansson's message, as strict does. */
#define lenient_rejects(doc) lenient_rejects_at(__LINE__, doc)
static void lenient_rejects_at(int line, const char *doc)
{
    char want[1100], got[1100];
    jansson_doc(doc, strlen(doc), want, sizeof want);
    for (size_t c = 0; c < N_CHUNKS; c++) {
        scan_mode = TF_SCAN_LENIENT;
        scan_doc(doc, strlen(doc), chunks[c], got, sizeof got);
        scan_mode = TF_SCAN_STRICT;
        if (strcmp(got, want) != 0 || strcmp(want, "OK") == 0)
            tf_test_failf(__FILE__, line, "lenient, chunk %zu: %s\n    got  %s\n    want %s",
                          chunks[c], doc, got, want);
    }
}

TF_TEST(scan_lenient_accepts_more)
{
    lenient_only("[\"a\\u0000b\"]");
    lenient_only("{\"k\\u0000\":1}");
    lenient_only("[123456789012345678901234567890]");
    lenient_only("[9223372036854775808]");
    lenient_only("[-9223372036854775809, 1]");
    lenient_only("[1e309]");
    lenient_only("[-1.5e99999999999999999999]");
    lenient_only("{\"a\":1,\"a\":2}");
    lenient_only("{\"a\":1,\"b\":{\"x\":[],\"x\":{}}}");
    lenient_only("{\"a\\u0062\":1,\"ab\":2}");
    /* Trailing commas, as some writers leave them. */
    lenient_only("[1,]");
    lenient_only("[1, ]");
    lenient_only("{\"a\":1,}");
    lenient_only("[{\"a\":[1,2,],\"b\":{\"c\":1,},},\n]");
    /* Deeper than jansson goes, with the stack grown many times. */
    size_t n = 100000;
    char *deep = malloc(2 * n + 8);
    memset(deep, '[', n);
    memcpy(deep + n, "{\"a\":1}", 7);
    memset(deep + n + 7, ']', n);
    deep[2 * n + 7] = '\0';
    char got[1100];
    scan_doc(deep, strlen(deep), 4096, got, sizeof got);
    TF_CHECK(strstr(got, "maximum parsing depth reached") != NULL);
    scan_mode = TF_SCAN_LENIENT;
    TF_CHECK_STR(scan_doc(deep, strlen(deep), 4096, got, sizeof got), "OK");
    deep[2 * n + 6] = '\0'; /* the top level's ']' missing: the format allows it */
    TF_CHECK_STR(scan_doc(deep, strlen(deep), 4096, got, sizeof got), "OK");
    deep[2 * n + 5] = '\0'; /* one more: an inner array is never closed */
    scan_doc(deep, strlen(deep), 4096, got, sizeof got);
    scan_mode = TF_SCAN_STRICT;
    TF_CHECK(strstr(got, "']' expected near end of file") != NULL);
    free(deep);
}

TF_TEST(scan_lenient_checks_the_rest)
{
    lenient_rejects("");
    lenient_rejects("1");
    lenient_rejects("[1 2]");
    lenient_rejects("{\"a\" 1}");
    lenient_rejects("[,]");
    lenient_rejects("[1,,]");
    lenient_rejects("{,}");
    lenient_rejects("{\"a\":1,,}");
    lenient_rejects("[1,}");
    lenient_rejects("{\"a\":1,]");
    lenient_rejects("[01]");
    lenient_rejects("[1.]");
    lenient_rejects("[1e+]");
    lenient_rejects("[-]");
    lenient_rejects("[1.5.3]");
    lenient_rejects("[1e5e]");
    lenient_rejects("[tru]");
    lenient_rejects("[NaN]");
    lenient_rejects("[\"a\nb\"]");
    lenient_rejects("[\"\\x\"]");
    lenient_rejects("[\"\\u12\xc3\xa9\"]");
    lenient_rejects("[\"\\uD800\"]");
    lenient_rejects("[\"\\uDC00\"]");
    lenient_rejects("[\"\\uD800\\u0041\"]");
    lenient_rejects("[\"\xff\"]");
    lenient_rejects("[\"\xed\xa0\x80\"]");
    lenient_rejects("[\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\x01\"]");
    lenient_rejects("[] x");
    lenient_rejects("[1,\n 2,\n x]");
    lenient_rejects("[");
    lenient_rejects("{\"a\":");
    lenient_rejects("[\"abc");
    lenient_rejects("[\"abc\\u00");
    lenient_rejects("{\"a\":1 \"b\":2}");
    /* Where strict mode stops earlier, lenient goes on to the next error. */
    char got[1100];
    scan_mode = TF_SCAN_LENIENT;
    TF_CHECK_STR(scan_doc("[99999999999999999999999 2]", 27, 3, got, sizeof got),
                 "t.json:1:26: ']' expected near '2'");
    TF_CHECK_STR(scan_doc("{\"a\":1,\"a\":2 x}", 15, 3, got, sizeof got),
                 "t.json:1:14: '}' expected near 'x'");
    scan_mode = TF_SCAN_STRICT;
}

/* The mutation walk again: lenient accepts what strict accepts; where they
 * differ, strict's reason is one lenient mode waives; where lenient
 * rejects, the message is strict's. */
TF_TEST(scan_lenient_mutations_agree_with_strict)
{
    static const char *const base[] = {
        "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\\u0000\",\"ts\":1.5e400,\"dur\":2},{}],"
        "\"x\":[true,false,null,123456789012345678901]}",
        "[{\"\\ud83d\\ude00\":\"\xf0\x9f\x98\x80\",\"k\":\"\\\"\",\"k\":123456789012345678}]",
    };
    static const char alphabet[] = "{}[]:,\"\\ u0123456789.eE+-tfnal\n\t\xc3\xa9\xff";
    unsigned long long seed = 0x9E3779B97F4A7C15ull;
    int bad = 0;
    char doc[256];
    for (int iter = 0; iter < 3000; iter++) {
        const char *b = base[iter % 2];
        size_t n = strlen(b);
        memcpy(doc, b, n);
        for (int e = 0; e < 1 + iter % 3; e++) {
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
        char strict[1100], lenient[1100];
        size_t chunk = 1 + (size_t)iter % 7;
        scan_doc(doc, n, chunk, strict, sizeof strict);
        scan_mode = TF_SCAN_LENIENT;
        scan_doc(doc, n, chunk, lenient, sizeof lenient);
        scan_mode = TF_SCAN_STRICT;
        bool ok = strcmp(strict, lenient) == 0 ||
                  (strcmp(lenient, "OK") == 0 && lenient_accepts_msg(strict)) ||
                  (strcmp(lenient, "OK") != 0 && lenient_accepts_msg(strict));
        if (!ok && bad++ < 5)
            tf_test_failf(__FILE__, __LINE__, "%.*s\n    strict  %s\n    lenient %s", (int)n, doc,
                          strict, lenient);
    }
    TF_CHECK(bad == 0);
}

/* Up to 16 members located; a key seen twice locates its last value; the
 * members of a nested object located over its bytes alone. */
TF_TEST(scan_lenient_fields_and_nested_members)
{
    const char *doc =
        "[{\"f0\":0,\"f1\":1,\"f2\":2,\"f3\":3,\"f4\":4,\"f5\":5,\"f6\":6,\"f7\":7,\"f8\":8,"
        "\"f9\":9,\"fa\":10,\"fb\":11,\"fc\":12,\"fd\":13,\"fe\":14,\"ff\":\"15\",\"fg\":16,"
        "\"ph\":\"B\",\"ph\":\"X\",\"args\":{\"k\":[1,{\"k\":2}],\"s\":\"a\\\"b\",\"n\":-1.5e3,"
        "\"t\":true,\"z\":null,\"i\":12345678901234567890123,\"e\":{},\"k\":\"last\"}}]";
    for (int mode = 0; mode < 2; mode++) {
        FILE *f = tmp_with(doc, strlen(doc));
        struct tf_diag d;
        tf_diag_init(&d);
        struct tf_input *in = tf_input_fdopen(fileno(f), "t.json", NULL, &d);
        struct tf_scan s;
        TF_CHECK(tf_scan_init(&s, in, "t.json", 7, mode ? TF_SCAN_LENIENT : TF_SCAN_STRICT, &d));
        enum tf_jtok k;
        bool more;
        TF_CHECK(tf_scan_begin(&s, &k) && tf_scan_next(&s, &more) && more);
        static const char *const names[] = {"f0", "f1", "f2", "f3", "f4", "f5",   "f6", "f7",
                                            "f8", "f9", "fa", "fb", "fc", "ff",   "ph", "args",
                                            "fg"};
        struct tf_scan_field fl[17];
        for (size_t i = 0; i < 17; i++)
            fl[i].name = names[i];
        const unsigned char *data;
        size_t len;
        bool ok = tf_scan_value(&s, &data, &len, fl, 17);
        if (mode == 0) { /* strict: the duplicate "ph" */
            TF_CHECK(!ok && strstr(d.msg, "duplicate object key") != NULL);
        } else {
            TF_CHECK(ok);
            TF_CHECK(fl[0].type == TF_JT_NUMBER && fl[0].is_int && data[fl[0].off] == '0');
            TF_CHECK(fl[12].type == TF_JT_NUMBER && memcmp(data + fl[12].off, "12", 2) == 0);
            TF_CHECK(fl[13].type == TF_JT_STRING && memcmp(data + fl[13].off, "15", 2) == 0);
            TF_CHECK(fl[14].type == TF_JT_STRING && data[fl[14].off] == 'X');
            TF_CHECK(fl[16].type == TF_JT_NONE); /* the 17th is not looked for */
            /* The same from the object's bytes alone. */
            struct tf_scan_field again[17];
            for (size_t i = 0; i < 17; i++)
                again[i].name = names[i];
            tf_scan_fields(data, len, again, 17);
            for (size_t i = 0; i < 17; i++)
                TF_CHECK(again[i].type == fl[i].type && again[i].off == fl[i].off &&
                         again[i].len == fl[i].len && again[i].escaped == fl[i].escaped &&
                         again[i].is_int == fl[i].is_int);
            /* The members of "args". */
            const struct tf_scan_field *a = &fl[15];
            TF_CHECK(a->type == TF_JT_OBJECT && data[a->off] == '{' &&
                     data[a->off + a->len - 1] == '}');
            struct tf_scan_field af[8] = {{.name = "k"}, {.name = "s"}, {.name = "n"},
                                          {.name = "t"}, {.name = "z"}, {.name = "i"},
                                          {.name = "e"}, {.name = "none"}};
            tf_scan_fields(data + a->off, a->len, af, 8);
            const unsigned char *ad = data + a->off;
            TF_CHECK(af[0].type == TF_JT_STRING && af[0].len == 4 &&
                     memcmp(ad + af[0].off, "last", 4) == 0);
            TF_CHECK(af[1].type == TF_JT_STRING && af[1].escaped && af[1].len == 4);
            TF_CHECK(af[2].type == TF_JT_NUMBER && !af[2].is_int && af[2].len == 6);
            TF_CHECK(af[3].type == TF_JT_TRUE && af[3].len == 4);
            TF_CHECK(af[4].type == TF_JT_NULL && af[4].len == 4);
            TF_CHECK(af[5].type == TF_JT_NUMBER && af[5].is_int && af[5].len == 23);
            TF_CHECK(af[6].type == TF_JT_OBJECT && af[6].len == 2);
            TF_CHECK(af[7].type == TF_JT_NONE);
        }
        tf_scan_fini(&s);
        tf_input_close(in);
        fclose(f);
    }
}

/* The Trace Event Format's array form may end with the file. */
TF_TEST(scan_lenient_open_top_level_array)
{
    static const char *const docs[] = {
        "[{\"ph\":\"X\"},\n{\"ph\":\"B\"}",
        "[{\"ph\":\"X\"},\n{\"ph\":\"B\"},\n",
        "[1",
        "[1,",
        "[[1]",
    };
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++)
        lenient_only_at(__LINE__, docs[i], strlen(docs[i]));
    /* Not an empty one, nor a nested one, nor an object. */
    lenient_rejects("[");
    lenient_rejects("[[1],[2,");
    lenient_rejects("{\"traceEvents\":[1,2");
    lenient_rejects("[1,,");
}

/* Trailing commas in an element read whole become blanks, so its bytes
 * are valid JSON for jansson and jsonlite, at every chunk size; the last
 * element's comma before the array's ']' is accepted too. */
TF_TEST(scan_lenient_trailing_commas_read_whole)
{
    const char *doc = "[{\"ph\":\"X\",\"args\":{\"a\":[1,2,],\"b\":{\"c\":1,},},},\n"
                      "{\"ph\":\"i\",}, ]";
    const char *want[2] = {"{\"ph\":\"X\",\"args\":{\"a\":[1,2 ],\"b\":{\"c\":1 } } }",
                           "{\"ph\":\"i\" }"};
    for (size_t c = 0; c < N_CHUNKS; c++) {
        FILE *f = tmp_with(doc, strlen(doc));
        struct tf_diag d;
        tf_diag_init(&d);
        struct tf_input *in = tf_input_fdopen(fileno(f), "t.json", NULL, &d);
        struct tf_scan s;
        TF_CHECK(tf_scan_init(&s, in, "t.json", chunks[c], TF_SCAN_LENIENT, &d));
        enum tf_jtok k;
        bool more;
        TF_CHECK(tf_scan_begin(&s, &k));
        for (int i = 0; i < 2; i++) {
            struct tf_scan_field fl[2] = {{.name = "ph"}, {.name = "args"}};
            const unsigned char *data;
            size_t len;
            TF_CHECK(tf_scan_next(&s, &more) && more && tf_scan_value(&s, &data, &len, fl, 2));
            TF_CHECK(len == strlen(want[i]) && memcmp(data, want[i], len) == 0);
            TF_CHECK(fl[0].type == TF_JT_STRING && fl[0].len == 1);
            json_t *j = json_loadb((const char *)data, len, JSON_REJECT_DUPLICATES, NULL);
            TF_CHECK(j != NULL);
            json_decref(j);
            if (i == 0) {
                size_t vl;
                const unsigned char *b = tf_jl_get(data + fl[1].off, fl[1].len, "b", &vl);
                TF_CHECK(b && vl == 8 && memcmp(b, "{\"c\":1 }", 8) == 0);
            }
        }
        TF_CHECK(tf_scan_next(&s, &more) && !more);
        TF_CHECK(tf_scan_finish(&s));
        tf_scan_fini(&s);
        tf_input_close(in);
        fclose(f);
    }
}

/* Strict for the document, lenient for one member, strict again. */
TF_TEST(scan_switch_modes_mid_scan)
{
    size_t n = 3000;
    char *doc = malloc(2 * n + 200);
    size_t len = (size_t)sprintf(doc, "{\"a\":1,\"traceEvents\":[{\"k\":1,\"k\":\"\\u0000\"},");
    memset(doc + len, '[', n);
    memset(doc + len + n, ']', n);
    len += 2 * n;
    len += (size_t)sprintf(doc + len, ",123456789012345678901234567890],\"b\":{\"c\":1,\"c\":2}}");
    for (size_t c = 0; c < N_CHUNKS; c++) {
        FILE *f = tmp_with(doc, len);
        struct tf_diag d;
        tf_diag_init(&d);
        struct tf_input *in = tf_input_fdopen(fileno(f), "t.json", NULL, &d);
        struct tf_scan s;
        enum tf_jtok k;
        char key[32];
        size_t kl;
        bool more;
        TF_CHECK(tf_scan_init(&s, in, "t.json", chunks[c], TF_SCAN_STRICT, &d));
        TF_CHECK(tf_scan_begin(&s, &k) && tf_scan_key(&s, key, sizeof key, &kl, &more));
        TF_CHECK(tf_scan_skip(&s) && tf_scan_key(&s, key, sizeof key, &kl, &more));
        TF_CHECK_STR(key, "traceEvents");
        TF_CHECK(tf_scan_set_flags(&s, TF_SCAN_LENIENT));
        TF_CHECK(tf_scan_skip(&s));
        TF_CHECK(tf_scan_set_flags(&s, TF_SCAN_STRICT));
        TF_CHECK(tf_scan_key(&s, key, sizeof key, &kl, &more) && more);
        TF_CHECK(!tf_scan_skip(&s));
        TF_CHECK(strstr(d.msg, "duplicate object key near '\"c\"'") != NULL);
        tf_scan_fini(&s);
        tf_input_close(in);
        fclose(f);
    }
    /* A scan begun lenient stays lenient. */
    struct tf_scan s;
    struct tf_diag d;
    tf_diag_init(&d);
    FILE *f = tmp_with("[]", 2);
    struct tf_input *in = tf_input_fdopen(fileno(f), "t.json", NULL, &d);
    TF_CHECK(tf_scan_init(&s, in, "t.json", 0, TF_SCAN_LENIENT, &d));
    TF_CHECK(!tf_scan_set_flags(&s, TF_SCAN_STRICT) && tf_scan_set_flags(&s, TF_SCAN_LENIENT));
    tf_scan_fini(&s);
    tf_input_close(in);
    fclose(f);
    free(doc);
}
