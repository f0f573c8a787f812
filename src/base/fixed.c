/* fixed.c - tf_fmt_num and tf_fmt_num_len (num.h): "%.*f" exactly as glibc
 * prints it, without printf.
 *
 * A finite double is exactly  v = (-1)^neg * m * 2^e  with m < 2^53 and
 * -1074 <= e <= 971.  "%.*f" prints round(|v| * 10^d) with d implied
 * decimals, rounded to nearest with ties to even on the exact value (glibc,
 * default rounding mode).  Three cases, all in exact integer arithmetic:
 *
 *   e < 0    |v| * 10^d = m * 10^d / 2^s  (s = -e).  P = m * 10^d < 2^83;
 *            N = P >> s, and the bits shifted out decide the rounding
 *            exactly (compared with the half 2^(s-1); ties go to even N).
 *            Usually P and s fit in 64 bits (always for d <= 3 and
 *            |v| >= 2^-11); otherwise the same in 128 bits (unsigned __int128
 *            or a portable hi:lo pair).  If s > 83 then P < 2^83 <= 2^(s-1),
 *            i.e. below one half: N = 0.
 *   0<=e<=11 |v| = m << e < 2^64 is an integer: no fraction digits survive
 *            trimming, print the integer.
 *   e >= 12  |v| = m * 2^e is an integer up to 2^1024: built in 32-bit limbs
 *            and converted by repeated division by 10^9.
 *
 * Then trailing zeros among the d decimals are dropped, a bare '.' goes,
 * and N == 0 prints "0" without sign (what "-0.00" trims to).
 */
#include "base/num.h"

#include <float.h>
#include <stdint.h>
#include <string.h>

_Static_assert(FLT_RADIX == 2 && DBL_MANT_DIG == 53 && DBL_MAX_EXP == 1024 &&
                   DBL_MIN_EXP == -1021,
               "tf_fmt_num needs IEEE 754 binary64 doubles");
_Static_assert(sizeof(double) == sizeof(uint64_t), "double must be 64 bits");

#if defined(__SIZEOF_INT128__) && !defined(TF_NUM_NO_INT128)
#define TF_NUM_HAVE_INT128 1
__extension__ typedef unsigned __int128 tf_u128;
#endif

/* Work space of the slow paths: up to 309 integer digits (DBL_MAX), a
 * sign, '.', 9 decimals; built right to left, then copied to out. */
#define TMP_SIZE 352

static uint32_t pow10_u32(int d)
{
    static const uint32_t p10[10] = {1u,      10u,      100u,      1000u,
                                     10000u,  100000u,  1000000u,  10000000u,
                                     100000000u, 1000000000u};
    return p10[d];
}

static const char *digit_pairs(void)
{
    static const char pairs[201] = "00010203040506070809"
                                   "10111213141516171819"
                                   "20212223242526272829"
                                   "30313233343536373839"
                                   "40414243444546474849"
                                   "50515253545556575859"
                                   "60616263646566676869"
                                   "70717273747576777879"
                                   "80818283848586878889"
                                   "90919293949596979899";
    return pairs;
}

/* Writes the decimal digits of n (at least one) so that they end just before
 * p; returns the first digit. */
static char *put_u64(char *p, uint64_t n)
{
    const char *pairs = digit_pairs();
    while (n >= 100) {
        unsigned r = (unsigned)(n % 100);
        n /= 100;
        p -= 2;
        memcpy(p, pairs + 2 * r, 2);
    }
    if (n >= 10) {
        p -= 2;
        memcpy(p, pairs + 2 * n, 2);
    } else {
        *--p = (char)('0' + n);
    }
    return p;
}

/* Exactly 9 digits of n < 10^9, zero-padded, ending just before p. */
static char *put_9(char *p, uint32_t n)
{
    const char *pairs = digit_pairs();
    for (int i = 0; i < 4; i++) {
        unsigned r = n % 100;
        n /= 100;
        p -= 2;
        memcpy(p, pairs + 2 * r, 2);
    }
    *--p = (char)('0' + n);
    return p;
}

/* Writes n < 10^9 (at least one digit) ending just before p, in 32-bit
 * arithmetic; returns the first digit. */
static char *put_u32(char *p, uint32_t n)
{
    const char *pairs = digit_pairs();
    while (n >= 100) {
        uint32_t r = n % 100;
        n /= 100;
        p -= 2;
        memcpy(p, pairs + 2 * r, 2);
    }
    if (n >= 10) {
        p -= 2;
        memcpy(p, pairs + 2 * n, 2);
    } else {
        *--p = (char)('0' + n);
    }
    return p;
}

/* N != 0 with d (0..9) implied decimals, trimmed: "12.5", "0.05", "7".
 * Ends just before p; returns the first byte. */
static char *put_fixed_u64(char *p, uint64_t n, int d)
{
    uint64_t ip;
    /* Constant divisors, so each case is a multiplication. */
    switch (d) {
    case 1: ip = n / 10u; break;
    case 2: ip = n / 100u; break;
    case 3: ip = n / 1000u; break;
    case 4: ip = n / 10000u; break;
    case 5: ip = n / 100000u; break;
    case 6: ip = n / 1000000u; break;
    case 7: ip = n / 10000000u; break;
    case 8: ip = n / 100000000u; break;
    case 9: ip = n / 1000000000u; break;
    default: ip = n; d = 0; break;
    }
    uint32_t fp = (uint32_t)(n - ip * pow10_u32(d));
    if (fp != 0) {
        const char *pairs = digit_pairs();
        while (fp % 10 == 0) {
            fp /= 10;
            d--;
        }
        for (; d >= 2; d -= 2) {
            uint32_t r = fp % 100;
            fp /= 100;
            p -= 2;
            memcpy(p, pairs + 2 * r, 2);
        }
        if (d)
            *--p = (char)('0' + fp);
        *--p = '.';
    }
    return ip >> 32 ? put_u64(p, ip) : put_u32(p, (uint32_t)ip);
}

/* The decimal digits of the nonzero little-endian limb number x[0..n-1]
 * (destroyed), ending just before p; returns the first digit. */
static char *put_limbs(char *p, uint32_t *x, int n)
{
    while (n > 0 && x[n - 1] == 0)
        n--;
    for (;;) {
        uint64_t r = 0;
        for (int i = n - 1; i >= 0; i--) {
            uint64_t cur = (r << 32) | x[i];
            x[i] = (uint32_t)(cur / 1000000000u);
            r = cur % 1000000000u;
        }
        while (n > 0 && x[n - 1] == 0)
            n--;
        if (n == 0)
            return put_u64(p, r);
        p = put_9(p, (uint32_t)r);
    }
}

/* A 128-bit N = hi:lo >= 2^64 (so it has >= 20 digits) with d implied
 * decimals, trimmed; ends just before p. */
static char *put_fixed_128(char *p, uint64_t hi, uint64_t lo, int d)
{
    uint32_t x[4] = {(uint32_t)lo, (uint32_t)(lo >> 32), (uint32_t)hi,
                     (uint32_t)(hi >> 32)};
    char *end = p;
    char *q = put_limbs(p, x, 4);
    while (d > 0 && end[-1] == '0') {
        end--;
        d--;
    }
    if (d > 0) {
        /* At least 20 digits, so the '.' always has an integer digit before
         * it: shift the integer digits one byte left. */
        size_t ilen = (size_t)(end - q) - (size_t)d;
        memmove(q - 1, q, ilen);
        q[ilen - 1] = '.';
        q--;
    }
    /* Drop what trimming removed: move the kept bytes up against p. */
    size_t len = (size_t)(end - q);
    memmove(p - len, q, len);
    return p - len;
}

#ifndef TF_NUM_HAVE_INT128
/* Portable 128-bit helpers (hi:lo); k in 1..127. */
static void shr128(uint64_t hi, uint64_t lo, int k, uint64_t *qh, uint64_t *ql)
{
    if (k >= 64) {
        *qh = 0;
        *ql = hi >> (k - 64);
    } else {
        *qh = hi >> k;
        *ql = (lo >> k) | (hi << (64 - k));
    }
}

static int bit128(uint64_t hi, uint64_t lo, int k)
{
    return (int)(k >= 64 ? (hi >> (k - 64)) & 1 : (lo >> k) & 1);
}

/* Whether hi:lo mod 2^k != 0, k in 0..127. */
static int low_nonzero128(uint64_t hi, uint64_t lo, int k)
{
    if (k == 0)
        return 0;
    if (k < 64)
        return (lo & ((UINT64_C(1) << k) - 1)) != 0;
    if (lo != 0)
        return 1;
    if (k == 64)
        return 0;
    return (hi & ((UINT64_C(1) << (k - 64)) - 1)) != 0;
}
#endif

/* Largest m for which m * 10^d fits in 64 bits. */
static uint64_t mul_limit(int d)
{
    static const uint64_t lim[10] = {
        UINT64_MAX / 1u,        UINT64_MAX / 10u,       UINT64_MAX / 100u,
        UINT64_MAX / 1000u,     UINT64_MAX / 10000u,    UINT64_MAX / 100000u,
        UINT64_MAX / 1000000u,  UINT64_MAX / 10000000u, UINT64_MAX / 100000000u,
        UINT64_MAX / 1000000000u};
    return lim[d];
}

/* round(m * 10^d / 2^s), to nearest with ties to even, for m < 2^53,
 * d <= 9 and 1 <= s <= 83; the result (< 2^83) as *hi:*lo. */
static void round_scaled(uint64_t m, int d, int s, uint64_t *hi, uint64_t *lo)
{
#ifdef TF_NUM_HAVE_INT128
    tf_u128 P = (tf_u128)m * pow10_u32(d); /* < 2^83 */
    tf_u128 q = P >> s;
    tf_u128 rem = P - (q << s);
    tf_u128 half = (tf_u128)1 << (s - 1);
    if (rem > half || (rem == half && (q & 1)))
        q++;
    *hi = (uint64_t)(q >> 64);
    *lo = (uint64_t)q;
#else
    /* P = m * 10^d as ph:pl, splitting m into 32-bit halves. */
    uint64_t t = pow10_u32(d);
    uint64_t a = (m & 0xFFFFFFFFu) * t; /* < 2^62 */
    uint64_t b = (m >> 32) * t;         /* < 2^51 */
    uint64_t pl = a + (b << 32);
    uint64_t ph = (b >> 32) + (pl < a);
    uint64_t qh, ql;
    shr128(ph, pl, s, &qh, &ql);
    /* The half bit, then whether anything below it is set. */
    if (bit128(ph, pl, s - 1) && (low_nonzero128(ph, pl, s - 1) || (ql & 1))) {
        ql++;
        qh += (ql == 0);
    }
    *hi = qh;
    *lo = ql;
#endif
}

size_t tf_fmt_num_len(char out[TF_NUM_MAX], double v, int decimals)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    int d = decimals < 0 ? 0 : decimals > 9 ? 9 : decimals;
    int neg = (int)(bits >> 63);
    int bexp = (int)((bits >> 52) & 0x7FF);
    uint64_t m = bits & ((UINT64_C(1) << 52) - 1);

    if (bexp == 0x7FF || (bexp == 0 && m == 0))
        goto zero; /* non-finite, or +-0 */
    if (bexp == 0)
        bexp = 1; /* subnormal: no implicit bit */
    else
        m |= UINT64_C(1) << 52;
    int e = bexp - 1075; /* |v| = m * 2^e exactly */

    /* Fast paths build at most 31 bytes (a sign and an N < 2^64: at most 20
     * digits plus '.', or 11 + '.' + 9) ending at small + 32, then copy a
     * fixed 32 bytes (cheaper than a variable-length copy; out has 340, and
     * the bytes after the NUL are don't-care). */
    char small[64];
    char *end = small + 32;
    char *p;
    uint64_t n;

    if (e < 0) {
        int s = -e;
        if (s < 64 && m <= mul_limit(d)) {
            /* Common case: everything in 64 bits. */
            uint64_t P = m * pow10_u32(d);
            uint64_t r = P & ((UINT64_C(1) << s) - 1);
            uint64_t half = UINT64_C(1) << (s - 1);
            n = P >> s;
            n += (uint64_t)((r > half) | ((r == half) & (int)(n & 1)));
        } else {
            if (s > 83)
                goto zero; /* m * 10^d < 2^83 <= 2^(s-1): below one half */
            uint64_t hi;
            round_scaled(m, d, s, &hi, &n);
            if (hi != 0) {
                char big[TMP_SIZE];
                char *bend = big + sizeof big;
                char *q = put_fixed_128(bend, hi, n, d);
                if (neg)
                    *--q = '-';
                size_t len = (size_t)(bend - q);
                memcpy(out, q, len);
                out[len] = '\0';
                return len;
            }
        }
        if (n == 0)
            goto zero; /* "-0.00" trims to "-0", printed "0" */
        p = put_fixed_u64(end, n, d);
    } else if (e <= 11) {
        p = put_u64(end, m << e); /* an integer: no decimals survive */
    } else {
        /* m * 2^e < 2^1024 in 32-bit limbs; m << (e % 32) spans 3 limbs. */
        uint32_t x[34] = {0};
        int idx = e / 32, sh = e % 32;
        uint64_t t0 = (m & 0xFFFFFFFFu) << sh;
        uint64_t t1 = ((m >> 32) << sh) + (t0 >> 32);
        x[idx] = (uint32_t)t0;
        x[idx + 1] = (uint32_t)t1;
        x[idx + 2] = (uint32_t)(t1 >> 32);
        char big[TMP_SIZE];
        char *bend = big + sizeof big;
        char *q = put_limbs(bend, x, idx + 3);
        if (neg)
            *--q = '-';
        size_t len = (size_t)(bend - q);
        memcpy(out, q, len);
        out[len] = '\0';
        return len;
    }
    if (neg)
        *--p = '-';
    size_t len = (size_t)(end - p);
    memcpy(out, p, 32);
    out[len] = '\0';
    return len;

zero:
    out[0] = '0';
    out[1] = '\0';
    return 1;
}

const char *tf_fmt_num(char out[TF_NUM_MAX], double v, int decimals)
{
    tf_fmt_num_len(out, v, decimals);
    return out;
}
