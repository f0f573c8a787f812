/* scan_fast.c - the scanner's fast path (scan_fast.h) for each instruction
 * set, and the choice among them (see scan_simd.h).
 *
 * The template is compiled portable everywhere, and on x86-64 with GCC or
 * clang also for SSE2, AVX2 and AVX-512 (BW) through target attributes, so
 * the build needs no -m flags and runs on any x86-64; the CPU's features
 * are checked before a set is used.
 */
#include "load/scan_simd.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "load/scan_int.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define TF_FAST_X86 1
#include <immintrin.h>
#endif

#define TF_FAST_ISA 0
#define TF_FAST_SUFFIX portable
#define TF_FAST_NAME "portable"
#define TF_FAST_TARGET
#include "load/scan_fast.h"
#undef TF_FAST_ISA
#undef TF_FAST_SUFFIX
#undef TF_FAST_NAME
#undef TF_FAST_TARGET

#ifdef TF_FAST_X86
#define TF_FAST_ISA 1
#define TF_FAST_SUFFIX sse2
#define TF_FAST_NAME "sse2"
#define TF_FAST_TARGET __attribute__((target("sse2")))
#include "load/scan_fast.h"
#undef TF_FAST_ISA
#undef TF_FAST_SUFFIX
#undef TF_FAST_NAME
#undef TF_FAST_TARGET

#define TF_FAST_ISA 2
#define TF_FAST_SUFFIX avx2
#define TF_FAST_NAME "avx2"
#define TF_FAST_TARGET __attribute__((target("avx2")))
#include "load/scan_fast.h"
#undef TF_FAST_ISA
#undef TF_FAST_SUFFIX
#undef TF_FAST_NAME
#undef TF_FAST_TARGET

#define TF_FAST_ISA 3
#define TF_FAST_SUFFIX avx512
#define TF_FAST_NAME "avx512"
#define TF_FAST_TARGET __attribute__((target("avx512f,avx512bw,avx2")))
#include "load/scan_fast.h"
#undef TF_FAST_ISA
#undef TF_FAST_SUFFIX
#undef TF_FAST_NAME
#undef TF_FAST_TARGET
#endif

const struct tf_scan_kernels *tf_scan_kernels_of(enum tf_simd level)
{
    switch (level) {
    case TF_SIMD_PORTABLE:
        return &kernels_portable;
#ifdef TF_FAST_X86
    case TF_SIMD_SSE2:
        __builtin_cpu_init();
        return __builtin_cpu_supports("sse2") ? &kernels_sse2 : NULL;
    case TF_SIMD_AVX2:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") ? &kernels_avx2 : NULL;
    case TF_SIMD_AVX512:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
                   ? &kernels_avx512
                   : NULL;
#endif
    default:
        return NULL;
    }
}

const struct tf_scan_kernels *tf_scan_kernels(void)
{
    static const char *const names[TF_SIMD_N] = {"portable", "sse2", "avx2", "avx512"};
    /* AVX-512 only when asked: its 64-byte loads measured slower here on
     * the short strings of traces (see scan_simd.h). */
    int want = TF_SIMD_AVX2;
    const char *env = getenv("TRACEFIG_SIMD");
    if (env && *env) {
        want = TF_SIMD_PORTABLE; /* an unknown name */
        for (int i = 0; i < TF_SIMD_N; i++)
            if (strcmp(env, names[i]) == 0)
                want = i;
    }
    const struct tf_scan_kernels *k = NULL;
    for (int i = want; i >= 0 && !k; i--)
        k = tf_scan_kernels_of((enum tf_simd)i);
    return k;
}
