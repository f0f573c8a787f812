/* num.c - see num.h. */
#include "base/num.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *tf_fmt_repr(char out[40], double v)
{
    if (isnan(v))
        return strcpy(out, "nan");
    if (isinf(v))
        return strcpy(out, v < 0 ? "-inf" : "inf");
    /* The shortest %.*e that reads back exactly (the C locale is never
     * changed, so '.' is the decimal point). */
    char e[40];
    int prec;
    for (prec = 0; prec < 17; prec++) {
        snprintf(e, sizeof e, "%.*e", prec, v);
        if (strtod(e, NULL) == v)
            break;
    }
    snprintf(e, sizeof e, "%.*e", prec, v);
    /* e = [-]d[.ddd]e[+-]XX: digits and exponent. */
    char digits[24];
    size_t nd = 0;
    const char *p = e;
    bool neg = *p == '-';
    if (neg)
        p++;
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9' && nd + 1 < sizeof digits)
            digits[nd++] = *p;
    digits[nd] = '\0';
    int exp = atoi(p + 1);
    char *o = out;
    if (neg)
        *o++ = '-';
    if (exp >= -4 && exp < 16) {
        if (exp < 0) {
            *o++ = '0';
            *o++ = '.';
            for (int i = -1; i > exp; i--)
                *o++ = '0';
            memcpy(o, digits, nd);
            o += nd;
        } else {
            for (int i = 0; i <= exp; i++)
                *o++ = (size_t)i < nd ? digits[i] : '0';
            *o++ = '.';
            if ((size_t)exp + 1 < nd) {
                memcpy(o, digits + exp + 1, nd - (size_t)exp - 1);
                o += nd - (size_t)exp - 1;
            } else {
                *o++ = '0';
            }
        }
        *o = '\0';
        return out;
    }
    *o++ = digits[0];
    if (nd > 1) {
        *o++ = '.';
        memcpy(o, digits + 1, nd - 1);
        o += nd - 1;
    }
    snprintf(o, 16, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    return out;
}

const char *tf_fmt_color(char out[8], uint32_t rgb)
{
    static const char hex[] = "0123456789ABCDEF";
    out[0] = '#';
    for (int i = 0; i < 6; i++)
        out[1 + i] = hex[(rgb >> (20 - 4 * i)) & 0xF];
    out[7] = '\0';
    return out;
}

void tf_buf_num(struct tf_buf *b, double v, int decimals)
{
    char tmp[TF_NUM_MAX];
    size_t n = tf_fmt_num_len(tmp, v, decimals);
    tf_buf_putn(b, tmp, n);
}

int tf_num_decimals(const double *v, size_t n)
{
    for (int dec = 0; dec < 9; dec++) {
        double p = pow(10.0, dec);
        bool ok = true;
        for (size_t i = 0; i < n && ok; i++) {
            double x = v[i] * p;
            ok = fabs(x - nearbyint(x)) <= 1e-6 * fmax(1.0, fabs(x));
        }
        if (ok)
            return dec;
    }
    return 9;
}
