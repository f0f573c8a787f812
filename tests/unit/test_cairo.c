/* The cairo back-end's font against the layout's metrics table: every
 * advance width the layout measures with (metrics_table.c) must be the
 * advance of the DejaVu file the PDF/PNG back-end draws with, or labels
 * would not sit where the layout put them.  Built only with cairo (which
 * brings FreeType); the font files come from fonts-dejavu-core. */
#ifdef TF_HAVE_CAIRO

#include <ft2build.h>
#include FT_FREETYPE_H

#include "harness.h"
#include "render/metrics.h"

#define DEJAVU "/usr/share/fonts/truetype/dejavu/"

static void check_font(const char *path, bool bold)
{
    FT_Library lib;
    FT_Face face;
    TF_CHECK(FT_Init_FreeType(&lib) == 0);
    if (FT_New_Face(lib, path, 0, &face) != 0) {
        tf_test_failf(__FILE__, __LINE__, "cannot open %s (install fonts-dejavu-core)", path);
        FT_Done_FreeType(lib);
        return;
    }
    TF_CHECK(face->units_per_EM == TF_METRICS_UPEM);
    TF_CHECK(face->ascender == (bold ? tf_metrics_bold_ascent : tf_metrics_book_ascent));
    TF_CHECK(-face->descender == (bold ? tf_metrics_bold_descent : tf_metrics_book_descent));
    int wrong = 0;
    for (size_t i = 0; i < tf_metrics_table_len; i++) {
        const struct tf_glyph_width *g = &tf_metrics_table[i];
        FT_UInt gi = FT_Get_Char_Index(face, g->cp);
        int want = bold ? g->bold : g->book;
        long got = -1;
        if (gi && FT_Load_Glyph(face, gi, FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING) == 0)
            got = face->glyph->metrics.horiAdvance;
        if (got != want && wrong++ < 5)
            tf_test_failf(__FILE__, __LINE__, "%s U+%04X: font advance %ld, table %d", path,
                          (unsigned)g->cp, got, want);
    }
    TF_CHECK(wrong == 0);
    FT_Done_Face(face);
    FT_Done_FreeType(lib);
}

TF_TEST(cairo_font_bold_matches_metrics_table)
{
    check_font(DEJAVU "DejaVuSans-Bold.ttf", true);
}

TF_TEST(cairo_font_book_matches_metrics_table)
{
    check_font(DEJAVU "DejaVuSans.ttf", false);
}

#else
/* ISO C wants a translation unit to declare something. */
typedef int tf_test_cairo_unused;
#endif
