/* scan_simd.h - the scanner's hot loops (scan_fast.h), compiled once per
 * instruction set and chosen at run time.
 *
 * Each set of kernels gives the same results: the portable C loops are the
 * reference, and SSE2, AVX2 and AVX-512 (BW) only read more bytes at once.
 * All of them may read up to 64 bytes past the byte that stops them, which
 * the scanner's buffer padding (TF_SCAN_PAD) covers; the NUL sentinel at the
 * end of the data stops every loop.
 *
 * The set used is the best the CPU (and its OS) supports up to AVX2, as
 * __builtin_cpu_supports reports it (valgrind, which cannot run AVX-512,
 * reports it absent), unless TRACEFIG_SIMD=portable|sse2|avx2|avx512 asks
 * for one: a set the CPU lacks, or an unknown name, gives the best below
 * it (portable for an unknown name).  AVX-512 is used only when asked:
 * on a 1 GB Kineto trace it took 1.76 s of CPU against 1.50 s for AVX2
 * (best of 3, a 100 ms window), the 64-byte loads costing more than they
 * save on strings of a few bytes.  Nothing in the output depends on it.
 *
 * Not for modules other than the scanner and its tests.
 */
#ifndef TF_SCAN_SIMD_H
#define TF_SCAN_SIMD_H

#include <stdbool.h>
#include <stddef.h>

#include "load/scan.h"

/* The fast path handles values nested at most this deep (the caller
 * leaves deeper ones, near the depth limit, to the general path). */
enum { TF_SCAN_FAST_DEPTH = 64 };

enum tf_simd { TF_SIMD_PORTABLE, TF_SIMD_SSE2, TF_SIMD_AVX2, TF_SIMD_AVX512, TF_SIMD_N };

struct tf_scan_kernels {
    enum tf_simd level;
    const char *name; /* "portable", "sse2", "avx2", "avx512" */
    /* Bytes from p on that a string body passes over: p[result] is the
     * first quote, backslash, control byte (< 0x20) or non-ASCII byte. */
    size_t (*plain_run)(const unsigned char *p);
    /* ASCII digits from p on. */
    size_t (*digit_run)(const unsigned char *p);
    /* JSON whitespace (space, tab, LF, CR) from p on. */
    size_t (*ws_run)(const unsigned char *p);
    /* The length of the number at p in its common form (see scan_fast.h),
     * followed by a byte that ends it and (not lenient) obviously in
     * range; 0 otherwise (the general path decides). */
    size_t (*number_len)(const unsigned char *p, bool lenient, bool *is_int);
    /* The fast path of a value read whole or skipped (see scan_fast.h):
     * its length with the members named (learn_names) located, or 0. */
    size_t (*value)(const struct tf_scan *s, const unsigned char *p,
                    struct tf_scan_field *fields, size_t nf);
};

/* The kernels of `level`, or NULL when this build or this CPU lacks it. */
const struct tf_scan_kernels *tf_scan_kernels_of(enum tf_simd level);

/* The kernels a scan uses: TRACEFIG_SIMD's, else the best (see above);
 * looked up again at each tf_scan_init (so tests can switch). */
const struct tf_scan_kernels *tf_scan_kernels(void);

#endif
