/* The SVG back-end: a parseable, standalone document with one element per
 * bar, clean text and no ids or scripts; and the scene's draw walk. */
#include <libxml/parser.h>
#include <string.h>

#include "support.h"
#include "harness.h"
#include "render/render.h"
#include "render/scene.h"

static void figure(struct tf_figure *f)
{
    tf_figure_init(f);
    f->mode = "timeline";
    f->window_start = 100;
    f->window_end = 700;
    f->zigzag_amp = 7.2;
    tf_test_lane(f, "io", "I/O Thread");
    /* Hostile text: a control character, invalid UTF-8, markup. */
    tf_test_lane(f, "gpu0", "GPU \x01<&>\"\xFF");
    for (int c = 0; c < 3; c++) {
        struct tf_bar *b = tf_test_bar(f, (size_t)(c % 2), c % 2 ? "compute" : "hdf5_io", 5 + c,
                                       200.0 * c, 200.0 * c + 180, TF_COLOR_IO, TF_COLOR_BLACK,
                                       true);
        b->start_ms = 100 + 200.0 * c;
        b->dur_ms = 280.9;
        b->clip_right = c == 2;
        TF_CHECK(tf_seed_bar_tooltip(f, b, true, 5 + c));
    }
    tf_test_frame(f, false, 100.0, 7);
    tf_test_legend(f, "HDF5 read", TF_COLOR_IO, "io");
    TF_CHECK(tf_figure_describe(f, "Pipelined I/O timeline, candidates 5\xE2\x80\x93" "7",
                                "Pipelined I/O timeline of candidates 5 to 7"));
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* Attributes that need escaping between ones that do not: each written as
 * libxml2 writes it alone, in order (svg.c writes runs of plain ones at
 * once). */
TF_TEST(svg_attributes_escaped_in_order)
{
    struct tf_figure f;
    figure(&f);
    static const struct tf_prop props[] = {
        {"a", "x&y", false},  {"b", "plain 1.5 #ABC", false}, {"g", "say \"hi\"", false},
        {"h", "1<2", false},  {"i", "2>1", false},            {"c", "caf\xC3\xA9", false},
        {"d", "", false},     {"e", "tab\there", false},       {"f", "'q'", false},
    };
    TF_CHECK(tf_figure_bar_props(&f, &f.bars[0], props, sizeof props / sizeof props[0]));
    struct tf_buf b;
    tf_buf_init(&b);
    struct tf_diag d;
    tf_diag_init(&d);
    struct tf_render_opts o = {0};
    TF_CHECK(tf_backend_svg.render(&f, &o, &b, &d));
    TF_CHECK(b.data && strstr(b.data, "<g class=\"tf-bar tf-io tf-hdf5_io\" data-lane=\"io\" "
                                      "data-a=\"x&amp;y\" data-b=\"plain 1.5 #ABC\" "
                                      "data-g=\"say &quot;hi&quot;\" data-h=\"1&lt;2\" "
                                      "data-i=\"2&gt;1\" "
                                      "data-c=\"caf\xC3\xA9\" data-d=\"\" data-e=\"tab&#9;here\" "
                                      "data-f=\"'q'\" data-start-ms=\"100\" "
                                      "data-dur-ms=\"280.9\">\n<title>") != NULL);
    tf_buf_fini(&b);
    tf_figure_fini(&f);
}

TF_TEST(svg_is_a_standalone_web_document)
{
    struct tf_figure f;
    figure(&f);
    struct tf_buf b;
    tf_buf_init(&b);
    struct tf_diag d;
    tf_diag_init(&d);
    struct tf_render_opts o = {0};
    TF_CHECK(tf_backend_svg.render(&f, &o, &b, &d));
    TF_CHECK(b.data && strncmp(b.data, "<?xml", 5) == 0);
    xmlDocPtr doc = b.data ? xmlReadMemory(b.data, (int)b.len, "t.svg", NULL, XML_PARSE_NONET) : NULL;
    TF_CHECK(doc != NULL);
    if (doc)
        xmlFreeDoc(doc);
    if (b.data) {
        TF_CHECK(strstr(b.data, "viewBox=\"0 0 720 ") != NULL);
        TF_CHECK(strstr(b.data, "width=\"720pt\"") != NULL);
        TF_CHECK(strstr(b.data, "role=\"img\"") != NULL);
        TF_CHECK(strstr(b.data, "<desc>") != NULL);
        TF_CHECK(strstr(b.data, "<style>") != NULL);
        TF_CHECK(strstr(b.data, "prefers-color-scheme") != NULL);
        TF_CHECK(count(b.data, "<g class=\"tf-bar ") == 3);
        TF_CHECK(strstr(b.data, "<g class=\"tf-bar tf-io tf-hdf5_io\" data-lane=\"io\" data-candidate=\"5\" "
                                "data-start-ms=\"100\" data-dur-ms=\"280.9\">\n"
                                "<title>HDF5 read \xC2\xB7 candidate 5 \xC2\xB7 280.9 ms</title>") !=
                 NULL);
        TF_CHECK(strstr(b.data, "<script") == NULL);
        TF_CHECK(strstr(b.data, " id=") == NULL);
        TF_CHECK(strstr(b.data, "href") == NULL);
        TF_CHECK(strstr(b.data, "e+") == NULL && strstr(b.data, "e-0") == NULL);
        /* The hostile label: escaped, the control byte and 0xFF replaced. */
        TF_CHECK(strstr(b.data, "GPU \xEF\xBF\xBD&lt;&amp;&gt;&quot;\xEF\xBF\xBD</text>") != NULL);
        for (size_t i = 0; i < b.len; i++)
            if ((unsigned char)b.data[i] < 0x20 && b.data[i] != '\n') {
                tf_test_failf(__FILE__, __LINE__, "control byte 0x%02x at %zu",
                              (unsigned char)b.data[i], i);
                break;
            }
    }
    tf_buf_fini(&b);
    tf_figure_fini(&f);
}

TF_TEST(svg_bytes_are_stable)
{
    struct tf_figure f;
    figure(&f);
    struct tf_buf a, b;
    tf_buf_init(&a);
    tf_buf_init(&b);
    struct tf_diag d;
    tf_diag_init(&d);
    struct tf_render_opts o = {0};
    TF_CHECK(tf_backend_svg.render(&f, &o, &a, &d));
    TF_CHECK(tf_backend_svg.render(&f, &o, &b, &d));
    TF_CHECK(a.len == b.len && a.data && b.data && memcmp(a.data, b.data, a.len) == 0);
    tf_buf_fini(&a);
    tf_buf_fini(&b);
    tf_figure_fini(&f);
}

/* The draw walk: unset slots do nothing; groups arrive balanced. */
struct walk {
    int begins, ends, paths, texts, depth, max_depth;
    double w, h;
};

static void w_begin(void *ctx, double w, double h, const char *t, const char *d)
{
    struct walk *k = ctx;
    (void)t, (void)d;
    k->w = w, k->h = h;
}
static void w_group_begin(void *ctx, const struct tf_group *g)
{
    struct walk *k = ctx;
    (void)g;
    k->begins++;
    if (++k->depth > k->max_depth)
        k->max_depth = k->depth;
}
static void w_group_end(void *ctx)
{
    struct walk *k = ctx;
    k->ends++;
    k->depth--;
}
static void w_text(void *ctx, const struct tf_text *t)
{
    struct walk *k = ctx;
    (void)t;
    k->texts++;
}

TF_TEST(scene_draw_walks_every_item)
{
    struct tf_scene s;
    tf_scene_init(&s);
    s.width = 100, s.height = 50;
    double xs[3] = {0, 10, 10}, ys[3] = {0, 0, 10};
    const struct tf_attr kv = {"k", "v"};
    tf_scene_group_begin(&s, &(struct tf_group){.cls = "a", .title = "t", .attrs = &kv,
                                                .n_attrs = 1});
    tf_scene_path(&s, &(struct tf_path){.xs = xs, .ys = ys, .n = 3, .closed = true});
    tf_scene_group_begin(&s, &(struct tf_group){.cls = "b"});
    tf_scene_text(&s, &(struct tf_text){.s = "hi", .x = 1, .y = 2, .size = 9});
    tf_scene_group_end(&s);
    tf_scene_group_end(&s);
    tf_scene_group_end(&s); /* unbalanced: ignored */
    TF_CHECK(!s.oom);
    TF_CHECK(s.n_items == 6);
    /* Copies, not the caller's memory. */
    xs[1] = 99;
    TF_CHECK(s.items[1].u.path.xs[1] == 10);
    TF_CHECK_STR(s.items[0].u.group.attrs[0].value, "v");
    struct walk k = {0};
    const struct tf_draw only_groups = {.begin = w_begin, .group_begin = w_group_begin,
                                        .group_end = w_group_end, .text = w_text};
    tf_scene_draw(&s, &only_groups, &k);
    TF_CHECK(k.begins == 2 && k.ends == 2 && k.depth == 0 && k.max_depth == 2);
    TF_CHECK(k.texts == 1);
    TF_CHECK(k.w == 100 && k.h == 50);
    tf_scene_draw(&s, &(struct tf_draw){0}, NULL); /* all slots empty */
    tf_scene_fini(&s);
}
