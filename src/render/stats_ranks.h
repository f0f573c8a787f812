/* stats_ranks.h - `--stats` of a job's overview (stats_ranks.c), which
 * stats.c hands such figures.
 */
#ifndef TF_RENDER_STATS_RANKS_H
#define TF_RENDER_STATS_RANKS_H

#include "base/buf.h"
#include "model/figure.h"

/* A job's overview (stats.c's tf_stats_write_table and _csv call these): the spread
 * across its ranks (count, rows, the lane of each, the window, the least,
 * median and greatest busy share with the ranks of the extremes, the last
 * rank to end, its end and how long after the median rank's and the next
 * rank's); the CSV then each rank in the order drawn:
 *   ranks,,,count|rows|per_row|order|lane|busy_pct_min|...|after_next_ms,V
 *   rank,RANK,,row|busy_ms|busy_pct|end_ms,V */
void tf_stats_write_table_ranks(const struct tf_figure *f, struct tf_buf *b);
void tf_stats_write_csv_ranks(const struct tf_figure *f, struct tf_buf *b);

#endif
