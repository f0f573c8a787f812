/* stats_num.h - the number formats every output of the statistics shares
 * (the table and CSV of stats.c, the ranks' of stats_ranks.c, the JSON
 * model's), so that they print the same digits.  Below both writers:
 * neither calls the other for them.
 */
#ifndef TF_RENDER_STATS_NUM_H
#define TF_RENDER_STATS_NUM_H

/* Decimals of times (ms: to the microsecond) and of percentages. */
#define TF_STATS_MS_DEC 3
#define TF_STATS_PCT_DEC 2

/* 100 * part / whole (0 when whole is not positive); inline. */
static inline double tf_stats_pct(double part, double whole)
{
    return whole > 0 ? 100.0 * part / whole : 0.0;
}

#endif
