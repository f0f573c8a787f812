/* stats.h (render) - the overlap statistics of a figure (figure.h, struct
 * tf_stats) as text for `--stats`: an aligned plain-text table, or CSV
 * with a header row; and the number formats every output of the
 * statistics shares, so the table, the CSV and the JSON model print the
 * same digits.  Knows nothing about modes or lanes beyond the model.
 */
#ifndef TF_RENDER_STATS_H
#define TF_RENDER_STATS_H

#include <stdbool.h>

#include "base/buf.h"
#include "model/figure.h"
#include "render/stats_num.h"

/* The decimals of a counter's values (min, max, mean) whose magnitudes
 * reach at most max(|lo|, |hi|): six significant digits of the largest,
 * 0 to 9 decimals. */
int tf_stats_value_decimals(double lo, double hi);

/* The statistics as an aligned table (times in ms, shares in %), one
 * section per kind of number, sections separated by blank lines.  A
 * figure without statistics gives one line saying so. */
void tf_stats_write_table(const struct tf_figure *f, struct tf_buf *b);

/* The statistics as CSV (quoting as RFC 4180 says, LF line ends): a header row
 * "section,row,column,key,value", then one row per number:
 *   window,,,window_ms,V
 *   lane,LABEL,,busy_ms|busy_pct,V          (lanes in the model's order, but
 *                                            counter lanes)
 *   lane,LABEL,,events,N                    (lanes that count their events)
 *   group,LABEL,,lanes,"0 1"  and  busy_ms|busy_pct,V
 *   overlap,GROUP,GROUP,overlap_ms,V        (the whole matrix, row by row)
 *   pipelined,,,io_hidden_pct|gpu_idle_ms,V
 *   candidate,N,,io_ms|uncovered_io_ms,V
 *   counter,LABEL,,min|max|mean,V           (counter lanes; empty: no value)
 *   device,GROUP,,kind|name|vendor,TEXT     (the devices the trace names)
 *   gpu_breakdown,,,scope|kernel_span_ms|...,V
 *   summary,,,summary,TEXT
 * A null value (io_hidden_pct without I/O, comm_comp_overlap_pct without
 * communication) is an empty field. */
void tf_stats_write_csv(const struct tf_figure *f, struct tf_buf *b);

/* A figure of several traces (the two above call these): one column per
 * trace, titled by it, and with two traces a "difference" column (the
 * second less the first).  Rows are the numbers above matched by section,
 * row, column and key across the traces (a lane or a counter by its label,
 * its process's numbers as "*"), "-" (an
 * empty CSV field) where a trace has none.  The CSV's header row is
 * "section,row,column,key,TITLE1,...[,difference]"; the table has one
 * block per section. */
/* The marks (stats_marks.c): each span, measure and region, its text,
 * start, end and duration in ms from the window's start; nothing without
 * any.  Appended by the two writers above. */
void tf_stats_marks_table(const struct tf_figure *f, struct tf_buf *b);
void tf_stats_marks_csv(const struct tf_figure *f, struct tf_buf *b);

void tf_stats_write_csv_traces(const struct tf_figure *f, struct tf_buf *b);
void tf_stats_write_table_traces(const struct tf_figure *f, struct tf_buf *b);

#endif
