/* scan.c - the validating JSON scanner (see scan.h).
 *
 * Why this file is long (about 1,600 lines, past the ~1000 the project
 * keeps to): it is one state machine with its token readers, whose error
 * positions and messages follow jansson's lexer and parser together, and
 * its hot loops (scan_any, scan_str, the number and word runs) share the
 * buffer's invariants and must inline into each other to keep the per-byte
 * cost the benchmarks measure, so they stay in one translation unit.  What
 * stands alone already lives elsewhere (fields.c reads members of
 * validated values; scan_fast.h is the fast path and its kernels;
 * scan_int.h names what they share).  For the same reason scan_any (about
 * 170 lines) stays one function, past the ~120 lines the project keeps
 * to: it is the per-value loop, and splitting its cases would move the
 * position it keeps in a local out to memory at every call.
 *
 * IMPLEMENTATION NOTES
 *
 * Buffer.  buf[0 .. len) holds the bytes at input offsets base .. base + len,
 * followed by a NUL sentinel, so the inner loops (whitespace, string bodies,
 * number and word runs) stop at the end of the data without a bounds test;
 * only when they stop at index len do they ask for more.  A refill drops the
 * bytes before the token being scanned (tok) or, while a value is read
 * whole, before that value (keep); it grows the buffer only when what must
 * be kept fills it.  Indices held across a refill are shifted by it, so the
 * loops below re-read s->pos after every refill and hold longer-lived
 * positions as file offsets.
 *
 * Positions.  jansson counts lines from 1 and, within a line, characters
 * (UTF-8 lead bytes) consumed so far; an error is located after the token
 * that caused it (before a byte that failed UTF-8 decoding, or a control
 * character in a string).  The scanner keeps jansson's position of buf[0]
 * (line, col), updated when bytes are dropped, and computes the position of
 * any kept byte on demand.  Nothing is counted on the fast path.
 *
 * Grammar and messages follow jansson's lexer and parser (load.c of jansson
 * 2.14): the same token boundaries ("1e5e" is a number and the word "e"),
 * the same first error, the same "near '...'" context (the token text when
 * at most 20 bytes, "near end of file" at the end).
 *
 * Duplicate keys (strict mode): every open object keeps its decoded keys
 * in an arena; small objects are searched linearly (hash and length
 * first), an object that grows past BIG_OBJECT keys gets a hash index of
 * its own.  Lenient mode keeps no keys: the last one is decoded into kbuf
 * only when it has escapes, for the caller or the located members.
 *
 * Fast paths.  The buffer is followed by TF_SCAN_PAD readable, defined
 * bytes, so string bodies, digit runs and words are read many bytes at a
 * time, stopping at the NUL sentinel.  Each token first tries its common
 * form (scan_str, fast_number, fast_word), which decides only what it can
 * decide alone and otherwise leaves the token to the general code above,
 * which decides and reports.  Likewise a value read whole or skipped goes
 * first through the fast path of scan_fast.h, a validator in locals for
 * values that lie whole in the buffer and use only the common forms (no
 * escapes, no non-ASCII bytes, no exponents, shallow nesting, strict: few
 * keys, none twice); on anything else it gives up and the general state
 * machine (scan_any) scans the value again from its start.  Both
 * therefore accept and locate exactly the same, and every error message
 * comes from the general code.  The fast path and the kernels the tokens
 * use (s->kern) are compiled for several instruction sets and chosen at
 * run time (scan_simd.h: portable, SSE2, AVX2, AVX-512); all give the
 * same results.
 */
#include "load/scan.h"
#include "load/scan_int.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/hash.h"
#include "base/jsonlite.h"
#include "base/utf8.h"

#include "load/scan_simd.h"

enum { BIG_OBJECT = 32, NEAR_MAX = 20 };

struct tf_scan_keyent {
    uint32_t hash;
    uint32_t len;
    size_t off; /* in the arena */
};

/* Bytes a string body passes over without a second look; bytes of a
 * number token. */
static unsigned char str_plain[256], num_byte[256];
uint64_t tf_scan_prefix_mask[9];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void fill_tables(void)
{
    for (int c = 0x20; c < 0x80; c++)
        str_plain[c] = c != '"' && c != '\\';
    for (int c = '0'; c <= '9'; c++)
        num_byte[c] = 1;
    num_byte['-'] = num_byte['+'] = num_byte['.'] = num_byte['e'] = num_byte['E'] = 1;
    for (size_t n = 0; n <= 8; n++) {
        unsigned char b[8] = {0};
        memset(b, 0xFF, n);
        memcpy(&tf_scan_prefix_mask[n], b, 8);
    }
}

/* Once per process, whichever thread scans first. */
void tf_scan_init_tables(void)
{
    pthread_once(&tables_once, fill_tables);
}

/* --- errors and positions ------------------------------------------------- */

static size_t count_chars(const unsigned char *p, size_t n)
{
    size_t k = 0;
    /* NUL bytes are not counted: the only ones jansson lets through are
     * those it drops without counting (see drop_nul_after_token). */
    for (size_t i = 0; i < n; i++)
        k += (p[i] & 0xC0) != 0x80 && p[i] != 0;
    return k;
}

/* Moves jansson's position over n bytes. */
static void advance_pos(long *line, long *col, const unsigned char *p, size_t n)
{
    size_t lines = 0;
    for (size_t i = 0; i < n; i++)
        lines += p[i] == '\n';
    if (lines == 0) {
        *col += (long)count_chars(p, n);
        return;
    }
    size_t k = n;
    while (p[k - 1] != '\n')
        k--;
    *line += (long)lines;
    *col = (long)count_chars(p + k, n - k);
}

struct pos {
    long line, col;
};

static void advance_piece(void *ctx, const unsigned char *p, size_t n)
{
    struct pos *at = ctx;
    advance_pos(&at->line, &at->col, p, n);
}

void tf_scan_locate(const struct tf_scan *s, size_t off, long *line, long *col)
{
    if (off > s->len)
        off = s->len;
    *line = s->line;
    *col = s->col;
    if (s->lazy_pos) {
        /* Nothing was counted while scanning: count the bytes before the
         * buffer now, from the input. */
        struct pos p = {*line, *col};
        tf_input_reread(s->in, s->start_off, s->base, advance_piece, &p);
        *line = p.line;
        *col = p.col;
    }
    advance_pos(line, col, s->buf, off);
}

/* The error msg at byte `at` of the buffer.  nul_token: a NUL byte right
 * before `at` is the error token, which jansson counts; otherwise it is
 * one jansson dropped after a token, not counted. */
static bool fail_msg(struct tf_scan *s, size_t at, bool nul_token, const char *msg)
{
    long line, col;
    tf_scan_locate(s, at, &line, &col);
    if (nul_token && at > 0 && at <= s->len && s->buf[at - 1] == '\0' &&
        s->dropped_nul != s->base + at)
        col++;
    s->failed = true;
    return tf_diag_error(s->d, TF_EBADINPUT, "%s:%ld:%ld: %s", s->file, line, col, msg);
}

static bool fail_at(struct tf_scan *s, size_t at, const char *fmt, ...) TF_PRINTF(3, 4);
static bool fail_at(struct tf_scan *s, size_t at, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return fail_msg(s, at, true, msg);
}

/* jansson's context rule: "MSG near 'TEXT'" for a token of 1..20 bytes,
 * "MSG" for a longer one, "MSG near end of file" when there is none.  The
 * error is located at `end`. */
static bool fail_near(struct tf_scan *s, const char *msg, size_t start, size_t end)
{
    size_t n = end - start;
    if (n == 0 || s->buf[start] == '\0')
        return fail_at(s, end, "%s near end of file", msg);
    if (n > NEAR_MAX)
        return fail_at(s, end, "%s", msg);
    return fail_at(s, end, "%s near '%.*s'", msg, (int)n, (const char *)s->buf + start);
}

/* As fail_near, with the context text ending before the error position
 * (jansson saves only the first byte of a multi-byte character). */
static bool fail_near_text(struct tf_scan *s, const char *msg, size_t start, size_t text_end,
                           size_t at)
{
    size_t n = text_end - start;
    if (n > NEAR_MAX)
        return fail_at(s, at, "%s", msg);
    return fail_at(s, at, "%s near '%.*s'", msg, (int)n, (const char *)s->buf + start);
}

static bool oom(struct tf_scan *s)
{
    s->failed = true;
    return tf_diag_oom(s->d, s->file);
}

/* --- the buffer --------------------------------------------------------- */

/* Reads more bytes.  False at the end of the input or on an error (then
 * s->failed is set).  Indices into buf move down by what is dropped. */
static bool refill(struct tf_scan *s)
{
    if (s->failed || s->eof)
        return false;
    size_t from = s->tok < s->pos ? s->tok : s->pos;
    if (s->keep < from)
        from = s->keep;
    if (from > 0) {
        if (!s->lazy_pos)
            advance_pos(&s->line, &s->col, s->buf, from);
        memmove(s->buf, s->buf + from, s->len - from);
        s->len -= from;
        s->pos -= from;
        s->tok -= from < s->tok ? from : s->tok;
        if (s->keep != SIZE_MAX)
            s->keep -= from;
        s->base += from;
    }
    if (s->len == s->cap) {
        size_t cap = s->cap * 2;
        if (s->max_buffer && cap > s->max_buffer) {
            /* What must be kept (from buf[0]) is one token or one value
             * read whole: a bomb, or a trace no one can draw. */
            return fail_at(s, 0, "value too large to scan (more than %zu MiB)",
                           s->max_buffer >> 20);
        }
        unsigned char *p = cap > s->cap ? realloc(s->buf, cap + 1 + TF_SCAN_PAD) : NULL;
        if (!p)
            return oom(s);
        /* Every byte stays defined: word-at-a-time loops read past len. */
        memset(p + s->cap + 1 + TF_SCAN_PAD, 0, cap - s->cap);
        s->buf = p;
        s->cap = cap;
    }
    ssize_t n = tf_input_read(s->in, s->buf + s->len, s->cap - s->len);
    if (n < 0) { /* reported by the input */
        s->failed = true;
        return false;
    }
    if (n == 0) {
        s->eof = true;
        s->buf[s->len] = '\0';
        return false;
    }
    s->len += (size_t)n;
    s->buf[s->len] = '\0';
    return true;
}

/* The byte at s->tok + rel (refilling as needed), or -1 at the end.  All
 * token scanning holds positions relative to the token start, which a
 * refill keeps. */
static int at_rel(struct tf_scan *s, size_t rel)
{
    while (s->tok + rel >= s->len) {
        size_t pos_rel = s->pos - s->tok;
        if (!refill(s)) {
            s->pos = s->tok + pos_rel;
            return -1;
        }
        s->pos = s->tok + pos_rel;
    }
    return s->buf[s->tok + rel];
}

/* Skips whitespace; returns the next byte (not consumed) or -1. */
static int skip_ws_slow(struct tf_scan *s)
{
    for (;;) {
        const unsigned char *b = s->buf;
        size_t i = s->pos;
        while (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')
            i++;
        s->pos = i;
        s->tok = i;
        if (i < s->len)
            return b[i];
        if (!refill(s))
            return -1;
    }
}

static inline int skip_ws(struct tf_scan *s)
{
    size_t i = s->pos;
    unsigned char c = s->buf[i];
    if (c > ' ') {
        s->tok = i;
        return c;
    }
    /* One space, as most writers put after ',' and ':'. */
    if (c == ' ' && s->buf[i + 1] > ' ') {
        s->pos = s->tok = i + 1;
        return s->buf[i + 1];
    }
    return skip_ws_slow(s);
}

/* --- UTF-8 ---------------------------------------------------------------- */

/* The multi-byte character at s->tok + *rel: checks it and moves *rel
 * past it.  jansson locates a bad sequence before its first byte. */
static bool scan_utf8(struct tf_scan *s, size_t *rel)
{
    unsigned char c = s->buf[s->tok + *rel];
    size_t n = tf_utf8_seq_len(c);
    bool ok = n > 0;
    if (ok && at_rel(s, *rel + n - 1) < 0) {
        if (s->failed)
            return false;
        ok = false;
    }
    if (ok && tf_utf8_decode(s->buf + s->tok + *rel, n) >= 0) {
        *rel += n;
        return true;
    }
    char msg[40];
    snprintf(msg, sizeof msg, "unable to decode byte 0x%x", c);
    /* Inside a token jansson adds the token so far as context.  Before
     * one, a NUL byte just before it was dropped after the last token. */
    if (*rel == 0)
        return fail_msg(s, s->tok, false, msg);
    return fail_near(s, msg, s->tok, s->tok + *rel);
}

/* --- tokens ------------------------------------------------------------- */

/* Eight bytes a string body passes over: no quote, backslash, control
 * byte or non-ASCII byte among them. */
static bool is_plain8(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
    uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
    uint64_t t = ((w - ones * 0x20) & ~w) | ((q - ones) & ~q) | ((b - ones) & ~b) | w;
    return (t & high) == 0;
}

/* A string token at s->pos (the quote).  On success s->pos is past the
 * closing quote and *esc tells whether it had escapes.  Lexical errors are
 * reported where jansson's lexer stops; the checks jansson makes after the
 * whole string (surrogate pairs while decoding, then \u0000) come after
 * them, at the end of the string. */
enum str_role {
    STR_VALUE, /* a value: \u0000 is jansson's parser error for values */
    STR_KEY,   /* a key: its own message */
    STR_NEAR   /* a token an error is near: the parser fails before it
                  looks for \u0000, so only lexical errors count */
};

static bool scan_string(struct tf_scan *s, bool *esc, enum str_role role)
{
    s->tok = s->pos;
    size_t r = 1;
    bool e = false, nul = false;
    char late[64];
    late[0] = '\0';
    uint32_t high = 0; /* a high surrogate waiting for its pair */
    for (;;) {
        if (high) {
            int ch = at_rel(s, r);
            if (ch != '\\') {
                if (!late[0])
                    snprintf(late, sizeof late, "invalid Unicode '\\u%04X'", (unsigned)high);
                high = 0;
            }
        }
        const unsigned char *b = s->buf + s->tok;
        size_t lim = s->len - s->tok;
        while (r + 8 <= lim && is_plain8(b + r))
            r += 8;
        while (str_plain[b[r]])
            r++;
        unsigned char c = b[r];
        if (r >= lim) {
            if (at_rel(s, r) < 0)
                return s->failed ? false
                                 : fail_near(s, "premature end of input", s->tok, s->tok + r);
            continue;
        }
        if (c == '"') {
            s->pos = s->tok + r + 1;
            *esc = e;
            if (late[0])
                return fail_near(s, late, s->tok, s->pos);
            if (nul && !s->lenient && role != STR_NEAR)
                return fail_near(s,
                                 role == STR_KEY ? "NUL byte in object key not supported"
                                                 : "\\u0000 is not allowed without JSON_ALLOW_NUL",
                                 s->tok, s->pos);
            return true;
        }
        if (c == '\\') {
            e = true;
            int c2 = at_rel(s, r + 1);
            if (c2 < 0) /* jansson: an escape of nothing */
                return s->failed ? false
                                 : fail_near(s, "invalid escape", s->tok, s->tok + r + 1);
            if (high && c2 != 'u') {
                if (!late[0])
                    snprintf(late, sizeof late, "invalid Unicode '\\u%04X'", (unsigned)high);
                high = 0;
            }
            if (c2 == 'u') {
                uint32_t v = 0;
                for (size_t k = 0; k < 4; k++) {
                    size_t h = r + 2 + k;
                    int ch = at_rel(s, h);
                    int hv = ch < 0 ? -1 : tf_jl_hexval(ch);
                    if (hv < 0) {
                        if (s->failed)
                            return false;
                        size_t end = h;
                        if (ch >= 0x80 && !scan_utf8(s, &end))
                            return false;
                        else if (ch >= 0 && ch < 0x80)
                            end = h + 1;
                        return fail_near_text(s, "invalid escape", s->tok,
                                              s->tok + (ch >= 0 ? h + 1 : h), s->tok + end);
                    }
                    v = (v << 4) | (uint32_t)hv;
                }
                r += 6;
                if (high) {
                    if (!(v >= 0xDC00 && v <= 0xDFFF) && !late[0])
                        snprintf(late, sizeof late, "invalid Unicode '\\u%04X\\u%04X'",
                                 (unsigned)high, (unsigned)v);
                    high = 0;
                } else if (v >= 0xD800 && v <= 0xDBFF) {
                    high = v;
                } else if (v >= 0xDC00 && v <= 0xDFFF) {
                    if (!late[0])
                        snprintf(late, sizeof late, "invalid Unicode '\\u%04X'", (unsigned)v);
                } else if (v == 0) {
                    nul = true;
                }
                continue;
            }
            if (c2 == '"' || c2 == '\\' || c2 == '/' || c2 == 'b' || c2 == 'f' || c2 == 'n' ||
                c2 == 'r' || c2 == 't') {
                r += 2;
                continue;
            }
            size_t end = r + 2;
            if (c2 >= 0x80) {
                end = r + 1;
                if (!scan_utf8(s, &end))
                    return false;
            }
            return fail_near_text(s, "invalid escape", s->tok, s->tok + r + 2, s->tok + end);
        }
        if (c < 0x20) {
            if (c == '\n')
                return fail_near(s, "unexpected newline", s->tok, s->tok + r);
            char msg[40];
            snprintf(msg, sizeof msg, "control character 0x%x", c);
            return fail_near(s, msg, s->tok, s->tok + r);
        }
        /* c >= 0x80 */
        if (!scan_utf8(s, &r))
            return false;
    }
}

/* scan_string, with the common case first: a string without escapes or
 * non-ASCII bytes, whole in the buffer. */
static inline bool scan_str(struct tf_scan *s, bool *esc, bool is_key)
{
    size_t r = s->kern->plain_run(s->buf + s->pos + 1);
    if (s->buf[s->pos + 1 + r] == '"') {
        s->tok = s->pos;
        s->pos += r + 2;
        *esc = false;
        return true;
    }
    return scan_string(s, esc, is_key ? STR_KEY : STR_VALUE);
}

/* The longest run of bytes of a class from s->pos, in the buffer whole (it
 * ends before a byte not in the class, or at the end of the input);
 * returns its length.  s->tok is its start. */
#define RUN_LEN(NAME, IN_SET)                                                                  \
    static size_t NAME(struct tf_scan *s)                                                      \
    {                                                                                          \
        s->tok = s->pos;                                                                       \
        size_t r = 0;                                                                          \
        for (;;) {                                                                             \
            const unsigned char *b = s->buf + s->tok;                                          \
            while (IN_SET(b[r]))                                                               \
                r++;                                                                           \
            if (s->tok + r < s->len || at_rel(s, r) < 0)                                       \
                return r;                                                                      \
        }                                                                                      \
    }

static inline bool num_char(int c)
{
    return num_byte[c];
}

bool tf_scan_alpha(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The NUL sentinel ends both runs. */
RUN_LEN(number_run, num_char)
RUN_LEN(word_run, tf_scan_alpha)

static bool is_digit(int c)
{
    return c >= '0' && c <= '9';
}

/* jansson's lexers read one character past a number or a word (the one
 * that ends it, or that makes it invalid) before deciding, and that read
 * fails on a bad UTF-8 sequence first, with the token so far as context.
 * The byte at s->tok + n is that character (it may need a refill). */
static bool lookahead_utf8(struct tf_scan *s, size_t n)
{
    int c = at_rel(s, n);
    if (c < 0x80)
        return !s->failed;
    size_t r = n;
    return scan_utf8(s, &r);
}

/* jansson's number lexer over p[0 .. n) (a run of number bytes, followed by
 * a byte that is not one).  Returns the length jansson consumes; *ok false
 * for an invalid token, whose saved text (and error position) is then the
 * returned length. */
static size_t lex_number(const unsigned char *p, size_t n, bool *ok, bool *is_int)
{
    size_t i = 0;
    int c = n ? p[0] : -1;
    *ok = false;
    *is_int = false;
    if (c == '-')
        c = ++i < n ? p[i] : -1;
    if (c == '0') {
        c = ++i < n ? p[i] : -1;
        if (is_digit(c))
            return i;
    } else if (is_digit(c)) {
        do
            c = ++i < n ? p[i] : -1;
        while (is_digit(c));
    } else {
        return i;
    }
    if (c != '.' && c != 'e' && c != 'E') {
        *ok = true;
        *is_int = true;
        return i;
    }
    if (c == '.') {
        c = ++i < n ? p[i] : -1;
        if (!is_digit(c))
            return i;
        do
            c = ++i < n ? p[i] : -1;
        while (is_digit(c));
    }
    if (c == 'e' || c == 'E') {
        c = ++i < n ? p[i] : -1;
        if (c == '+' || c == '-')
            c = ++i < n ? p[i] : -1;
        if (!is_digit(c))
            return i;
        do
            c = ++i < n ? p[i] : -1;
        while (is_digit(c));
    }
    *ok = true;
    return i;
}

/* Does the real p[0 .. n) overflow a double (jansson: "real number
 * overflow")?  Only numbers whose decimal exponent may exceed 300 are
 * converted. */
static bool real_overflows(const unsigned char *p, size_t n)
{
    size_t i = p[0] == '-' ? 1 : 0;
    long mag = 0;
    bool lead = true;
    for (; i < n && is_digit(p[i]); i++) {
        if (lead && p[i] == '0')
            continue;
        lead = false;
        mag++;
    }
    if (i < n && p[i] == '.')
        for (i++; i < n && is_digit(p[i]); i++) {
            if (!lead)
                break;
            if (p[i] != '0')
                lead = false;
            else
                mag--;
        }
    while (i < n && is_digit(p[i]))
        i++;
    long ex = 0;
    if (i < n && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        bool neg = i < n && p[i] == '-';
        if (i < n && (p[i] == '+' || p[i] == '-'))
            i++;
        for (; i < n; i++)
            if (ex < 100000)
                ex = ex * 10 + (p[i] - '0');
        if (neg)
            ex = -ex;
    }
    if (mag + ex <= 300)
        return false;
    char small[64];
    char *text = n < sizeof small ? small : malloc(n + 1);
    if (!text)
        return false;
    memcpy(text, p, n);
    text[n] = '\0';
    errno = 0;
    double v = strtod(text, NULL);
    bool over = errno == ERANGE && (v == HUGE_VAL || v == -HUGE_VAL);
    if (text != small)
        free(text);
    return over;
}

/* jansson quirk: the byte after a number or a word is read and put back;
 * when it is a NUL byte its stream then takes the buffer for empty and
 * reads on, so that one NUL byte is dropped.  Do the same.  The token
 * itself ends at s->tok_end. */
static inline void drop_nul_after_token(struct tf_scan *s)
{
    s->tok_end = s->pos;
    if (s->buf[s->pos] != '\0')
        return;
    if (s->pos >= s->len && at_rel(s, s->pos - s->tok) < 0)
        return;
    if (s->buf[s->pos] == '\0') {
        s->tok_end = s->pos;
        s->dropped_nul = s->base + s->pos + 1;
        s->pos++;
    }
}

/* scan_number's common case (see number_len); false: take the general
 * path. */
static inline bool fast_number(struct tf_scan *s, bool *is_int)
{
    size_t n = s->kern->number_len(s->buf + s->pos, s->lenient, is_int);
    if (n == 0)
        return false;
    s->tok = s->pos;
    s->pos += n;
    s->tok_end = s->pos;
    return true;
}

/* A number token at s->pos.  On success s->pos is past it. */
static bool scan_number(struct tf_scan *s, bool *is_int)
{
    size_t run = number_run(s);
    if (s->failed)
        return false;
    bool ok;
    size_t n = lex_number(s->buf + s->tok, run, &ok, is_int);
    if (!lookahead_utf8(s, n))
        return false;
    const unsigned char *p = s->buf + s->tok;
    if (!ok)
        return fail_near(s, "invalid token", s->tok, s->tok + n);
    s->pos = s->tok + n;
    if (s->lenient) {
        /* any magnitude */
    } else if (*is_int) {
        size_t neg = p[0] == '-';
        size_t digits = n - neg;
        static const char max_pos[] = "9223372036854775807";
        static const char max_neg[] = "9223372036854775808";
        if (digits > 19 ||
            (digits == 19 && memcmp(p + neg, neg ? max_neg : max_pos, 19) > 0))
            return fail_near(s, neg ? "too big negative integer" : "too big integer", s->tok,
                             s->pos);
    } else if (real_overflows(p, n)) {
        return fail_near(s, "real number overflow", s->tok, s->pos);
    }
    drop_nul_after_token(s);
    return true;
}

enum tf_jtok tf_scan_word_kind(const unsigned char *p, size_t n)
{
    if (n == 4 && memcmp(p, "true", 4) == 0)
        return TF_JT_TRUE;
    if (n == 5 && memcmp(p, "false", 5) == 0)
        return TF_JT_FALSE;
    if (n == 4 && memcmp(p, "null", 4) == 0)
        return TF_JT_NULL;
    return TF_JT_NONE;
}

/* scan_word's common case; false: take the general path. */
static inline bool fast_word(struct tf_scan *s, enum tf_jtok *kind)
{
    size_t n = tf_scan_word_len(s->buf + s->pos, kind);
    if (n == 0)
        return false;
    s->tok = s->pos;
    s->pos += n;
    s->tok_end = s->pos;
    return true;
}

/* A word token (true, false, null) at s->pos; jansson reads the whole run
 * of letters first. */
static bool scan_word(struct tf_scan *s, enum tf_jtok *kind)
{
    size_t n = word_run(s);
    if (s->failed || !lookahead_utf8(s, n))
        return false;
    *kind = tf_scan_word_kind(s->buf + s->tok, n);
    if (*kind == TF_JT_NONE)
        return fail_near(s, "invalid token", s->tok, s->tok + n);
    s->pos = s->tok + n;
    drop_nul_after_token(s);
    return true;
}

/* The parser found a token it did not expect at s->pos: lexes that token as
 * jansson would (a lexical error in it wins) and reports `msg` near it.
 * At a value position the caller passes "unexpected token", which jansson
 * says only of structural tokens; anything else there is an "invalid
 * token". */
static bool bad_token(struct tf_scan *s, const char *msg)
{
    if (s->failed)
        return false;
    s->tok = s->pos;
    int c = at_rel(s, 0);
    if (c < 0)
        return s->failed ? false : fail_near(s, msg, s->tok, s->tok);
    bool at_value = strcmp(msg, "unexpected token") == 0;
    if (c == '"') {
        bool esc;
        if (!scan_string(s, &esc, STR_NEAR))
            return false;
    } else if (c == '-' || is_digit(c)) {
        /* jansson's lexer reports range errors itself, but leaves a
         * malformed number to the parser, as a token near which it
         * expected something else. */
        size_t run = number_run(s);
        if (s->failed)
            return false;
        bool ok, is_int;
        size_t n = lex_number(s->buf + s->tok, run, &ok, &is_int);
        if (!lookahead_utf8(s, n))
            return false;
        if (!ok) {
            if (at_value)
                msg = "invalid token";
            return fail_near(s, msg, s->tok, s->tok + n);
        }
        s->pos = s->tok;
        if (!scan_number(s, &is_int))
            return false;
        s->pos = s->tok_end;
    } else if (tf_scan_alpha(c)) {
        size_t n = word_run(s);
        if (s->failed)
            return false;
        if (!lookahead_utf8(s, n))
            return false;
        if (tf_scan_word_kind(s->buf + s->tok, n) == TF_JT_NONE && at_value)
            msg = "invalid token";
        s->pos = s->tok + n;
    } else if (c >= 0x80) {
        size_t r = 0;
        if (!scan_utf8(s, &r))
            return false;
        s->pos = s->tok + r;
        if (at_value)
            msg = "invalid token";
    } else {
        s->pos = s->tok + 1;
        if (at_value && !(c == '{' || c == '}' || c == '[' || c == ']' || c == ':' || c == ','))
            msg = "invalid token";
    }
    return fail_near(s, msg, s->tok, s->pos);
}

/* --- containers and keys ------------------------------------------------ */

/* Lenient mode: room for twice the depth. */
static bool grow_stack(struct tf_scan *s)
{
    size_t cap = s->cap_stack * 2;
    unsigned char *st = cap > s->cap_stack ? realloc(s->stack, cap) : NULL;
    if (st)
        s->stack = st;
    bool *first = st ? realloc(s->first, (cap + 1) * sizeof *first) : NULL;
    if (!first)
        return oom(s);
    s->first = first;
    if (s->lvl_key0) {
        /* A strict scan switched to lenient: the per-depth key records
         * grow too (one entry per depth 0 .. cap + 1). */
        size_t *k0 = realloc(s->lvl_key0, (cap + 2) * sizeof *k0);
        if (k0)
            s->lvl_key0 = k0;
        uint32_t **idx = k0 ? realloc(s->lvl_index, (cap + 2) * sizeof *idx) : NULL;
        if (idx)
            s->lvl_index = idx;
        size_t *icap = idx ? realloc(s->lvl_index_cap, (cap + 2) * sizeof *icap) : NULL;
        if (!icap)
            return oom(s);
        s->lvl_index_cap = icap;
        for (size_t i = s->cap_stack + 2; i < cap + 2; i++) {
            s->lvl_index[i] = NULL;
            s->lvl_index_cap[i] = 0;
        }
    }
    s->cap_stack = cap;
    return true;
}

static inline bool push(struct tf_scan *s, unsigned char c)
{
    size_t d = s->depth;
    if (d + 1 >= s->cap_stack && !grow_stack(s))
        return false;
    s->stack[d] = c;
    s->first[d + 1] = true;
    if (s->lvl_key0)
        s->lvl_key0[d + 1] = s->n_keys;
    s->depth = d + 1;
    return true;
}

static inline void pop(struct tf_scan *s)
{
    size_t d = s->depth;
    if (s->lvl_key0 && s->stack[d - 1] == '{') {
        size_t k0 = s->lvl_key0[d];
        if (k0 < s->n_keys)
            s->n_arena = s->keys[k0].off;
        s->n_keys = k0;
        if (s->lvl_index[d]) {
            free(s->lvl_index[d]);
            s->lvl_index[d] = NULL;
            s->lvl_index_cap[d] = 0;
        }
    }
    s->depth = d - 1;
}

static bool index_put(uint32_t *slots, size_t cap, const struct tf_scan_keyent *keys,
                      size_t k)
{
    size_t m = cap - 1, h = keys[k].hash & m;
    while (slots[h])
        h = (h + 1) & m;
    slots[h] = (uint32_t)(k + 1);
    return true;
}

/* (Re)builds the hash index of the object at depth d. */
static bool index_build(struct tf_scan *s, size_t d, size_t cap)
{
    uint32_t *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return oom(s);
    free(s->lvl_index[d]);
    s->lvl_index[d] = slots;
    s->lvl_index_cap[d] = cap;
    for (size_t k = s->lvl_key0[d]; k < s->n_keys; k++)
        index_put(slots, cap, s->keys, k);
    return true;
}

/* Adds the decoded key text[0 .. n) to the innermost object; false (with
 * *dup set) when it is there already. */
static bool add_key(struct tf_scan *s, const char *text, size_t n, bool *dup)
{
    *dup = false;
    size_t d = s->depth;
    uint32_t h = tf_fnv1a(text, n);
    size_t k0 = s->lvl_key0[d];
    if (s->lvl_index[d]) {
        size_t m = s->lvl_index_cap[d] - 1;
        for (size_t j = h & m; s->lvl_index[d][j]; j = (j + 1) & m) {
            const struct tf_scan_keyent *e = &s->keys[s->lvl_index[d][j] - 1];
            if (e->hash == h && e->len == n && memcmp(s->arena + e->off, text, n) == 0) {
                *dup = true;
                return false;
            }
        }
    } else {
        for (size_t k = k0; k < s->n_keys; k++) {
            const struct tf_scan_keyent *e = &s->keys[k];
            if (e->hash == h && e->len == n && memcmp(s->arena + e->off, text, n) == 0) {
                *dup = true;
                return false;
            }
        }
    }
    if (!TF_GROW(s->keys, s->n_keys, s->cap_keys))
        return oom(s);
    /* Room for bytes n_arena .. n_arena + n - 1 of the key arena. */
    if (n && !TF_GROW(s->arena, s->n_arena + n - 1, s->cap_arena))
        return oom(s);
    if (n)
        memcpy(s->arena + s->n_arena, text, n);
    s->keys[s->n_keys] = (struct tf_scan_keyent){h, (uint32_t)n, s->n_arena};
    s->n_arena += n;
    s->n_keys++;
    size_t count = s->n_keys - k0;
    if (s->lvl_index[d]) {
        if (count * 2 > s->lvl_index_cap[d])
            return index_build(s, d, s->lvl_index_cap[d] * 2);
        index_put(s->lvl_index[d], s->lvl_index_cap[d], s->keys, s->n_keys - 1);
    } else if (count > BIG_OBJECT) {
        return index_build(s, d, 256);
    }
    return true;
}

/* Decodes the (valid) string token raw[0 .. n) without its quotes into out,
 * which has room for n bytes; returns the decoded length. */
size_t tf_scan_decode_string(const unsigned char *raw, size_t n, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        if (raw[i] != '\\') {
            out[o++] = (char)raw[i++];
            continue;
        }
        unsigned char c = raw[i + 1];
        i += 2;
        switch (c) {
        case 'b': out[o++] = '\b'; break;
        case 'f': out[o++] = '\f'; break;
        case 'n': out[o++] = '\n'; break;
        case 'r': out[o++] = '\r'; break;
        case 't': out[o++] = '\t'; break;
        case 'u': {
            uint32_t v = 0;
            for (int k = 0; k < 4; k++)
                v = (v << 4) | (uint32_t)tf_jl_hexval(raw[i + (size_t)k]);
            i += 4;
            if (v >= 0xD800 && v <= 0xDBFF && i + 6 <= n && raw[i] == '\\') {
                uint32_t lo = 0;
                for (int k = 0; k < 4; k++)
                    lo = (lo << 4) | (uint32_t)tf_jl_hexval(raw[i + 2 + (size_t)k]);
                i += 6;
                v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
            }
            o += tf_utf8_encode(v, out + o);
            break;
        }
        default: out[o++] = (char)c; break;
        }
    }
    return o;
}

/* A key at s->pos (must be a string; the caller checked the quote): scans
 * it and, in strict mode, checks it is new in its object.  *text / *len
 * are the decoded key: strict, in the key arena until the object closes;
 * lenient, in the buffer or s->kbuf until the scanner reads on.  The caller
 * then reads the ':' (scan_colon). */
static bool scan_key(struct tf_scan *s, const char **text, size_t *len)
{
    bool esc;
    if (!scan_str(s, &esc, true))
        return false;
    const unsigned char *raw = s->buf + s->tok + 1;
    size_t n = s->pos - s->tok - 2;
    if (s->lenient) {
        if (!esc) {
            *text = (const char *)raw;
            *len = n;
            return true;
        }
        if (n > s->cap_kbuf) {
            char *k = realloc(s->kbuf, n);
            if (!k)
                return oom(s);
            s->kbuf = k;
            s->cap_kbuf = n;
        }
        *len = tf_scan_decode_string(raw, n, s->kbuf);
        *text = s->kbuf;
        return true;
    }
    char small[128];
    char *dec = !esc ? NULL : n <= sizeof small ? small : malloc(n);
    if (esc && !dec)
        return oom(s);
    size_t dlen = esc ? tf_scan_decode_string(raw, n, dec) : n;
    bool dup = false;
    size_t key_off = s->n_arena;
    bool added = add_key(s, esc ? dec : (const char *)raw, dlen, &dup);
    if (dec && dec != small)
        free(dec);
    if (dup)
        return fail_near(s, "duplicate object key", s->tok, s->pos);
    if (!added)
        return false;
    *text = s->arena + key_off;
    *len = dlen;
    return true;
}

static bool scan_colon(struct tf_scan *s)
{
    int c = skip_ws(s);
    if (c != ':')
        return bad_token(s, "':' expected");
    s->pos++;
    return true;
}

/* A value would be deeper than jansson goes.  jansson lexes the token
 * first (a lexical error in it wins) and then refuses it for its depth,
 * whatever it is: "maximum parsing depth reached near 'Y'" even for a
 * token that is not one. */
static bool too_deep(struct tf_scan *s)
{
    return bad_token(s, "maximum parsing depth reached");
}

enum tf_jtok tf_scan_kind_of(int c)
{
    switch (c) {
    case '{': return TF_JT_OBJECT;
    case '[': return TF_JT_ARRAY;
    case '"': return TF_JT_STRING;
    case 't': return TF_JT_TRUE;
    case 'f': return TF_JT_FALSE;
    case 'n': return TF_JT_NULL;
    default: return c == '-' || is_digit(c) ? TF_JT_NUMBER : TF_JT_NONE;
    }
}

/* Notes the names of the members to locate (and their lengths), unless
 * they are those of the last call. */
static void learn_names(struct tf_scan *s, const struct tf_scan_field *fields, size_t nf)
{
    bool same = nf == s->n_fname;
    for (size_t i = 0; same && i < nf; i++)
        same = fields[i].name == s->fname[i];
    if (same)
        return;
    memset(s->fmask, 0, sizeof s->fmask);
    for (size_t i = 0; i < nf; i++) {
        s->fname[i] = fields[i].name;
        s->flen[i] = strlen(fields[i].name);
        s->fword[i] = 0;
        if (s->flen[i] <= 8)
            memcpy(&s->fword[i], fields[i].name, s->flen[i]);
        if (s->flen[i] < 64)
            s->fmask[s->flen[i]] |= (uint16_t)(1u << i);
    }
    s->n_fname = nf;
}

/* Lenient: a comma before a closing bracket, at file offset `off`, inside
 * a value being read whole, becomes a blank in the buffer, so the value's
 * bytes are valid JSON for whoever reads them next (jsonlite, jansson).
 * Always true: the caller then closes the container. */
static bool trailing_comma(struct tf_scan *s, uint64_t off)
{
    if (s->keep != SIZE_MAX && off >= s->base && off - s->base < s->len &&
        s->buf[off - s->base] == ',')
        s->buf[off - s->base] = ' ';
    return true;
}

/* Scans one whole value at the current position.  Members named in
 * fields[] of the value itself (when it is an object) are located,
 * relative to the file offset vstart. */
static bool scan_any(struct tf_scan *s, struct tf_scan_field *fields, size_t nf,
                     uint64_t vstart)
{
    const size_t d0 = s->depth;
    const size_t cap_level = d0 + 1;
    if (nf > TF_SCAN_MAX_FIELDS)
        nf = TF_SCAN_MAX_FIELDS;
    if (nf)
        learn_names(s, fields, nf);
    struct tf_scan_field *cur = NULL, *open_field = NULL;
    int c = skip_ws(s);
value:
    if (c < 0) {
        if (s->failed)
            return false;
        return bad_token(s, s->depth > 0 && s->stack[s->depth - 1] == '[' ? "']' expected"
                                                                           : "unexpected token");
    }
    if (s->depth + 1 > s->max_depth)
        return too_deep(s);
    if (cur) {
        cur->type = tf_scan_kind_of(c);
        cur->off = (size_t)(s->base + s->pos - vstart);
    }
    switch (c) {
    case '{':
        if (!push(s, '{'))
            return false;
        s->pos++;
        if (cur)
            open_field = cur, cur = NULL;
        c = skip_ws(s);
        if (c == '}') {
            s->pos++;
            pop(s);
            goto after;
        }
        goto key;
    case '[':
        if (!push(s, '['))
            return false;
        s->pos++;
        if (cur)
            open_field = cur, cur = NULL;
        c = skip_ws(s);
        if (c == ']') {
            s->pos++;
            pop(s);
            goto after;
        }
        goto value;
    case '"': {
        bool esc;
        if (!scan_str(s, &esc, false))
            return false;
        if (cur) {
            cur->off = (size_t)(s->base + s->tok + 1 - vstart);
            cur->len = s->pos - s->tok - 2;
            cur->escaped = esc;
            cur = NULL;
        }
        goto after;
    }
    case 't':
    case 'f':
    case 'n': {
        enum tf_jtok k;
        if (!fast_word(s, &k) && !scan_word(s, &k))
            return false;
        if (cur) {
            cur->type = k;
            cur->len = s->tok_end - s->tok;
            cur = NULL;
        }
        goto after;
    }
    default:
        if (c == '-' || is_digit(c)) {
            bool is_int;
            if (!fast_number(s, &is_int) && !scan_number(s, &is_int))
                return false;
            if (cur) {
                cur->len = s->tok_end - s->tok;
                cur->is_int = is_int;
                cur = NULL;
            }
            goto after;
        }
        return bad_token(s, "unexpected token");
    }

after:
    if (open_field && s->depth == cap_level) {
        open_field->len = (size_t)(s->base + s->pos - vstart) - open_field->off;
        open_field = NULL;
    }
    if (s->depth == d0)
        return true;
    c = skip_ws(s);
    if (s->stack[s->depth - 1] == '{') {
        if (c == ',') {
            uint64_t comma = s->base + s->pos;
            s->pos++;
            c = skip_ws(s);
            if (c == '}' && s->trailing && trailing_comma(s, comma))
                goto after_comma;
            goto key;
        }
        if (c == '}') {
            s->pos++;
            pop(s);
            goto after;
        }
        return bad_token(s, "'}' expected");
    }
    if (c == ',') {
        uint64_t comma = s->base + s->pos;
        s->pos++;
        c = skip_ws(s);
        if (c == ']' && s->trailing && trailing_comma(s, comma))
            goto after_comma;
        goto value;
    }
    if (c == ']') {
        s->pos++;
        pop(s);
        goto after;
    }
    return bad_token(s, "']' expected");

after_comma:
    /* Lenient: a trailing comma, now blank; the container ends here. */
    s->pos++;
    pop(s);
    goto after;

key:
    if (c != '"')
        return bad_token(s, "string or '}' expected");
    {
        const char *k;
        size_t klen;
        /* Lenient: a plain key whole in the buffer needs nothing more. */
        const unsigned char *b = s->buf + s->pos;
        size_t r = s->kern->plain_run(b + 1);
        if (s->lenient && b[r + 1] == '"') {
            k = (const char *)b + 1;
            klen = r;
            s->tok = s->pos;
            s->pos += r + 2;
        } else if (!scan_key(s, &k, &klen)) {
            return false;
        }
        if (s->depth == cap_level && nf) {
            size_t i = tf_scan_match_name(s, k, klen);
            if (i < nf) {
                cur = &fields[i];
                cur->escaped = cur->is_int = false; /* a key seen again */
            }
        }
        if (s->buf[s->pos] == ':')
            s->pos++;
        else if (!scan_colon(s))
            return false;
    }
    c = skip_ws(s);
    goto value;
}

/* --- the public walk ---------------------------------------------------- */

bool tf_scan_init(struct tf_scan *s, struct tf_input *in, const char *file, size_t chunk,
                  unsigned flags, struct tf_diag *d)
{
    tf_scan_init_tables();
    memset(s, 0, sizeof *s);
    s->in = in;
    s->file = file;
    s->d = d;
    s->line = 1;
    s->col = 0;
    s->keep = SIZE_MAX;
    s->lenient = (flags & TF_SCAN_LENIENT) != 0;
    s->trailing = s->lenient || (flags & TF_SCAN_TRAILING_COMMAS) != 0;
    s->max_buffer = TF_SCAN_MAX_BUFFER;
    s->kern = tf_scan_kernels();
    s->cap = chunk ? chunk : TF_SCAN_CHUNK;
    s->buf = calloc(s->cap + 1 + TF_SCAN_PAD, 1);
    bool ok = s->buf != NULL;
    if (s->lenient) {
        s->max_depth = SIZE_MAX - 1;
        s->cap_stack = 64;
    } else {
        s->max_depth = TF_SCAN_MAX_DEPTH;
        s->cap_stack = TF_SCAN_MAX_DEPTH + 2;
        /* per depth 0 .. cap_stack + 1 (see grow_stack) */
        s->lvl_key0 = calloc(s->cap_stack + 2, sizeof *s->lvl_key0);
        s->lvl_index = calloc(s->cap_stack + 2, sizeof *s->lvl_index);
        s->lvl_index_cap = calloc(s->cap_stack + 2, sizeof *s->lvl_index_cap);
        /* The key arena always exists, so even an empty key has an address. */
        s->cap_arena = 4096;
        s->arena = malloc(s->cap_arena);
        ok = ok && s->lvl_key0 && s->lvl_index && s->lvl_index_cap && s->arena;
    }
    s->stack = malloc(s->cap_stack);
    s->first = malloc((s->cap_stack + 1) * sizeof *s->first);
    if (!ok || !s->stack || !s->first) {
        tf_scan_fini(s);
        return tf_diag_oom(d, file);
    }
    s->start_off = s->base = tf_input_offset(in);
    s->lazy_pos = tf_input_can_seek(in);
    return true;
}

void tf_scan_fini(struct tf_scan *s)
{
    free(s->buf);
    if (s->lvl_index)
        for (size_t i = 0; i < s->cap_stack + 2; i++)
            free(s->lvl_index[i]);
    free(s->lvl_index);
    free(s->lvl_index_cap);
    free(s->lvl_key0);
    free(s->keys);
    free(s->arena);
    free(s->stack);
    free(s->first);
    free(s->kbuf);
    memset(s, 0, sizeof *s);
}

bool tf_scan_begin(struct tf_scan *s, enum tf_jtok *kind)
{
    int c = skip_ws(s);
    if (c != '{' && c != '[')
        return bad_token(s, "'[' or '{' expected");
    if (!push(s, (unsigned char)c))
        return false;
    s->pos++;
    *kind = c == '{' ? TF_JT_OBJECT : TF_JT_ARRAY;
    return true;
}

bool tf_scan_key(struct tf_scan *s, char *key, size_t cap, size_t *key_len, bool *more)
{
    *more = false;
    if (s->failed)
        return false;
    int c = skip_ws(s);
    if (c == '}') {
        s->pos++;
        pop(s);
        return true;
    }
    if (!s->first[s->depth]) {
        if (c != ',')
            return bad_token(s, "'}' expected");
        s->pos++;
        c = skip_ws(s);
        if (c == '}' && s->trailing) { /* a trailing comma */
            s->pos++;
            pop(s);
            return true;
        }
    }
    if (c != '"')
        return bad_token(s, "string or '}' expected");
    const char *k;
    size_t klen;
    if (!scan_key(s, &k, &klen))
        return false;
    if (cap) {
        size_t n = klen < cap - 1 ? klen : cap - 1;
        if (n)
            memcpy(key, k, n);
        key[n] = '\0';
    }
    if (!scan_colon(s))
        return false;
    s->first[s->depth] = false;
    *key_len = klen;
    *more = true;
    return true;
}

bool tf_scan_next(struct tf_scan *s, bool *more)
{
    *more = false;
    if (s->failed)
        return false;
    int c = skip_ws(s);
    if (c == ']') {
        s->pos++;
        pop(s);
        return true;
    }
    /* Lenient: the Trace Event Format lets a top-level array end with the
     * file, after an element or after its comma. */
    bool open_end = s->lenient && s->depth == 1 && s->stack[0] == '[';
    if (c < 0 && open_end && !s->failed && !s->first[1]) {
        pop(s);
        return true;
    }
    if (!s->first[s->depth]) {
        if (c != ',')
            return bad_token(s, "']' expected");
        s->pos++;
        if (open_end && skip_ws(s) < 0 && !s->failed) {
            pop(s);
            return true;
        }
        if (s->trailing && skip_ws(s) == ']') { /* a trailing comma */
            s->pos++;
            pop(s);
            return true;
        }
    } else if (c < 0) {
        return bad_token(s, "']' expected");
    }
    s->first[s->depth] = false;
    *more = true;
    return true;
}

bool tf_scan_set_flags(struct tf_scan *s, unsigned flags)
{
    bool lenient = (flags & TF_SCAN_LENIENT) != 0;
    if (!lenient && !s->lvl_key0)
        return false; /* began lenient: no key records to check against */
    s->lenient = lenient;
    s->trailing = lenient || (flags & TF_SCAN_TRAILING_COMMAS) != 0;
    s->max_depth = lenient ? SIZE_MAX - 1 : TF_SCAN_MAX_DEPTH;
    return true;
}

enum tf_jtok tf_scan_peek(struct tf_scan *s)
{
    if (s->failed)
        return TF_JT_NONE;
    return tf_scan_kind_of(skip_ws(s));
}

bool tf_scan_enter(struct tf_scan *s)
{
    if (s->failed)
        return false;
    int c = skip_ws(s);
    if (c != '{' && c != '[')
        return bad_token(s, "unexpected token");
    if (s->depth + 1 > s->max_depth)
        return too_deep(s);
    if (!push(s, (unsigned char)c))
        return false;
    s->pos++;
    return true;
}

bool tf_scan_value(struct tf_scan *s, const unsigned char **data, size_t *len,
                   struct tf_scan_field *fields, size_t n_fields)
{
    for (size_t i = 0; i < n_fields; i++) {
        fields[i].type = TF_JT_NONE;
        fields[i].off = fields[i].len = 0;
        fields[i].escaped = fields[i].is_int = false;
    }
    if (s->failed)
        return false;
    skip_ws(s);
    if (s->depth + TF_SCAN_FAST_DEPTH < s->max_depth) {
        size_t nf = n_fields < TF_SCAN_MAX_FIELDS ? n_fields : TF_SCAN_MAX_FIELDS;
        if (nf)
            learn_names(s, fields, nf);
        size_t n = s->kern->value(s, s->buf + s->pos, fields, nf);
        if (n) {
            *data = s->buf + s->pos;
            *len = n;
            s->pos += n;
            return true;
        }
        for (size_t i = 0; i < nf; i++) {
            fields[i].type = TF_JT_NONE;
            fields[i].off = fields[i].len = 0;
            fields[i].escaped = fields[i].is_int = false;
        }
    }
    s->keep = s->pos;
    uint64_t vstart = s->base + s->pos;
    bool ok = scan_any(s, fields, n_fields, vstart);
    *data = s->buf + (size_t)(vstart - s->base);
    *len = (size_t)(s->base + s->pos - vstart);
    s->keep = SIZE_MAX;
    return ok;
}

bool tf_scan_skip(struct tf_scan *s)
{
    if (s->failed)
        return false;
    if (s->depth + TF_SCAN_FAST_DEPTH < s->max_depth) {
        skip_ws(s);
        size_t n = s->kern->value(s, s->buf + s->pos, NULL, 0);
        if (n) {
            s->pos += n;
            return true;
        }
    }
    return scan_any(s, NULL, 0, s->base + s->pos);
}

bool tf_scan_finish(struct tf_scan *s)
{
    if (s->failed)
        return false;
    int c = skip_ws(s);
    if (c >= 0)
        return bad_token(s, "end of file expected");
    return !s->failed;
}

bool tf_scan_mark(struct tf_scan *s, struct tf_scan_mark *m)
{
    if (s->failed)
        return false;
    skip_ws(s);
    if (s->depth > sizeof m->stack)
        return false;
    m->off = s->base + s->pos;
    m->line = m->col = 0;
    if (!s->lazy_pos)
        tf_scan_locate(s, s->pos, &m->line, &m->col);
    m->depth = s->depth;
    memcpy(m->stack, s->stack, s->depth);
    return true;
}

bool tf_scan_seek(struct tf_scan *s, const struct tf_scan_mark *m)
{
    if (s->failed)
        return false;
    while (s->depth > 0)
        pop(s);
    s->keep = SIZE_MAX;
    if (m->off >= s->base && m->off <= s->base + s->len) {
        /* Still in the buffer (the next block of a second pass usually
         * is): no input seek, and buf[0]'s position stays right. */
        s->pos = s->tok = (size_t)(m->off - s->base);
    } else {
        if (!tf_input_seek(s->in, m->off)) { /* reported by the input */
            s->failed = true;
            return false;
        }
        s->len = s->pos = s->tok = 0;
        s->buf[0] = '\0';
        s->base = m->off;
        s->eof = false;
        if (!s->lazy_pos) {
            s->line = m->line;
            s->col = m->col;
        }
    }
    for (size_t i = 0; i < m->depth; i++)
        if (!push(s, m->stack[i]))
            return false;
    for (size_t i = 1; i <= m->depth; i++)
        s->first[i] = false;
    return true;
}

const char *tf_jtok_name(enum tf_jtok k)
{
    switch (k) {
    case TF_JT_OBJECT: return "an object";
    case TF_JT_ARRAY: return "an array";
    case TF_JT_STRING: return "a string";
    case TF_JT_NUMBER: return "a number";
    case TF_JT_TRUE:
    case TF_JT_FALSE: return "a boolean";
    case TF_JT_NULL: return "null";
    case TF_JT_NONE: break;
    }
    return "nothing";
}
