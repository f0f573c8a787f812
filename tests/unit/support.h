/* support.h - what the unit tests share: the project's headers, and short
 * ways to run a mode's rules on a hand-made trace and to read a bar's
 * candidate back from the figure model. */
#ifndef TF_TEST_SUPPORT_H
#define TF_TEST_SUPPORT_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/num.h"
#include "load/load.h"
#include "model/figure.h"
#include "model/trace.h"
#include "rules/breakdown.h"
#include "rules/mode.h"
#include "rules/palette.h"
#include "rules/seed.h"
#include "base/ticks.h"
#include "lib/run.h"

/* The pipelined mode's figure of a timeline (breakdown may be NULL). */
static inline bool tf_test_timeline(const struct tf_timeline *t, const struct tf_breakdown_in *bd,
                                    const struct tf_opts *o, struct tf_figure *f,
                                    struct tf_diag *d)
{
    struct tf_trace tr;
    memset(&tr, 0, sizeof tr);
    tr.kind = TF_TRACE_TIMELINE;
    tr.timeline = *t;
    struct tf_mode_input in = {&tr, bd, "trace.json", "breakdown.json"};
    return tf_mode_timeline.build(&in, o, f, d);
}

/* The PyTorch mode's figure of a loaded legacy trace. */
static inline bool tf_test_pytorch(const struct tf_pytorch *p, const struct tf_opts *o,
                                   struct tf_figure *f, struct tf_diag *d)
{
    struct tf_trace tr;
    memset(&tr, 0, sizeof tr);
    tr.kind = TF_TRACE_CHROME;
    tr.pytorch = *p;
    struct tf_mode_input in = {&tr, NULL, "trace.json", NULL};
    return tf_mode_pytorch.build(&in, o, f, d);
}

/* A numeric property (LLONG_MIN when absent or null). */
static inline long long tf_test_prop(const struct tf_prop *props, size_t n, const char *key)
{
    const struct tf_prop *p = tf_prop_find(props, n, key);
    return p && p->value ? strtoll(p->value, NULL, 10) : LLONG_MIN;
}

static inline long long tf_test_cand(const struct tf_bar *b)
{
    return tf_test_prop(b->props, b->n_props, "candidate");
}

static inline long long tf_test_start_candidate(const struct tf_figure *f)
{
    return tf_test_prop(f->props, f->n_props, "start_candidate");
}

/* Loads a trace keeping what `mode` keeps (for its kind; other kinds as
 * auto would). */
static inline bool tf_test_load(const char *path, const struct tf_mode *mode,
                                const struct tf_opts *o, struct tf_trace *t, struct tf_diag *d)
{
    struct tf_keep keep, one;
    memset(&keep, 0, sizeof keep);
    void *state = NULL;
    if (mode->begin) {
        memset(&one, 0, sizeof one);
        if (!mode->begin(o, t, &one, d))
            return false;
        keep = one;
        state = one.state;
    }
    bool ok = tf_load_trace(path, &keep, t, d);
    if (mode->end) {
        memset(&one, 0, sizeof one);
        one.state = state;
        mode->end(&one);
    }
    return ok;
}

/* --- hand-made figures --------------------------------------------------- */

static inline void tf_test_lane(struct tf_figure *f, const char *key, const char *label)
{
    if (!tf_figure_add_lane(f, key, label))
        abort();
}

/* A bar as the pipelined mode makes them: category "main/NAME" on the main
 * lane, else the lane's key; candidate cand (< 0: none) as a prop and, when
 * labelled, as its in-bar text; a seed tooltip. */
static inline struct tf_bar *tf_test_bar(struct tf_figure *f, size_t lane, const char *name,
                                         long long cand, double x0, double x1, uint32_t color,
                                         uint32_t label_color, bool labelled)
{
    char key[64], c[32];
    const char *lk = lane < f->n_lanes && f->lanes[lane].key ? f->lanes[lane].key : "lane";
    if (strcmp(lk, "main") == 0)
        snprintf(key, sizeof key, "main/%s", name);
    else
        snprintf(key, sizeof key, "%s", lk);
    size_t cat = tf_figure_category(f, key, color);
    struct tf_bar *b = tf_figure_add_bar(f);
    if (!b || cat == (size_t)-1)
        abort();
    b->lane = lane;
    b->cat = cat;
    b->name = tf_figure_str(f, name);
    b->start_ms = f->window_start + x0;
    b->dur_ms = x1 - x0;
    b->x0 = x0;
    b->x1 = x1;
    b->color = color;
    b->label_color = label_color;
    snprintf(c, sizeof c, "%lld", cand);
    if (cand >= 0) {
        struct tf_prop p = {"candidate", c, true};
        if (!tf_figure_bar_props(f, b, &p, 1))
            abort();
        if (labelled)
            b->label = tf_figure_str(f, c);
    }
    if (!tf_seed_bar_tooltip(f, b, cand >= 0, cand))
        abort();
    return b;
}

/* Ticks 0, step, ... (n of them) in ms, on a seed frame. */
static inline void tf_test_frame(struct tf_figure *f, bool main_lane, double step, size_t n)
{
    f->x_span = f->window_end - f->window_start;
    if (!tf_seed_frame(f, main_lane, f->x_span))
        abort();
    if (step > 0) {
        double t[64];
        for (size_t i = 0; i < n && i < 64; i++)
            t[i] = step * (double)i;
        if (!tf_figure_set_ticks(f, t, n < 64 ? n : 64))
            abort();
    }
}

static inline void tf_test_legend(struct tf_figure *f, const char *label, uint32_t color,
                                  const char *key)
{
    if (!tf_figure_add_legend(f, label, tf_seed_legend_cat(f, color, key)))
        abort();
}

/* The Chrome mode's figure of a trace given as text, through a temporary
 * file, as the command line would draw it with options o (statistics off
 * when o is NULL). */
static inline bool tf_test_chrome_text(const char *json, const struct tf_opts *o,
                                       struct tf_figure *f, struct tf_trace *t)
{
    char path[] = "/tmp/tracefig-unit-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return false;
    bool ok = write(fd, json, strlen(json)) == (ssize_t)strlen(json);
    close(fd);
    struct tf_opts def;
    memset(&def, 0, sizeof def);
    def.no_stats = true;
    struct tf_diag d;
    tf_diag_init(&d);
    struct tf_run r = {path, NULL, &tf_mode_chrome, o ? o : &def, NULL};
    ok = ok && tf_run(&r, t, f, &d);
    unlink(path);
    return ok;
}

#endif
