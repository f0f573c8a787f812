/* metrics.h - built-in font metrics: text widths with no font at run time.
 *
 * The layout measures every string with DejaVu Sans Bold (or Book) advance
 * widths from a generated table (metrics_table.c, written by
 * tests/tools/gen_metrics.py), so the layout is the same on every machine.
 * Kerning and ligatures are ignored: the SVG asks browsers for
 * `font-kerning: none`, and the cairo back-end draws glyph by glyph.
 * Code points outside the table (CJK, emoji, ...) count as 1 em, which
 * over-estimates rather than lets text collide.
 */
#ifndef TF_METRICS_H
#define TF_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Font units per em of DejaVu Sans. */
#define TF_METRICS_UPEM 2048
/* Advance width of a code point missing from the table, in font units. */
#define TF_METRICS_FALLBACK 2048

struct tf_glyph_width {
    uint32_t cp;
    uint16_t bold, book; /* advance widths, font units */
};

/* The generated table, sorted by cp (metrics_table.c). */
extern const struct tf_glyph_width tf_metrics_table[];
extern const size_t tf_metrics_table_len;
extern const int tf_metrics_bold_ascent, tf_metrics_bold_descent;
extern const int tf_metrics_book_ascent, tf_metrics_book_descent;

/* Advance width of one code point in font units (fallback when unknown). */
int tf_metrics_advance(uint32_t cp, bool bold);

/* Advance width of a UTF-8 string at `size` points, in points.  Each byte
 * of an invalid sequence counts as one U+FFFD, as tf_xml_clean writes it. */
double tf_text_width(const char *utf8, double size, bool bold);
/* The same in two steps, for one text at several sizes: its advance in
 * font units, then the width of that many units at a size (the same
 * double as tf_text_width). */
long tf_text_units(const char *utf8, bool bold);
double tf_text_units_width(long units, double size);

/* Ascent and descent (both positive) at `size` points, in points: the text
 * box spans baseline - ascent .. baseline + descent, as browsers report it
 * for getBBox(). */
double tf_text_ascent(double size, bool bold);
double tf_text_descent(double size, bool bold);

/* The baseline that centres a line box (ascent + descent) on y. */
double tf_text_center_baseline(double y, double size, bool bold);

#endif
