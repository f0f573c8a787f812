/* test_annot.c - a GPU stream's annotations give way to its work: the
 * Chrome mode stacks Kineto's gpu_user_annotation slices above the
 * kernels (rules/chrome/rows.c), --depth and the height budget
 * (render/plan.c) cut the annotations' rows first, and the legend leaves
 * out a category the cut leaves without a bar. */
#include <stdlib.h>
#include <unistd.h>

#include "support.h"
#include "harness.h"
#include "render/plan.h"
#include "lib/run.h"

/* One GPU stream: the step's annotation over two kernels and a memcpy,
 * and a kernel after it (outside every annotation). */
static const char gpu_json[] =
    "[{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"tid\":0,\"args\":{\"name\":\"GPU 0\"}},"
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":0,\"tid\":7,\"args\":{\"name\":\"stream 7\"}},"
    "{\"ph\":\"X\",\"pid\":0,\"tid\":7,\"ts\":0,\"dur\":100,\"name\":\"ProfilerStep#1\","
    "\"cat\":\"gpu_user_annotation\"},"
    "{\"ph\":\"X\",\"pid\":0,\"tid\":7,\"ts\":10,\"dur\":10,\"name\":\"gemm\",\"cat\":\"kernel\"},"
    "{\"ph\":\"X\",\"pid\":0,\"tid\":7,\"ts\":30,\"dur\":10,\"name\":\"relu\",\"cat\":\"kernel\"},"
    "{\"ph\":\"X\",\"pid\":0,\"tid\":7,\"ts\":50,\"dur\":10,\"name\":\"Memcpy DtoH\","
    "\"cat\":\"gpu_memcpy\"},"
    "{\"ph\":\"X\",\"pid\":0,\"tid\":7,\"ts\":110,\"dur\":10,\"name\":\"adam\",\"cat\":\"kernel\"}]";

static bool gpu_figure(long long depth, struct tf_figure *f, struct tf_trace *t)
{
    struct tf_opts o;
    memset(&o, 0, sizeof o);
    o.no_stats = true;
    o.depth = depth;
    return tf_test_chrome_text(gpu_json, &o, f, t);
}

static const char *cat_of(const struct tf_figure *f, const struct tf_bar *b)
{
    return f->cats[b->cat].name ? f->cats[b->cat].name : "";
}

static bool has_note(const struct tf_figure *f, const char *part)
{
    for (size_t i = 0; i < f->n_notes; i++)
        if (strstr(f->notes[i], part))
            return true;
    return false;
}

TF_TEST(chrome_stacks_gpu_annotations_above_the_work)
{
    struct tf_figure f;
    struct tf_trace t;
    tf_figure_init(&f);
    tf_trace_init(&t);
    TF_CHECK(gpu_figure(0, &f, &t));
    TF_CHECK(f.n_lanes == 1 && f.n_bars == 5);
    if (f.n_lanes == 1) {
        TF_CHECK(f.lanes[0].rows == 2);
        TF_CHECK(f.lanes[0].annot_rows == 1);
    }
    /* Every kernel on the work's row, the one outside the step too. */
    for (size_t i = 0; i < f.n_bars; i++) {
        bool annot = strcmp(cat_of(&f, &f.bars[i]), "gpu_user_annotation") == 0;
        TF_CHECK(f.bars[i].row == (annot ? 0u : 1u));
    }
    tf_figure_fini(&f);
    tf_trace_fini(&t);
}

TF_TEST(chrome_depth_cuts_gpu_annotations_first)
{
    struct tf_figure f;
    struct tf_trace t;
    tf_figure_init(&f);
    tf_trace_init(&t);
    TF_CHECK(gpu_figure(1, &f, &t));
    TF_CHECK(f.n_lanes == 1 && f.n_bars == 4);
    if (f.n_lanes == 1)
        TF_CHECK(f.lanes[0].rows == 1 && f.lanes[0].annot_rows == 0);
    for (size_t i = 0; i < f.n_bars; i++) {
        TF_CHECK(strcmp(cat_of(&f, &f.bars[i]), "gpu_user_annotation") != 0);
        TF_CHECK(f.bars[i].row == 0);
    }
    TF_CHECK(has_note(&f, "1 slice nested deeper than 1 rows not drawn (annotations of GPU "
                          "work first): --depth"));
    tf_figure_fini(&f);
    tf_trace_fini(&t);
}

TF_TEST(plan_height_cut_keeps_the_gpu_work)
{
    struct tf_figure f;
    struct tf_trace t;
    tf_figure_init(&f);
    tf_trace_init(&t);
    TF_CHECK(gpu_figure(0, &f, &t));
    struct tf_size low = {.height_pt = 30, .given = true};
    struct tf_plan p;
    TF_CHECK(tf_plan_make(&f, &low, &p));
    TF_CHECK(p.depth == 1 && p.n_lanes == 1);
    size_t kernels = 0;
    for (size_t i = 0; i < f.n_bars; i++) {
        const struct tf_bar *b = &f.bars[i];
        unsigned row = tf_plan_row(&p, &f, b->lane, b->row);
        if (strcmp(cat_of(&f, b), "gpu_user_annotation") == 0) {
            TF_CHECK(row == TF_PLAN_NO_ROW);
        } else {
            TF_CHECK(row == 0);
            kernels += strcmp(cat_of(&f, b), "kernel") == 0;
        }
    }
    TF_CHECK(kernels == 3);
    TF_CHECK(p.cut_rows == 1 && p.cut_annots == 1);
    TF_CHECK(p.note && strstr(p.note, "annotations of GPU work first"));
    /* The legend: the kernel and the memcpy, not the annotation. */
    TF_CHECK(p.legend.n == 2);
    for (size_t k = 0; k < p.legend.n; k++)
        TF_CHECK(strcmp(f.legend[p.legend.order[k]].label, "gpu_user_annotation") != 0);
    tf_plan_fini(&p);
    /* With room, both rows as the trace nests them, every entry shown. */
    struct tf_size tall = {.height_pt = 300, .given = true};
    TF_CHECK(tf_plan_make(&f, &tall, &p));
    TF_CHECK(p.depth == 2 && p.cut_rows == 0 && p.legend.n == f.n_legend);
    for (size_t i = 0; i < f.n_bars; i++)
        TF_CHECK(tf_plan_row(&p, &f, 0, f.bars[i].row) == f.bars[i].row);
    tf_plan_fini(&p);
    tf_figure_fini(&f);
    tf_trace_fini(&t);
}

/* A lane of three rows, annotations in the first two: cut to two rows it
 * keeps the work and the outer annotation; to one, the work alone. */
TF_TEST(plan_row_keeps_the_outer_annotations_that_fit)
{
    struct tf_figure f;
    tf_figure_init(&f);
    struct tf_lane *ln = tf_figure_add_lane(&f, NULL, "GPU 0 / stream 7");
    TF_CHECK(ln != NULL);
    if (!ln)
        return;
    ln->rows = 3;
    ln->annot_rows = 2;
    struct tf_plan p;
    memset(&p, 0, sizeof p);
    struct tf_plan_lane pl = {.rows = 2};
    p.lanes = &pl;
    p.n_lanes = 1;
    TF_CHECK(tf_plan_row(&p, &f, 0, 0) == 0);
    TF_CHECK(tf_plan_row(&p, &f, 0, 1) == TF_PLAN_NO_ROW);
    TF_CHECK(tf_plan_row(&p, &f, 0, 2) == 1);
    pl.rows = 1;
    TF_CHECK(tf_plan_row(&p, &f, 0, 0) == TF_PLAN_NO_ROW);
    TF_CHECK(tf_plan_row(&p, &f, 0, 2) == 0);
    pl.rows = 3;
    for (unsigned r = 0; r < 3; r++)
        TF_CHECK(tf_plan_row(&p, &f, 0, r) == r);
    /* Without annotations, rows are cut from the bottom. */
    ln->annot_rows = 0;
    pl.rows = 1;
    TF_CHECK(tf_plan_row(&p, &f, 0, 0) == 0 && tf_plan_row(&p, &f, 0, 2) == TF_PLAN_NO_ROW);
    TF_CHECK(tf_plan_row(&p, &f, 1, 0) == TF_PLAN_NO_ROW);
    tf_figure_fini(&f);
}

/* A rank's lane (keep_inner) of four rows cut to fewer: its outer rows as
 * they are, the rest folded into its last drawn row (each over the one it
 * is nested in), so that a top-level slice (MPI_Init) is drawn at one row
 * too; the folded rows but the deepest are "under" (no in-bar label). */
TF_TEST(plan_row_folds_a_ranks_inner_rows_into_its_last)
{
    struct tf_figure f;
    tf_figure_init(&f);
    struct tf_lane *ln = tf_figure_add_lane(&f, NULL, "rank 0");
    TF_CHECK(ln != NULL);
    if (!ln)
        return;
    ln->rows = 4;
    ln->keep_inner = true;
    struct tf_plan p;
    memset(&p, 0, sizeof p);
    struct tf_plan_lane pl = {.rows = 1};
    p.lanes = &pl;
    p.n_lanes = 1;
    for (unsigned r = 0; r < 4; r++)
        TF_CHECK(tf_plan_row(&p, &f, 0, r) == 0);
    TF_CHECK(tf_plan_row_under(&p, &f, 0, 0) && tf_plan_row_under(&p, &f, 0, 2));
    TF_CHECK(!tf_plan_row_under(&p, &f, 0, 3));
    pl.rows = 2;
    TF_CHECK(tf_plan_row(&p, &f, 0, 0) == 0 && !tf_plan_row_under(&p, &f, 0, 0));
    TF_CHECK(tf_plan_row(&p, &f, 0, 1) == 1 && tf_plan_row_under(&p, &f, 0, 1));
    TF_CHECK(tf_plan_row(&p, &f, 0, 3) == 1 && !tf_plan_row_under(&p, &f, 0, 3));
    pl.rows = 4;
    for (unsigned r = 0; r < 4; r++)
        TF_CHECK(tf_plan_row(&p, &f, 0, r) == r && !tf_plan_row_under(&p, &f, 0, r));
    tf_figure_fini(&f);
}
