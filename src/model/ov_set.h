/* ov_set.h - the data of a job's overview that a figure may hold before
 * its rows are made: a rank's strip of busy shares, a member of the rows,
 * and a set of ranks reduced (tf_figure.ov_set, which tf_figure_fini
 * frees).  Plain structs and their freeing only, below the figure model:
 * model/overview.h makes them and the rows.
 */
#ifndef TF_MODEL_OV_SET_H
#define TF_MODEL_OV_SET_H

#include <stddef.h>
#include <stdint.h>

#include "model/figure.h"

/* A strip's bins across its figure's axis, and a bin's share written as
 * a fraction of TF_OV_Q. */
#define TF_OV_BINS 512
#define TF_OV_Q 65535u

struct tf_ov_strip {
    double span;                 /* its figure's axis, [0, span] (that figure's units) */
    double busy;                 /* the time it inks, exactly (before rounding to shares) */
    double end;                  /* when its last slice ends; < 0: it has none */
    size_t n_cls;
    size_t cat[TF_SHARES_MAX];   /* each class: a category of its figure (tf_ov_rows: of
                                    the overview's) */
    uint16_t *q;                 /* n_cls x TF_OV_BINS shares of a bin, owned */
};

/* Frees a strip's shares (zeroes it). */
void tf_ov_strip_fini(struct tf_ov_strip *s);

/* One rank of the rows: its strip and how its axis maps onto the
 * figure's (x * k + dx). */
struct tf_ov_member {
    const struct tf_ov_strip *s;
    double k, dx;
    long long rank;
    size_t trace; /* its trace in the figure, else SIZE_MAX */
};

/* A job's ranks reduced, not yet in rows: what a mode that reads a whole
 * job at once (the Chrome mode, an OTF2 archive) hands on in its figure
 * (tf_figure.ov_set), for the caller that knows the height to make the
 * rows (lib/run_ranks.c).  It owns the strips. */
struct tf_ov_set {
    struct tf_ov_member *m; /* n, each m[i].s is strips + i */
    struct tf_ov_strip *strips;
    size_t n;
    const char *lane_text;  /* which lane of each rank (a static string) */
    size_t left_out;        /* lanes of no rank left out (GPU streams of no rank) */
};
/* Frees s, its strips and members (NULL: nothing). */
void tf_ov_set_free(struct tf_ov_set *s);

#endif
