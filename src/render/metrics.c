/* metrics.c - text measurement from the built-in table; see metrics.h.
 * Decodes UTF-8 with base/utf8.h (no locale, no iconv) and looks code
 * points up by binary search; ASCII is a direct index since the table
 * starts with it. */
#include "render/metrics.h"

#include "base/utf8.h"

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

double tf_text_width(const char *utf8, double size, bool bold)
{
    const unsigned char *p = (const unsigned char *)utf8;
    long units = 0;
    uint32_t cp;
    for (size_t n; (n = tf_utf8_next(p, &cp)) > 0; p += n)
        units += tf_metrics_advance(cp, bold);
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
