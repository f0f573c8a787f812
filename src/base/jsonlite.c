/* jsonlite.c - see jsonlite.h. */
#include "base/jsonlite.h"

#include <math.h>
#include <string.h>

#include "base/utf8.h"

/* The 4 hex digits at p (n bytes left), or -1. */
static long hex4(const unsigned char *p, size_t n)
{
    if (n < 4)
        return -1;
    long v = 0;
    for (int i = 0; i < 4; i++) {
        int h = tf_jl_hexval(p[i]);
        if (h < 0)
            return -1;
        v = (v << 4) | h;
    }
    return v;
}

static void put_utf8(struct tf_buf *b, uint32_t c)
{
    char u[4];
    tf_buf_putn(b, u, tf_utf8_encode(c, u));
}

void tf_jl_string(const unsigned char *raw, size_t n, struct tf_buf *out)
{
    tf_buf_clear(out);
    tf_buf_putn(out, "", 0);
    size_t i = 0;
    while (i < n) {
        size_t run = i;
        while (run < n && raw[run] != '\\')
            run++;
        if (run > i)
            tf_buf_putn(out, (const char *)raw + i, run - i);
        i = run;
        if (i >= n)
            break;
        if (i + 1 >= n)
            break;
        unsigned char e = raw[i + 1];
        i += 2;
        switch (e) {
        case '"': tf_buf_putc(out, '"'); break;
        case '\\': tf_buf_putc(out, '\\'); break;
        case '/': tf_buf_putc(out, '/'); break;
        case 'b': tf_buf_putc(out, '\b'); break;
        case 'f': tf_buf_putc(out, '\f'); break;
        case 'n': tf_buf_putc(out, '\n'); break;
        case 'r': tf_buf_putc(out, '\r'); break;
        case 't': tf_buf_putc(out, '\t'); break;
        case 'u': {
            long v = hex4(raw + i, n - i);
            if (v < 0)
                return;
            i += 4;
            uint32_t c = (uint32_t)v;
            if (c >= 0xD800 && c <= 0xDBFF && i + 6 <= n && raw[i] == '\\' && raw[i + 1] == 'u') {
                long lo = hex4(raw + i + 2, n - i - 2);
                if (lo >= 0xDC00 && lo <= 0xDFFF) {
                    c = 0x10000 + ((c - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
                    i += 6;
                }
            }
            if (c == 0)
                break; /* dropped */
            if (c >= 0xD800 && c <= 0xDFFF)
                c = 0xFFFD; /* an unpaired surrogate */
            put_utf8(out, c);
            break;
        }
        default:
            return;
        }
    }
}

bool tf_jl_is_int(const unsigned char *raw, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (raw[i] == '.' || raw[i] == 'e' || raw[i] == 'E')
            return false;
    return n > 0;
}

/* A number as decimal digits: up to 19 significant ones in *mant, the
 * power of ten they are scaled by in *exp10, and whether any non-zero
 * digit was dropped beyond them (for rounding) in *rest.  False when the
 * bytes are not a number. */
static bool decompose(const unsigned char *raw, size_t n, bool *neg, uint64_t *mant, int *exp10,
                      int *first_dropped, bool *rest)
{
    size_t i = 0;
    *neg = false;
    *mant = 0;
    *exp10 = 0;
    *first_dropped = -1;
    *rest = false;
    if (i < n && raw[i] == '-') {
        *neg = true;
        i++;
    }
    int digits = 0, dropped = 0;
    bool any = false, frac = false;
    for (; i < n; i++) {
        unsigned char c = raw[i];
        if (c == '.') {
            frac = true;
            continue;
        }
        if (c < '0' || c > '9')
            break;
        any = true;
        int d = c - '0';
        if (digits == 0 && d == 0) {
            if (frac)
                (*exp10)--;
            continue; /* leading zeros */
        }
        if (digits < 19) {
            *mant = *mant * 10 + (uint64_t)d;
            digits++;
            if (frac)
                (*exp10)--;
        } else {
            if (dropped == 0)
                *first_dropped = d;
            else if (d)
                *rest = true;
            dropped++;
            if (!frac)
                (*exp10)++;
        }
    }
    if (!any)
        return false;
    if (i < n && (raw[i] == 'e' || raw[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < n && (raw[i] == '+' || raw[i] == '-'))
            eneg = raw[i++] == '-';
        long e = 0;
        for (; i < n && raw[i] >= '0' && raw[i] <= '9'; i++)
            if (e < 100000)
                e = e * 10 + (raw[i] - '0');
        *exp10 += (int)(eneg ? -e : e);
    }
    return true;
}

/* Whether the 8 bytes at p are ASCII digits, and their value (SWAR: the
 * digits as the bytes of one little-endian word; elsewhere a loop). */
static bool eight_digits(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    /* each byte 0x30 .. 0x39: high nibble 3, and still 3 after adding 6 */
    return ((v & 0xF0F0F0F0F0F0F0F0u) |
            (((v + 0x0606060606060606u) & 0xF0F0F0F0F0F0F0F0u) >> 4)) == 0x3333333333333333u;
}

static uint64_t eight_digits_value(const unsigned char *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t v;
    memcpy(&v, p, 8);
    v = ((v & 0x0F0F0F0F0F0F0F0Fu) * 2561) >> 8;
    v = ((v & 0x00FF00FF00FF00FFu) * 6553601) >> 16;
    return ((v & 0x0000FFFF0000FFFFu) * 42949672960001u) >> 32;
#else
    uint64_t v = 0;
    for (int k = 0; k < 8; k++)
        v = v * 10 + (uint64_t)(p[k] - '0');
    return v;
#endif
}

/* The digits from raw[*i] on (before n) added to *m, eight at a time where
 * there are (*m overflowing only past 19 digits, which the caller
 * rejects); their count, *i past them. */
static size_t take_digits(const unsigned char *raw, size_t n, size_t *i, uint64_t *m)
{
    size_t k = *i;
    uint64_t v = *m;
    while (n - k >= 8 && eight_digits(raw + k)) {
        v = v * 100000000u + eight_digits_value(raw + k);
        k += 8;
    }
    while (k < n && raw[k] >= '0' && raw[k] <= '9')
        v = v * 10 + (uint64_t)(raw[k++] - '0');
    size_t count = k - *i;
    *i = k;
    *m = v;
    return count;
}

/* The common numbers (at most 19 digits, no exponent) in one pass; false
 * for anything else, which tf_jl_fixed then decomposes. */
static bool fixed_fast(const unsigned char *raw, size_t n, int scale, int64_t *out)
{
    static const uint64_t pow10[19] = {1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u,
                                       10000000u, 100000000u, 1000000000u, 10000000000u,
                                       100000000000u, 1000000000000u, 10000000000000u,
                                       100000000000000u, 1000000000000000u,
                                       10000000000000000u, 100000000000000000u,
                                       1000000000000000000u};
    /* INT64_MAX / pow10[k], so that the range check needs no division */
    static const uint64_t limit[19] = {
        9223372036854775807u, 922337203685477580u, 92233720368547758u, 9223372036854775u,
        922337203685477u,     92233720368547u,     9223372036854u,     922337203685u,
        92233720368u,         9223372036u,         922337203u,         92233720u,
        9223372u,             922337u,             92233u,             9223u,
        922u,                 92u,                 9u};
    size_t i = raw[0] == '-';
    uint64_t m = 0;
    size_t digits = take_digits(raw, n, &i, &m), frac = 0;
    if (i < n) {
        if (raw[i] != '.')
            return false;
        i++;
        frac = take_digits(raw, n, &i, &m);
        if (i < n)
            return false;
        digits += frac;
    }
    /* frac - scale > 18 (".1234567890123456789" at scale 0) has no power
     * in the table: the slow path takes it. */
    if (digits == 0 || digits > 19 || scale < 0 || scale > 18 || (int)frac - scale > 18)
        return false;
    if ((int)frac <= scale) {
        if (m > limit[scale - (int)frac])
            return false;
        m *= pow10[scale - (int)frac];
    } else {
        /* Half and above rounds away from zero, as tf_jl_fixed does. */
        uint64_t p = pow10[(int)frac - scale], q = m / p, r = m % p;
        m = q + (r >= p - r ? 1 : 0);
    }
    *out = raw[0] == '-' ? -(int64_t)m : (int64_t)m;
    return true;
}

bool tf_jl_fixed(const unsigned char *raw, size_t n, int scale, int64_t *out)
{
    if (n > 0 && fixed_fast(raw, n, scale, out))
        return true;
    bool neg, rest;
    uint64_t m;
    int e, first;
    if (!decompose(raw, n, &neg, &m, &e, &first, &rest))
        return false;
    e += scale;
    /* value = m * 10^e (+ the dropped digits); round half away from zero. */
    if (m == 0) {
        *out = 0;
        return true;
    }
    if (e >= 0) {
        if (e > 19)
            return false;
        for (int k = 0; k < e; k++) {
            if (m > UINT64_MAX / 10)
                return false;
            m *= 10;
        }
        /* Digits beyond the 19 kept ones: below the unit only when e == 0
         * (with e > 0 the value has over 19 integer digits: too large). */
        if (first >= 0 && e > 0)
            return false;
        if (first >= 5)
            m++;
    } else {
        int drop = -e;
        if (drop > 19) {
            m = 0;
        } else {
            uint64_t p = 1;
            for (int k = 0; k < drop; k++)
                p *= 10;
            /* Half and above rounds away from zero; the dropped digits
             * beyond the 19 kept ones are worth less than one unit of r. */
            uint64_t q = m / p, r = m % p;
            m = q + (r >= p - r ? 1 : 0);
        }
    }
    if (m > (uint64_t)INT64_MAX)
        return false;
    *out = neg ? -(int64_t)m : (int64_t)m;
    return true;
}

bool tf_jl_double(const unsigned char *raw, size_t n, double *out)
{
    bool neg, rest;
    uint64_t m;
    int e, first;
    if (!decompose(raw, n, &neg, &m, &e, &first, &rest))
        return false;
    double v = (double)m;
    if (first >= 5)
        v += 1.0; /* close enough for a 20th digit */
    if (e > 0)
        v *= pow(10.0, e);
    else if (e < 0)
        v /= pow(10.0, -e);
    *out = neg ? -v : v;
    return true;
}

/* --- walking a validated value ---------------------------------------- */

static size_t skip_ws(const unsigned char *p, size_t n, size_t i)
{
    while (i < n && (p[i] == ' ' || p[i] == '\n' || p[i] == '\r' || p[i] == '\t'))
        i++;
    return i;
}

/* The end of the string token starting at p[i] == '"'. */
static size_t string_end(const unsigned char *p, size_t n, size_t i)
{
    for (i++; i < n; i++) {
        if (p[i] == '\\')
            i++;
        else if (p[i] == '"')
            return i + 1;
    }
    return n;
}

/* The end of the value starting at p[i]. */
static size_t value_end(const unsigned char *p, size_t n, size_t i)
{
    if (i >= n)
        return n;
    if (p[i] == '"')
        return string_end(p, n, i);
    if (p[i] == '{' || p[i] == '[') {
        size_t depth = 0;
        for (; i < n; i++) {
            unsigned char c = p[i];
            if (c == '"') {
                i = string_end(p, n, i) - 1;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                if (--depth == 0)
                    return i + 1;
            }
        }
        return n;
    }
    while (i < n && p[i] != ',' && p[i] != '}' && p[i] != ']' && p[i] != ' ' && p[i] != '\n' &&
           p[i] != '\r' && p[i] != '\t')
        i++;
    return i;
}

bool tf_jl_member(const unsigned char *p, size_t n, size_t *pos, const unsigned char **key,
                  size_t *key_len, const unsigned char **val, size_t *val_len)
{
    size_t i = *pos;
    if (i == 0) {
        i = skip_ws(p, n, 0);
        if (i >= n || p[i] != '{')
            return false;
        i++;
    }
    i = skip_ws(p, n, i);
    if (i < n && p[i] == ',')
        i = skip_ws(p, n, i + 1);
    if (i >= n || p[i] != '"')
        return false;
    size_t ke = string_end(p, n, i);
    *key = p + i + 1;
    *key_len = ke >= i + 2 ? ke - i - 2 : 0;
    i = skip_ws(p, n, ke);
    if (i >= n || p[i] != ':')
        return false;
    i = skip_ws(p, n, i + 1);
    size_t ve = value_end(p, n, i);
    *val = p + i;
    *val_len = ve - i;
    *pos = ve;
    return true;
}

const unsigned char *tf_jl_get(const unsigned char *p, size_t n, const char *name,
                               size_t *val_len)
{
    size_t pos = 0, klen, vlen, nl = strlen(name);
    const unsigned char *k, *v;
    const unsigned char *found = NULL;
    while (tf_jl_member(p, n, &pos, &k, &klen, &v, &vlen))
        if (klen == nl && memcmp(k, name, nl) == 0) {
            found = v; /* the last one wins, as in JavaScript */
            *val_len = vlen;
        }
    return found;
}
