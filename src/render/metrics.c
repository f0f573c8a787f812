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

long tf_text_units(const char *utf8, bool bold)
{
    const unsigned char *p = (const unsigned char *)utf8;
    long units = 0;
    while (*p) {
        /* Printable ASCII straight from the table's head (as
         * tf_metrics_advance looks it up), the rest decoded. */
        if (*p >= 0x20 && *p < 0x7F && tf_metrics_table[*p - 0x20].cp == *p) {
            const struct tf_glyph_width *g = &tf_metrics_table[*p - 0x20];
            units += bold ? g->bold : g->book;
            p++;
            continue;
        }
        uint32_t cp;
        size_t n = tf_utf8_next(p, &cp);
        units += tf_metrics_advance(cp, bold);
        p += n;
    }
    return units;
}

double tf_text_width(const char *utf8, double size, bool bold)
{
    return tf_text_units_width(tf_text_units(utf8, bold), size);
}

double tf_text_units_width(long units, double size)
{
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
