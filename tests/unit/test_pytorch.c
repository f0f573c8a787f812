/* test_pytorch.c - legacy PyTorch traces: the plot_pytorch_trace rules
 * (pytorch.c) and the Chrome loader (load_chrome.c) on both load paths. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"
#include "harness.h"

static void block(struct tf_pytorch *p, double ts, double dur, unsigned char kind)
{
    struct tf_pt_block b = {ts, dur, kind};
    tf_pytorch_push(p, &b);
}

TF_TEST(pytorch_window_and_selection)
{
    struct tf_pytorch p;
    tf_pytorch_init(&p);
    p.found = true;
    p.win_ts_us = 1000000.0; /* 1000 ms */
    p.win_dur_us = 100000.0; /* 100 ms: window 998 .. 1105 ms */
    block(&p, 1010000.0, 5000.0, TF_PT_COMPUTE);  /* inside */
    block(&p, 1001000.0, 2000.0, TF_PT_IO);       /* inside */
    block(&p, 990000.0, 8000.0, TF_PT_IO);        /* ends at the window start: kept */
    block(&p, 1105000.0, 50000.0, TF_PT_COMPUTE); /* starts at the window end: kept */
    block(&p, 1105001.0, 1.0, TF_PT_IO);          /* after the window */
    block(&p, 900000.0, 10000.0, TF_PT_IO);       /* before the window */
    block(&p, 1002000.0, -5.0, TF_PT_IO);         /* negative duration */
    block(&p, 1050000.0, 0.0, TF_PT_COMPUTE);     /* zero width: drawn, as the reference */
    struct tf_opts o;
    memset(&o, 0, sizeof o);
    struct tf_figure f;
    tf_figure_init(&f);
    struct tf_diag d;
    tf_diag_init(&d);
    TF_CHECK(tf_test_pytorch(&p, &o, &f, &d));
    TF_CHECK_STR(f.mode, "pytorch");
    TF_CHECK(tf_test_start_candidate(&f) == LLONG_MIN);
    TF_CHECK_NEAR(f.window_start, 998.0, 1e-9);
    TF_CHECK_NEAR(f.window_end, 1105.0, 1e-9);
    TF_CHECK(f.n_lanes == 2);
    TF_CHECK_STR(f.lanes[0].key, "gpu");
    TF_CHECK_STR(f.lanes[0].label, "GPU compute");
    TF_CHECK_STR(f.lanes[1].key, "io");
    TF_CHECK_STR(f.lanes[1].label, "I/O");
    /* I/O bars first, then compute, each in input order. */
    TF_CHECK(f.n_bars == 5);
    if (f.n_bars == 5) {
        TF_CHECK_STR(f.bars[0].name, "io");
        TF_CHECK(f.bars[0].lane == 1 && f.bars[0].color == TF_COLOR_IO);
        TF_CHECK_NEAR(f.bars[0].x0, 3.0, 1e-9);
        TF_CHECK_NEAR(f.bars[0].x1, 5.0, 1e-9);
        TF_CHECK(!f.bars[0].clip_left && !f.bars[0].clip_right && !f.bars[0].label);
        /* Crossing the left edge: the reference's x, and a zigzag. */
        TF_CHECK_NEAR(f.bars[1].x0, -8.0, 1e-9);
        TF_CHECK_NEAR(f.bars[1].x1, 0.0, 1e-9);
        TF_CHECK(f.bars[1].clip_left && !f.bars[1].clip_right);
        TF_CHECK_STR(f.bars[2].name, "compute");
        TF_CHECK(f.bars[2].lane == 0 && f.bars[2].color == TF_COLOR_GPU0);
        TF_CHECK_NEAR(f.bars[2].x0, 12.0, 1e-9);
        TF_CHECK_NEAR(f.bars[2].x1, 17.0, 1e-9);
        TF_CHECK_NEAR(f.bars[2].start_ms, 1010.0, 1e-9);
        TF_CHECK_NEAR(f.bars[2].dur_ms, 5.0, 1e-9);
        TF_CHECK(f.bars[3].clip_right && !f.bars[3].clip_left);
        TF_CHECK_NEAR(f.bars[3].x1, 157.0, 1e-9);
        TF_CHECK_NEAR(f.bars[4].x0, f.bars[4].x1, 1e-12);
    }
    /* 1.2 % of the 107 ms window, without the timeline's 6 ms floor. */
    TF_CHECK_NEAR(f.zigzag_amp, 0.012 * 107.0, 1e-9);
    TF_CHECK(f.n_legend == 2);
    TF_CHECK(f.axis.n_ticks >= 2 && f.axis.ticks[0] == 0.0);
    tf_figure_fini(&f);
    tf_pytorch_fini(&p);
}

TF_TEST(pytorch_without_window_is_an_error)
{
    struct tf_pytorch p;
    tf_pytorch_init(&p);
    struct tf_figure f;
    tf_figure_init(&f);
    struct tf_diag d;
    tf_diag_init(&d);
    TF_CHECK(!tf_test_pytorch(&p, NULL, &f, &d));
    TF_CHECK(d.code == TF_EBADINPUT);
    tf_figure_fini(&f);
}

/* --- the loader --------------------------------------------------------- */

static char *write_tmp(const char *text)
{
    char *path = malloc(64);
    snprintf(path, 64, "/tmp/tracefig-unit-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) {
        free(path);
        return NULL;
    }
    size_t n = strlen(text);
    if (write(fd, text, n) != (ssize_t)n) {
        close(fd);
        free(path);
        return NULL;
    }
    close(fd);
    return path;
}

/* Loads `text` with --start_candidate cand on the given path ("whole" or
 * "stream"). */
static bool load(const char *text, const char *mode, long long cand, struct tf_trace *t,
                 struct tf_diag *d)
{
    char *path = write_tmp(text);
    if (!path)
        return false;
    setenv("TRACEFIG_LOAD", mode, 1);
    struct tf_opts o;
    memset(&o, 0, sizeof o);
    if (cand >= 0) {
        o.start_candidate.set = true;
        o.start_candidate.v = cand;
    }
    tf_trace_init(t);
    tf_diag_init(d);
    bool ok = tf_test_load(path, &tf_mode_pytorch, &o, t, d);
    unsetenv("TRACEFIG_LOAD");
    unlink(path);
    free(path);
    return ok;
}

/* An X window wins over an earlier B/E pair of the same name. */
static const char x_beats_be[] =
    "[\n"
    " {\"ph\": \"B\", \"name\": \"Candidate_Eval_0\", \"pid\": 1, \"tid\": 1, \"ts\": 10},\n"
    " {\"ph\": \"E\", \"name\": \"Candidate_Eval_0\", \"pid\": 1, \"tid\": 1, \"ts\": 20},\n"
    " {\"ph\": \"X\", \"name\": \"Math_Operations\", \"pid\": 1, \"tid\": 1, \"ts\": 5000, \"dur\": 5},\n"
    " {\"ph\": \"X\", \"name\": \"Candidate_Eval_0\", \"pid\": 1, \"tid\": 1, \"ts\": 4990,"
    " \"dur\": 100}\n"
    "]\n";

static const char forms[] =
    "[\n"
    " {\"name\": \"process_name\", \"ph\": \"M\", \"pid\": \"Spans\", \"args\": {}},\n"
    " {\"ph\": \"B\", \"name\": \"Candidate_Eval_0\", \"pid\": \"host\", \"tid\": \"main\","
    " \"ts\": 1000.5},\n"
    " {\"ph\": \"X\", \"name\": \"IO_Wait_For_GPU\", \"pid\": 1, \"tid\": 2, \"ts\": 1001.25,"
    " \"dur\": 2.5},\n"
    " {\"ph\": \"B\", \"name\": \"H2D_Transfer\", \"pid\": \"host\", \"tid\": \"main\","
    " \"ts\": 1010},\n"
    " {\"ph\": \"B\", \"name\": \"other\", \"pid\": \"host\", \"tid\": \"main\", \"ts\": 1011},\n"
    " {\"ph\": \"E\", \"pid\": \"host\", \"tid\": \"main\", \"ts\": 1012},\n"
    " {\"ph\": \"E\", \"pid\": \"host\", \"tid\": \"main\", \"ts\": 1030.75},\n"
    " {\"ph\": \"X\", \"name\": \"POSIX_Lustre_Read #3\", \"pid\": 1, \"tid\": 2, \"ts\": 1005,"
    " \"dur\": 500},\n"
    " {\"ph\": \"X\", \"name\": \"Math_Operations\", \"pid\": 1, \"tid\": 1, \"ts\": 1040},\n"
    " {\"ph\": \"X\", \"name\": \"Candidate_Eval_1\", \"pid\": 1, \"tid\": 1, \"ts\": 1100,"
    " \"dur\": 50},\n"
    " {\"ph\": \"E\", \"name\": \"Candidate_Eval_0\", \"pid\": \"host\", \"tid\": \"main\","
    " \"ts\": 1100.5},\n"
    " {\"ph\": \"X\", \"name\": \"Math_Operations\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 1}\n"
    "]\n";

TF_TEST(chrome_x_window_beats_be_pair)
{
    static const char *const modes[] = {"whole", "stream"};
    for (int m = 0; m < 2; m++) {
        struct tf_trace t;
        struct tf_diag d;
        TF_CHECK(load(x_beats_be, modes[m], -1, &t, &d));
        TF_CHECK(t.pytorch.found);
        TF_CHECK_NEAR(t.pytorch.win_ts_us, 4990.0, 1e-9);
        TF_CHECK_NEAR(t.pytorch.win_dur_us, 100.0, 1e-9);
        TF_CHECK(t.pytorch.n_blocks == 1);
        tf_trace_fini(&t);
    }
}

TF_TEST(chrome_forms_on_both_paths)
{
    static const char *const modes[] = {"whole", "stream"};
    for (int m = 0; m < 2; m++) {
        struct tf_trace t;
        struct tf_diag d;
        TF_CHECK(load(forms, modes[m], -1, &t, &d));
        TF_CHECK(t.kind == TF_TRACE_CHROME);
        const struct tf_pytorch *p = &t.pytorch;
        TF_CHECK(p->found && p->candidate == 0);
        TF_CHECK_NEAR(p->win_ts_us, 1000.5, 1e-9);
        TF_CHECK_NEAR(p->win_dur_us, 100.0, 1e-9);
        /* X I/O, the B/E H2D pair (at its B), the Lustre read, and the block
         * far outside the window (a B/E window never prunes: an X window
         * later in the file would replace it); the X without dur is not. */
        TF_CHECK(p->n_blocks == 4);
        if (p->n_blocks == 4) {
            TF_CHECK(p->blocks[0].kind == TF_PT_IO);
            TF_CHECK_NEAR(p->blocks[0].ts_us, 1001.25, 1e-9);
            TF_CHECK(p->blocks[1].kind == TF_PT_COMPUTE);
            TF_CHECK_NEAR(p->blocks[1].ts_us, 1010.0, 1e-9);
            TF_CHECK_NEAR(p->blocks[1].dur_us, 20.75, 1e-9);
            TF_CHECK(p->blocks[2].kind == TF_PT_IO);
            TF_CHECK_NEAR(p->blocks[2].dur_us, 500.0, 1e-9);
        }
        tf_trace_fini(&t);

        TF_CHECK(load(forms, modes[m], 1, &t, &d));
        TF_CHECK(t.pytorch.found && t.pytorch.candidate == 1);
        TF_CHECK_NEAR(t.pytorch.win_ts_us, 1100.0, 1e-9);
        tf_trace_fini(&t);

        TF_CHECK(!load(forms, modes[m], 7, &t, &d));
        TF_CHECK(strstr(d.msg, "tracefig-unit-") != NULL);
        TF_CHECK(strstr(d.msg, "Candidate_Eval_7") != NULL);
        tf_trace_fini(&t);
    }
}

TF_TEST(chrome_type_errors_match_between_paths)
{
    static const char *const docs[] = {
        "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"Candidate_Eval_0\", \"ts\": 1, \"dur\": 9},"
        " {\"ph\": \"X\", \"name\": \"H2D_Transfer\", \"ts\": \"5\", \"dur\": 1}]}",
        "{\"traceEvents\": {}}",
        "{\"traceEvents\": [3]}",
        "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [{\"ph\": \"X\", \"name\": "
        "\"Candidate_Eval_0\", \"ts\": 1}]}",
        "{\"format\": \"pipelined_timeline_v3\", \"events\": []}",
        "{\"x\": 1}",
    };
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        struct tf_trace t;
        struct tf_diag dw, ds;
        bool ow = load(docs[i], "whole", -1, &t, &dw);
        tf_trace_fini(&t);
        bool os = load(docs[i], "stream", -1, &t, &ds);
        tf_trace_fini(&t);
        TF_CHECK(!ow && !os);
        /* The messages name different temporary files: compare after it. */
        const char *mw = strstr(dw.msg, ": "), *ms = strstr(ds.msg, ": ");
        TF_CHECK(mw && ms);
        if (mw && ms)
            TF_CHECK_STR(mw, ms);
    }
}
