/* test_palette.c - palette files (model/palette.h): escapes both ways,
 * located errors, and applying a table to a figure's categories. */
#include <string.h>

#include "harness.h"
#include "model/palette.h"

TF_TEST(palette_parse_escapes_and_comments)
{
    static const char text[] = "# tracefig palette\n#\n\n#aabbCC\ta\\tb\\\\c\r\n#000001\tx y\n";
    struct tf_palette p;
    tf_palette_init(&p);
    struct tf_diag d;
    tf_diag_init(&d);
    TF_CHECK(tf_palette_parse("p", text, sizeof text - 1, &p, &d));
    TF_CHECK(p.n == 2);
    if (p.n == 2) {
        TF_CHECK(p.v[0].rgb == 0xAABBCC);
        TF_CHECK_STR(p.v[0].cls, "a\tb\\c");
        TF_CHECK_STR(p.v[1].cls, "x y");
    }
    tf_palette_fini(&p);
}

static void bad(const char *text, const char *where)
{
    struct tf_palette p;
    tf_palette_init(&p);
    struct tf_diag d;
    tf_diag_init(&d);
    TF_CHECK(!tf_palette_parse("p", text, strlen(text), &p, &d));
    TF_CHECK(d.code == TF_EBADINPUT);
    TF_CHECK(strncmp(d.msg, where, strlen(where)) == 0);
    tf_palette_fini(&p);
}

TF_TEST(palette_parse_errors_are_located)
{
    bad("red\tx\n", "p:1:1: ");
    bad("#12\tx\n", "p:1:4: ");
    bad("#123456x\n", "p:1:8: ");
    bad("#123456\t\n", "p:1:9: ");
    bad("# c\n#123456\ta\\q\n", "p:2:10: ");
    bad("#123456\ta\n#654321\ta\n", "p:2:9: ");
}

TF_TEST(palette_write_then_apply)
{
    struct tf_figure f;
    tf_figure_init(&f);
    size_t a = tf_figure_category(&f, "name/0/op", 0xCC6677);
    size_t b = tf_figure_category(&f, "name/1/op", 0x332288);
    TF_CHECK(a == 0 && b == 1);
    f.cats[a].label = "al\tpha";
    f.cats[b].label = "beta";
    TF_CHECK(tf_figure_add_legend(&f, "beta", b) && tf_figure_add_legend(&f, "al\tpha", a));
    struct tf_buf out;
    tf_buf_init(&out);
    tf_palette_write(&f, &out);
    TF_CHECK_STR(out.data, "# tracefig palette: #RRGGBB<TAB>CLASS, one a line\n"
                           "#332288\tbeta\n#CC6677\tal\\tpha\n");
    /* beta named, al\tpha not: its colour is the file's, so it moves. */
    static const char text[] = "#CC6677\tbeta\n";
    struct tf_palette p;
    tf_palette_init(&p);
    struct tf_diag d;
    tf_diag_init(&d);
    TF_CHECK(tf_palette_parse("p", text, sizeof text - 1, &p, &d));
    static const uint32_t spare[] = {0xCC6677, 0x332288, 0x117733};
    TF_CHECK(tf_palette_apply(&f, &p, spare, 3));
    TF_CHECK(f.cats[b].color == 0xCC6677);
    TF_CHECK(f.cats[a].color == 0x332288);
    tf_palette_fini(&p);
    tf_buf_fini(&out);
    tf_figure_fini(&f);
}
