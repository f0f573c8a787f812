/* scan_fast.h - the scanner's fast path and its kernels, a template that
 * scan_fast.c includes once per instruction set (see scan_simd.h).
 *
 * Before including it, define TF_FAST_ISA (0 portable, 1 SSE2, 2 AVX2,
 * 3 AVX-512), TF_FAST_SUFFIX (appended to every name) and TF_FAST_TARGET
 * (the target attribute of every function, or nothing).  It defines the
 * kernels (plain_run, digit_run, ws_run, number_len) and value, the fast
 * validator of a whole value, and a struct tf_scan_kernels naming them,
 * kernels_SUFFIX.
 *
 * value: the value at p, when it lies whole in the buffer and is made of
 * the common forms only (strings without escapes or non-ASCII bytes,
 * numbers as number_len takes them, words, containers nested at most
 * FAST_DEPTH deep; strict: objects of at most FAST_KEYS keys in all open
 * at once, no key twice).  Returns its length, with the members named in
 * fields[0 .. nf) located as scan.c's scan_any does; 0 when it meets
 * anything else (the NUL sentinel at the end of the buffer is such a
 * thing), and the caller scans the value again on the general path, which
 * alone reports errors.  Everything is in locals, so the compiler keeps it
 * in registers.  The kernels differ only in how many bytes they look at
 * at once; their results, and so value's, are the same for every set.
 *
 * Measured and not kept: value walking a structural index instead (per
 * 64 bytes from the value's start, the bits of its quotes, brackets,
 * colons, commas, scalar starts and the bytes it declines, the strings'
 * extent by a prefix XOR of the quotes; AVX2): on a 100 MB Kineto trace,
 * 1 905 M instructions against 1 703 M (callgrind, a 100 ms window), and
 * on 1 GB no faster (1.34 s against 1.28 s, one thread, best of 4).  The
 * blocks begin at each value, so the next value reads its last one again;
 * a pop of the index costs about what the byte walk's step does here.
 */

#define TF_FAST_CAT2(a, b) a##_##b
#define TF_FAST_CAT(a, b) TF_FAST_CAT2(a, b)
#define F(name) TF_FAST_CAT(name, TF_FAST_SUFFIX)
#define FAST_FN static inline __attribute__((always_inline)) TF_FAST_TARGET

/* --- the kernels ---------------------------------------------------------- */

#if TF_FAST_ISA == 0

/* Eight bytes a string body passes over: no quote, backslash, control
 * byte or non-ASCII byte among them. */
FAST_FN bool F(is_plain8)(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
    uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
    uint64_t t = ((w - ones * 0x20) & ~w) | ((q - ones) & ~q) | ((b - ones) & ~b) | w;
    return (t & high) == 0;
}

FAST_FN size_t F(plain_run_in)(const unsigned char *p)
{
    size_t r = 0;
    while (F(is_plain8)(p + r))
        r += 8;
    while (p[r] >= 0x20 && p[r] < 0x80 && p[r] != '"' && p[r] != '\\')
        r++;
    return r;
}

FAST_FN size_t F(digit_run_in)(const unsigned char *p)
{
    size_t r = 0;
    while (p[r] >= '0' && p[r] <= '9')
        r++;
    return r;
}

FAST_FN size_t F(ws_run_in)(const unsigned char *p)
{
    size_t r = 0;
    while (p[r] == ' ' || p[r] == '\n' || p[r] == '\r' || p[r] == '\t')
        r++;
    return r;
}

#elif TF_FAST_ISA == 1

/* A run of bytes: 16 at a time, STOP(x) the mask of the bytes that end it. */
#define FAST_RUN(STOP)                                                                         \
    for (size_t r = 0;; r += 16) {                                                             \
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + r));                   \
        unsigned bits = (unsigned)_mm_movemask_epi8(STOP) & 0xFFFFu;                           \
        if (bits)                                                                              \
            return r + (size_t)__builtin_ctz(bits);                                            \
    }

FAST_FN size_t F(plain_run_in)(const unsigned char *p)
{
    const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\'),
                  space = _mm_set1_epi8(0x20);
    /* signed: below 0x20 is also >= 0x80 */
    FAST_RUN(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, bslash)),
                          _mm_cmplt_epi8(x, space)))
}

FAST_FN size_t F(digit_run_in)(const unsigned char *p)
{
    const __m128i below = _mm_set1_epi8('0' - 1), above = _mm_set1_epi8('9' + 1);
    FAST_RUN(_mm_xor_si128(_mm_and_si128(_mm_cmpgt_epi8(x, below), _mm_cmplt_epi8(x, above)),
                           _mm_set1_epi8(-1)))
}

FAST_FN size_t F(ws_run_in)(const unsigned char *p)
{
    const __m128i sp = _mm_set1_epi8(' '), nl = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r'),
                  tab = _mm_set1_epi8('\t');
    FAST_RUN(_mm_xor_si128(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, sp), _mm_cmpeq_epi8(x, nl)),
                                        _mm_or_si128(_mm_cmpeq_epi8(x, cr), _mm_cmpeq_epi8(x, tab))),
                           _mm_set1_epi8(-1)))
}
#undef FAST_RUN

/* The digits and the dots among the 32 bytes from p. */
FAST_FN void F(digits_dots)(const unsigned char *p, uint64_t *dig, uint64_t *dot)
{
    const __m128i below = _mm_set1_epi8('0' - 1), above = _mm_set1_epi8('9' + 1),
                  dotc = _mm_set1_epi8('.');
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p),
            y = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
    *dig = (uint64_t)(unsigned)_mm_movemask_epi8(
               _mm_and_si128(_mm_cmpgt_epi8(x, below), _mm_cmplt_epi8(x, above))) |
           (uint64_t)(unsigned)_mm_movemask_epi8(
               _mm_and_si128(_mm_cmpgt_epi8(y, below), _mm_cmplt_epi8(y, above)))
               << 16;
    *dot = (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, dotc)) |
           (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(y, dotc)) << 16;
}
#define FAST_NUM_BITS 32

#elif TF_FAST_ISA == 2

#define FAST_RUN(STOP)                                                                         \
    for (size_t r = 0;; r += 32) {                                                             \
        __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(p + r));                \
        unsigned bits = (unsigned)_mm256_movemask_epi8(STOP);                                  \
        if (bits)                                                                              \
            return r + (size_t)__builtin_ctz(bits);                                            \
    }

FAST_FN size_t F(plain_run_in)(const unsigned char *p)
{
    const __m256i quote = _mm256_set1_epi8('"'), bslash = _mm256_set1_epi8('\\'),
                  space = _mm256_set1_epi8(0x20);
    FAST_RUN(_mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi8(x, quote), _mm256_cmpeq_epi8(x, bslash)),
        _mm256_cmpgt_epi8(space, x)))
}

FAST_FN size_t F(digit_run_in)(const unsigned char *p)
{
    const __m256i below = _mm256_set1_epi8('0' - 1), above = _mm256_set1_epi8('9' + 1);
    FAST_RUN(_mm256_xor_si256(
        _mm256_and_si256(_mm256_cmpgt_epi8(x, below), _mm256_cmpgt_epi8(above, x)),
        _mm256_set1_epi8(-1)))
}

FAST_FN size_t F(ws_run_in)(const unsigned char *p)
{
    const __m256i sp = _mm256_set1_epi8(' '), nl = _mm256_set1_epi8('\n'),
                  cr = _mm256_set1_epi8('\r'), tab = _mm256_set1_epi8('\t');
    FAST_RUN(_mm256_xor_si256(
        _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(x, sp), _mm256_cmpeq_epi8(x, nl)),
                        _mm256_or_si256(_mm256_cmpeq_epi8(x, cr), _mm256_cmpeq_epi8(x, tab))),
        _mm256_set1_epi8(-1)))
}
#undef FAST_RUN

FAST_FN void F(digits_dots)(const unsigned char *p, uint64_t *dig, uint64_t *dot)
{
    const __m256i below = _mm256_set1_epi8('0' - 1), above = _mm256_set1_epi8('9' + 1);
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)p);
    *dig = (unsigned)_mm256_movemask_epi8(
        _mm256_and_si256(_mm256_cmpgt_epi8(x, below), _mm256_cmpgt_epi8(above, x)));
    *dot = (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('.')));
}
#define FAST_NUM_BITS 32

#elif TF_FAST_ISA == 3

#define FAST_RUN(STOP)                                                                         \
    for (size_t r = 0;; r += 64) {                                                             \
        __m512i x = _mm512_loadu_si512((const void *)(p + r));                                 \
        uint64_t bits = (STOP);                                                                \
        if (bits)                                                                              \
            return r + (size_t)__builtin_ctzll(bits);                                          \
    }

FAST_FN size_t F(plain_run_in)(const unsigned char *p)
{
    /* x - 0x20 >= 0x60 (unsigned): below 0x20 or from 0x80 on */
    FAST_RUN(_mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8('"')) |
             _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8('\\')) |
             _mm512_cmpge_epu8_mask(_mm512_sub_epi8(x, _mm512_set1_epi8(0x20)),
                                    _mm512_set1_epi8(0x60)))
}

FAST_FN size_t F(digit_run_in)(const unsigned char *p)
{
    FAST_RUN(_mm512_cmpge_epu8_mask(_mm512_sub_epi8(x, _mm512_set1_epi8('0')),
                                    _mm512_set1_epi8(10)))
}

FAST_FN size_t F(ws_run_in)(const unsigned char *p)
{
    FAST_RUN(~(_mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8(' ')) |
               _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8('\n')) |
               _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8('\r')) |
               _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8('\t'))))
}
#undef FAST_RUN

FAST_FN void F(digits_dots)(const unsigned char *p, uint64_t *dig, uint64_t *dot)
{
    __m512i x = _mm512_loadu_si512((const void *)p);
    *dig = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(x, _mm512_set1_epi8('0')),
                                  _mm512_set1_epi8(10));
    *dot = _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8('.'));
}
#define FAST_NUM_BITS 64

#endif

/* A byte that may continue a number token (digits, sign, dot, exponent). */
FAST_FN bool F(num_byte)(unsigned char c)
{
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

/* The number at p in its common form, -?(0|[1-9][0-9]*)(.[0-9]+)?,
 * followed by a byte that ends it and (not lenient) obviously in range:
 * its length; else 0 (an exponent, an error, the end of the buffer, a NUL
 * byte after it, a range to check), and the general path decides alone. */
FAST_FN size_t F(number_len_in)(const unsigned char *p, bool lenient, bool *is_int)
{
    size_t neg = p[0] == '-';
#ifdef FAST_NUM_BITS
    /* One look at the first bytes: where the digits and dots are. */
    const uint64_t all = FAST_NUM_BITS == 64 ? ~(uint64_t)0 : ((uint64_t)1 << FAST_NUM_BITS) - 1;
    uint64_t dig, dot;
    F(digits_dots)(p, &dig, &dot);
    uint64_t body = dig | dot | (uint64_t)neg;
    if (body != all) {
        size_t end = (size_t)__builtin_ctzll(~body);
        uint64_t dots = dot & (((uint64_t)1 << end) - 1);
        size_t int_end = dots ? (size_t)__builtin_ctzll(dots) : end;
        size_t int_digits = int_end - neg;
        /* At most one dot, with digits on both sides; no leading zero. */
        unsigned char c = p[end];
        if (int_digits == 0 || (dots & (dots - 1)) || (dots && int_end + 1 == end) ||
            (p[neg] == '0' && int_digits > 1) ||
            (c != ',' && c != '}' && c != ']' && (F(num_byte)(c) || c == '\0' || c >= 0x80)))
            return 0;
        if (!lenient && int_digits > (dots ? 300 : 18))
            return 0;
        *is_int = dots == 0;
        return end;
    }
#endif
    size_t int_digits = F(digit_run_in)(p + neg);
    if (int_digits == 0 || (p[neg] == '0' && int_digits > 1))
        return 0;
    size_t i = neg + int_digits;
    bool integer = p[i] != '.';
    if (!integer) {
        size_t frac = F(digit_run_in)(p + i + 1);
        if (frac == 0)
            return 0;
        i += 1 + frac;
    }
    if (F(num_byte)(p[i]) || p[i] == '\0' || p[i] >= 0x80)
        return 0;
    /* 18 digits always fit 64 bits; a real below 1e300 never overflows. */
    if (!lenient && int_digits > (integer ? 18 : 300))
        return 0;
    *is_int = integer;
    return i;
}
#undef FAST_NUM_BITS

/* Past the whitespace at q: most often none, or one blank. */
FAST_FN const unsigned char *F(skip_ws)(const unsigned char *q)
{
    if (*q > ' ')
        return q;
    if (q[0] == ' ' && q[1] > ' ')
        return q + 1;
    return q + F(ws_run_in)(q);
}

/* --- the fast path of a whole value --------------------------------------- */

#ifndef TF_SCAN_FAST_KEYS_DONE
#define TF_SCAN_FAST_KEYS_DONE
enum { FAST_DEPTH = TF_SCAN_FAST_DEPTH, FAST_KEYS = 64 };
#endif

static TF_FAST_TARGET size_t F(value)(const struct tf_scan *s, const unsigned char *p,
                                      struct tf_scan_field *fields, size_t nf)
{
    unsigned char stack[FAST_DEPTH];
    size_t depth = 0;
    /* strict: the keys of the open objects; key0[d]: the first of depth d */
    const bool strict = !s->lenient;
    const unsigned char *key[FAST_KEYS];
    size_t key_len[FAST_KEYS], key0[FAST_DEPTH + 1], n_keys = 0;
    const unsigned char *q = p;
    struct tf_scan_field *cur = NULL, *open_field = NULL;
    size_t n;
    bool is_int;
    enum tf_jtok k;
value:
    if (cur) {
        cur->off = (size_t)(q - p);
        cur->escaped = cur->is_int = false;
    }
    switch (*q) {
    case '"':
        n = F(plain_run_in)(q + 1);
        if (q[n + 1] != '"')
            return 0;
        if (cur) {
            cur->type = TF_JT_STRING;
            cur->off++;
            cur->len = n;
            cur = NULL;
        }
        q += n + 2;
        goto after;
    case '{':
    case '[':
        if (depth == FAST_DEPTH)
            return 0;
        stack[depth++] = *q;
        key0[depth] = n_keys;
        if (cur) {
            cur->type = *q == '{' ? TF_JT_OBJECT : TF_JT_ARRAY;
            open_field = cur;
            cur = NULL;
        }
        q = F(skip_ws)(q + 1);
        if (*q == (stack[depth - 1] == '{' ? '}' : ']')) {
            q++;
            depth--;
            goto after;
        }
        if (stack[depth - 1] == '{')
            goto key;
        goto value;
    case 't':
    case 'f':
    case 'n':
        n = tf_scan_word_len(q, &k);
        if (n == 0)
            return 0;
        if (cur) {
            cur->type = k;
            cur->len = n;
            cur = NULL;
        }
        q += n;
        goto after;
    default:
        n = F(number_len_in)(q, !strict, &is_int);
        if (n == 0)
            return 0;
        if (cur) {
            cur->type = TF_JT_NUMBER;
            cur->len = n;
            cur->is_int = is_int;
            cur = NULL;
        }
        q += n;
        goto after;
    }
after:
    if (open_field && depth == 1) {
        open_field->len = (size_t)(q - p) - open_field->off;
        open_field = NULL;
    }
    if (depth == 0)
        return (size_t)(q - p);
    q = F(skip_ws)(q);
    if (*q == ',') {
        q = F(skip_ws)(q + 1);
        if (stack[depth - 1] == '{')
            goto key;
        goto value;
    }
    if (*q != (stack[depth - 1] == '{' ? '}' : ']'))
        return 0;
    q++;
    n_keys = key0[depth];
    depth--;
    goto after;
key:
    if (*q != '"')
        return 0;
    n = F(plain_run_in)(q + 1);
    if (q[n + 1] != '"')
        return 0;
    if (strict) {
        if (n_keys == FAST_KEYS)
            return 0;
        for (size_t i = key0[depth]; i < n_keys; i++)
            if (key_len[i] == n && (n == 0 || key[i][0] == q[1]) &&
                memcmp(key[i], q + 1, n) == 0)
                return 0; /* a duplicate: the general path says so */
        key[n_keys] = q + 1;
        key_len[n_keys++] = n;
    }
    if (depth == 1 && nf) {
        size_t i = tf_scan_match_name_padded(s, q + 1, n);
        if (i < nf)
            cur = &fields[i];
    }
    q = F(skip_ws)(q + n + 2);
    if (*q != ':')
        return 0;
    q = F(skip_ws)(q + 1);
    goto value;
}

/* --- the table ------------------------------------------------------------ */

static TF_FAST_TARGET size_t F(plain_run)(const unsigned char *p)
{
    return F(plain_run_in)(p);
}

static TF_FAST_TARGET size_t F(digit_run)(const unsigned char *p)
{
    return F(digit_run_in)(p);
}

static TF_FAST_TARGET size_t F(ws_run)(const unsigned char *p)
{
    return F(ws_run_in)(p);
}

static TF_FAST_TARGET size_t F(number_len)(const unsigned char *p, bool lenient, bool *is_int)
{
    return F(number_len_in)(p, lenient, is_int);
}

static const struct tf_scan_kernels F(kernels) = {
    .level = TF_FAST_ISA,
    .name = TF_FAST_NAME,
    .plain_run = F(plain_run),
    .digit_run = F(digit_run),
    .ws_run = F(ws_run),
    .number_len = F(number_len),
    .value = F(value),
};

#undef F
#undef FAST_FN
#undef TF_FAST_CAT
#undef TF_FAST_CAT2
