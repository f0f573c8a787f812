/* num.c - see num.h. */
#include "base/num.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *tf_fmt_num(char out[TF_NUM_MAX], double v, int decimals)
{
    if (!isfinite(v))
        v = 0.0;
    if (decimals < 0)
        decimals = 0;
    if (decimals > 9)
        decimals = 9;
    int n = snprintf(out, TF_NUM_MAX, "%.*f", decimals, v);
    if (n < 0 || n >= TF_NUM_MAX) {
        strcpy(out, "0");
        return out;
    }
    /* Whatever the C library used as a decimal point becomes '.'. */
    char *p = out + (out[0] == '-');
    while (*p >= '0' && *p <= '9')
        p++;
    if (*p != '\0') {
        char *q = p;
        while (*q && !(*q >= '0' && *q <= '9'))
            q++;
        *p = '.';
        memmove(p + 1, q, strlen(q) + 1);
        /* Trim trailing zeros, then a bare point. */
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
    tf_buf_puts(b, tf_fmt_num(tmp, v, decimals));
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
