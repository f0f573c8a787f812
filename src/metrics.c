/* metrics.c - text measurement from the built-in table; see metrics.h.
 * Decodes UTF-8 itself (no locale, no iconv) and looks code points up by
 * binary search; ASCII is a direct index since the table starts with it. */
#include "metrics.h"

int tf_metrics_advance(uint32_t cp, bool bold)
{
    size_t lo = 0, hi = tf_metrics_table_len;
    if (cp >= 0x20 && cp < 0x7F && tf_metrics_table[cp - 0x20].cp == cp) {
        const struct tf_glyph_width *g = &tf_metrics_table[cp - 0x20];
        return bold ? g->bold : g->book;
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct tf_glyph_width *g = &tf_metrics_table[mid];
        if (g->cp == cp)
            return bold ? g->bold : g->book;
        if (g->cp < cp)
            lo = mid + 1;
        else
            hi = mid;
    }
    return TF_METRICS_FALLBACK;
}

/* Decodes one UTF-8 sequence at *p; advances *p.  Invalid -> U+FFFD. */
static uint32_t next_cp(const unsigned char **p)
{
    const unsigned char *s = *p;
    uint32_t c = s[0];
    int n;
    uint32_t min;
    if (c < 0x80) {
        *p = s + 1;
        return c;
    } else if (c >= 0xC2 && c <= 0xDF) {
        n = 1, c &= 0x1F, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 2, c &= 0x0F, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 3, c &= 0x07, min = 0x10000;
    } else {
        *p = s + 1;
        return 0xFFFD;
    }
    /* Like tf_xml_clean: an invalid sequence costs one U+FFFD per byte. */
    for (int i = 1; i <= n; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *p = s + 1;
            return 0xFFFD;
        }
        c = (c << 6) | (s[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
        *p = s + 1;
        return 0xFFFD;
    }
    *p = s + n + 1;
    return c;
}

double tf_text_width(const char *utf8, double size, bool bold)
{
    const unsigned char *p = (const unsigned char *)utf8;
    long units = 0;
    while (*p)
        units += tf_metrics_advance(next_cp(&p), bold);
    return (double)units * size / TF_METRICS_UPEM;
}

double tf_text_ascent(double size, bool bold)
{
    return size * (bold ? tf_metrics_bold_ascent : tf_metrics_book_ascent) / TF_METRICS_UPEM;
}

double tf_text_descent(double size, bool bold)
{
    return size * (bold ? tf_metrics_bold_descent : tf_metrics_book_descent) /
           TF_METRICS_UPEM;
}

double tf_text_center_baseline(double y, double size, bool bold)
{
    return y + (tf_text_ascent(size, bold) - tf_text_descent(size, bold)) / 2.0;
}
