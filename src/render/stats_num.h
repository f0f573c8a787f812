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

/* The decimals of a statistics' times in ms: its own (ms_dec), else
 * TF_STATS_MS_DEC.  (Takes the value, so this header needs no model.) */
static inline int tf_stats_ms_dec(int ms_dec)
{
    return ms_dec > 0 ? ms_dec : TF_STATS_MS_DEC;
}

/* 100 * part / whole (0 when whole is not positive); inline. */
static inline double tf_stats_pct(double part, double whole)
{
    return whole > 0 ? 100.0 * part / whole : 0.0;
}

#endif
